import type { OrderCancel, OrderMutationResponse } from '@bookstore/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api-client';
import { authSdk } from '../auth/auth-context';
import { myOrderQuery } from './get-order';
import { myOrdersKey } from './get-orders';

/** POST /api/orders/:id/cancel : allowed while pending or confirmed; the stock goes back. */
export async function cancelOrder(id: string, body: OrderCancel): Promise<OrderMutationResponse> {
  const token = await (await authSdk()).idToken();
  return apiFetch<OrderMutationResponse>(`/api/orders/${encodeURIComponent(id)}/cancel`, { method: 'POST', body, token });
}

export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, note }: { id: string; note?: string }) => cancelOrder(id, note ? { note } : {}),
    onSuccess: async ({ order }) => {
      queryClient.setQueryData(myOrderQuery(order._id).queryKey, order);
      // The list, and the books whose copies came back (their stock shows on the storefront).
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: myOrdersKey }),
        queryClient.invalidateQueries({ queryKey: ['books'] }),
      ]);
    },
    onError: () => queryClient.invalidateQueries({ queryKey: myOrdersKey }),
  });
}
