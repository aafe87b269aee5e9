import type { PaymentProblemsPage } from '@bookstore/contract';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

// The payment problems queue (issue 54): orders whose money needs staff, newest first.

// GET /api/admin/payment-problems?cursor=
export const paymentProblemsQuery = () =>
  infiniteQueryOptions({
    queryKey: queryKeys.adminPaymentProblems,
    initialPageParam: '',
    queryFn: ({ pageParam }) => apiFetch<PaymentProblemsPage>(`/api/admin/payment-problems${pageParam ? `?cursor=${pageParam}` : ''}`, { token: adminToken() }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
