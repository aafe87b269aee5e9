import type { DeskPreordersPage } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { queryKeys } from '../../../lib/query-keys';
import { adminFetch } from '../api/staff-api';

export type PreorderTab = 'waiting' | 'allocated';

/** GET /api/admin/preorders?state=&cursor= : one page of 25 lines, soonest publication first (issue 41). */
export const deskPreordersQuery = (state: PreorderTab, cursor: string | null) =>
  queryOptions({
    queryKey: [...queryKeys.adminPreorders, state, cursor],
    queryFn: () => {
      const params = new URLSearchParams({ state });
      if (cursor) params.set('cursor', cursor);
      return adminFetch<DeskPreordersPage>(`/api/admin/preorders?${params}`, { token: adminToken() });
    },
    // The list stays put while its next page loads; the other tab shows its own loading state.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === state ? previous : undefined),
  });
