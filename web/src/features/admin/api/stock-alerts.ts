import type { StockAlertCount } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { askToReauth, isReauthRequired } from './staff-api';

// GET /api/admin/stock-alerts/:bookId: how many addresses wait for the book's restock (issue 28).
// Under the books root: a book's edit (a restock mails and clears them) refreshes it.
export const stockAlertCountQuery = (bookId: string) =>
  queryOptions({
    queryKey: [...queryKeys.books, 'stock-alerts', bookId],
    queryFn: () => apiFetch<StockAlertCount>(`/api/admin/stock-alerts/${encodeURIComponent(bookId)}`, { token: adminToken() }),
  });

const fetchCsv = () => fetch('/api/admin/newsletter.csv', { headers: { Authorization: `Bearer ${adminToken() ?? ''}` } });

// GET /api/admin/newsletter.csv: the confirmed addresses, downloaded as a file. A sensitive action
// (issue 36): without a recent proof the person confirms their password, and it is asked again once.
export async function downloadNewsletterCsv(): Promise<void> {
  let res = await fetchCsv();
  let body: { message?: string } | null = res.ok ? null : ((await res.json().catch(() => ({}))) as { message?: string });
  if (!res.ok && isReauthRequired(res.status, body) && (await askToReauth())) {
    res = await fetchCsv();
    body = res.ok ? null : ((await res.json().catch(() => ({}))) as { message?: string });
  }
  if (!res.ok) throw new Error(body?.message ?? `Export failed (${res.status})`);
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = 'newsletter.csv';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
