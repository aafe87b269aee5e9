import type { FailedMailPage } from '@bookstore/contract';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

// Mail the shop could not send (issue 36): the sendMail function gave up on it (decision 037).

// GET /api/admin/mail/failed?cursor=
export const failedMailQuery = () =>
  infiniteQueryOptions({
    queryKey: queryKeys.adminFailedMail,
    initialPageParam: '',
    queryFn: ({ pageParam }) => apiFetch<FailedMailPage>(`/api/admin/mail/failed${pageParam ? `?cursor=${pageParam}` : ''}`, { token: adminToken() }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
