import type { FailedMailPage, ResendMailResult, WaitingMailPage } from '@bookstore/contract';
import { infiniteQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

// The shop's mail that did not go out (issues 36 and 58, decision 037): what the mailer gave up on,
// what it is still trying (retrying, stuck), and sending a failed one again.

// GET /api/admin/mail/failed?cursor=
export const failedMailQuery = () =>
  infiniteQueryOptions({
    queryKey: queryKeys.adminFailedMail,
    initialPageParam: '',
    queryFn: ({ pageParam }) => apiFetch<FailedMailPage>(`/api/admin/mail/failed${pageParam ? `?cursor=${pageParam}` : ''}`, { token: adminToken() }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

// GET /api/admin/mail/waiting?cursor=
export const waitingMailQuery = () =>
  infiniteQueryOptions({
    queryKey: queryKeys.adminWaitingMail,
    initialPageParam: '',
    queryFn: ({ pageParam }) => apiFetch<WaitingMailPage>(`/api/admin/mail/waiting${pageParam ? `?cursor=${pageParam}` : ''}`, { token: adminToken() }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

// POST /api/admin/mail/:id/resend: the sweeper sends it within a minute.
export function useResendMail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<ResendMailResult>(`/api/admin/mail/${encodeURIComponent(id)}/resend`, { method: 'POST', token: adminToken() }),
    // The failed list is left as it is, so the mail stays in view with what became of it.
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.adminWaitingMail }),
        client.invalidateQueries({ queryKey: queryKeys.adminAudit }),
      ]),
  });
}
