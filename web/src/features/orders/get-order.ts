import type { Order } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api-client';
import { authSdk } from '../auth/auth-context';
import { myOrdersKey } from './get-orders';

/** GET /api/orders/:id : one of the customer's own orders (anyone else's answers 404). */
export const myOrderQuery = (id: string) =>
  queryOptions({
    queryKey: [...myOrdersKey, 'detail', id],
    queryFn: async () => {
      const token = await (await authSdk()).idToken();
      return apiFetch<Order>(`/api/orders/${encodeURIComponent(id)}`, { token });
    },
  });
