import type { SpecialOrder, SpecialOrdersPage, SpecialOrderStatus, StaffSpecialStatus } from '@bookstore/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { queryKeys } from '../../../lib/query-keys';
import { adminFetch } from '../api/staff-api';

/** GET /api/admin/special-orders?status=&cursor= : one status's requests, newest first, 20 a page (issue 41). */
export const deskSpecialOrdersQuery = (status: SpecialOrderStatus, cursor: string | null) =>
  queryOptions({
    queryKey: [...queryKeys.adminSpecialOrders, status, cursor],
    queryFn: () => {
      const params = new URLSearchParams({ status });
      if (cursor) params.set('cursor', cursor);
      return adminFetch<SpecialOrdersPage>(`/api/admin/special-orders?${params}`, { token: adminToken() });
    },
    // The list stays put while its next page loads; another status shows its own loading state.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === status ? previous : undefined),
  });

export interface SpecialMove {
  id: string;
  status: StaffSpecialStatus;
  /** A quote's price of one copy, in dollars as typed, and the expected date (YYYY-MM-DD). */
  price?: string;
  expectedOn?: string;
}

/**
 * POST /api/admin/special-orders/:id/status. The lists move, and so may the request's order
 * (collected or cancelled with it) and the overview's counts.
 */
export function useMoveSpecialOrder() {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.adminSpecialOrders }),
      queryClient.invalidateQueries({ queryKey: queryKeys.adminOrders }),
      queryClient.invalidateQueries({ queryKey: queryKeys.adminStats }),
    ]);
  return useMutation({
    mutationFn: ({ id, ...body }: SpecialMove) =>
      adminFetch<{ message: string; specialOrder: SpecialOrder }>(`/api/admin/special-orders/${encodeURIComponent(id)}/status`, { method: 'POST', body, token: adminToken() }),
    onSuccess: refresh,
    onError: refresh, // a 409 means someone else moved it: show where it is now
  });
}
