import type { OrdersPage } from '@bookstore/contract';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api-client';
import { authSdk } from '../../lib/auth/auth-context';
import { queryKeys } from '../../lib/query-keys';

/** Every key under this is the signed-in customer's orders: a write invalidates it whole. */
export const myOrdersKey = queryKeys.myOrders;

/** GET /api/orders?cursor= : the signed-in customer's orders, newest first, a page at a time. */
export const myOrdersQuery = (uid: string) =>
  infiniteQueryOptions({
    queryKey: [...myOrdersKey, 'mine', uid],
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) => {
      const token = await (await authSdk()).idToken();
      const search = pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : '';
      return apiFetch<OrdersPage>(`/api/orders${search}`, { token });
    },
    getNextPageParam: (last) => last.nextCursor,
  });
