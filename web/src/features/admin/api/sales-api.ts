import type {
  CounterBookResponse, CounterBooksPage, SaleResponse, SaleReturnInput, SaleReturnResponse, SalesPage, SalesSummary,
} from '@bookstore/contract';
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

// The counter's requests (issue 39). A sale is sent by the counter's queue (counter/sale-queue.ts),
// not by a mutation: it must outlive the page and the network.

// POST /api/admin/sales (the body as queued; 201 or, for a saleId the server already has, 200)
export function postSale(body: unknown) {
  return apiFetch<SaleResponse>('/api/admin/sales', { method: 'POST', token: adminToken(), body, timeoutMs: 20_000 });
}

// GET /api/admin/sales/books?since=&cursor=&limit=  (the device's book list: counter-books-sync.ts)
export function getCounterBooks(request: { since?: string; cursor?: string; limit: number }) {
  const params = new URLSearchParams({ limit: String(request.limit) });
  if (request.since) params.set('since', request.since);
  if (request.cursor) params.set('cursor', request.cursor);
  return apiFetch<CounterBooksPage>(`/api/admin/sales/books?${params}`, { token: adminToken() });
}

// GET /api/admin/sales/books/:isbn
export function getCounterBook(isbn13: string) {
  return apiFetch<CounterBookResponse>(`/api/admin/sales/books/${encodeURIComponent(isbn13)}`, { token: adminToken(), timeoutMs: 8_000 });
}

// GET /api/admin/sales/summary?date=
export const salesSummaryQuery = (date: string) =>
  queryOptions({
    queryKey: [...queryKeys.adminSales, 'summary', date],
    queryFn: ({ signal }) => apiFetch<SalesSummary>(`/api/admin/sales/summary?date=${date}`, { token: adminToken(), signal }),
  });

// GET /api/admin/sales?date=&cursor=
export const daySalesQuery = (date: string) =>
  infiniteQueryOptions({
    queryKey: [...queryKeys.adminSales, 'day', date],
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) =>
      apiFetch<SalesPage>(`/api/admin/sales?date=${date}${pageParam ? `&cursor=${pageParam}` : ''}`, { token: adminToken(), signal }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

// GET /api/admin/sales/:id
export const saleQuery = (id: string) =>
  queryOptions({
    queryKey: [...queryKeys.adminSales, 'sale', id],
    queryFn: ({ signal }) => apiFetch<SaleResponse>(`/api/admin/sales/${encodeURIComponent(id)}`, { token: adminToken(), signal }).then((r) => r.sale),
  });

/** What a sale or a return changes on screen: the takings, the overview's counter figures, the books' stock. */
export function useSalesChanged() {
  const client = useQueryClient();
  // Stable: the counter's effects depend on it (a new function each render would re-run them).
  return useCallback(() => {
    for (const key of [queryKeys.adminSales, queryKeys.adminStats, queryKeys.books]) void client.invalidateQueries({ queryKey: key });
  }, [client]);
}

// POST /api/admin/sales/:id/returns
export function useReturnSale(saleId: string) {
  const changed = useSalesChanged();
  return useMutation({
    mutationFn: (input: SaleReturnInput) =>
      apiFetch<SaleReturnResponse>(`/api/admin/sales/${encodeURIComponent(saleId)}/returns`, { method: 'POST', token: adminToken(), body: input }),
    onSuccess: changed,
  });
}
