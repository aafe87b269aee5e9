import type { ReaderInput, ReaderResponse, ReadersList, SaleResponse } from '@bookstore/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
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

// POST /api/admin/readers (owners and managers: terminal.readers)
export function useRegisterReader() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ReaderInput) => apiFetch<ReaderResponse>('/api/admin/readers', { method: 'POST', token: adminToken(), body: input }).then((r) => r.reader),
    onSuccess: () => client.invalidateQueries({ queryKey: readersQuery().queryKey }),
  });
}

// DELETE /api/admin/readers/:id (owners and managers: terminal.readers)
export function useRemoveReader() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (readerId: string) => apiFetch<void>(`/api/admin/readers/${encodeURIComponent(readerId)}`, { method: 'DELETE', token: adminToken() }),
    onSuccess: () => client.invalidateQueries({ queryKey: readersQuery().queryKey }),
  });
}

// POST /api/admin/sales/:id/cancel
export function cancelTerminalSale(saleId: string) {
  return apiFetch<SaleResponse>(`/api/admin/sales/${encodeURIComponent(saleId)}/cancel`, { method: 'POST', token: adminToken(), body: {} });
}
