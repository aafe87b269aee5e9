import type { ReadersList, SaleResponse } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

// The tills' Stripe Terminal readers and a terminal sale's Cancel (issue 57).

// GET /api/admin/readers
export const readersQuery = () =>
  queryOptions({
    queryKey: [...queryKeys.adminSales, 'readers'],
    queryFn: ({ signal }) => apiFetch<ReadersList>('/api/admin/readers', { token: adminToken(), signal }).then((r) => r.readers),
  });

// POST /api/admin/sales/:id/cancel
export function cancelTerminalSale(saleId: string) {
  return apiFetch<SaleResponse>(`/api/admin/sales/${encodeURIComponent(saleId)}/cancel`, { method: 'POST', token: adminToken(), body: {} });
}
