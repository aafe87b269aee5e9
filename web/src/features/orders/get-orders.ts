import type { Order } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api-client';
import { authSdk } from '../auth/auth-context';

export const ordersQuery = (email: string) =>
  queryOptions({
    queryKey: ['orders', email],
    queryFn: async () => {
      const token = await (await authSdk()).idToken();
      return apiFetch<Order[]>(`/api/orders/email/${encodeURIComponent(email)}`, { token });
    },
  });
