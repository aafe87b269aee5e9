import { isSpecialOrderOrder, OrderCancelSchema, type OrderCancel, type OrderMutationResponse } from '@bookstore/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api-client';
import { authSdk } from '../../lib/auth/auth-context';
import { queryKeys } from '../../lib/query-keys';
import { myOrderQuery } from './get-order';
import { myOrdersKey } from './get-orders';

/** POST /api/orders/:id/cancel : allowed while pending or confirmed; the stock goes back. */
export async function cancelOrder(id: string, body: OrderCancel): Promise<OrderMutationResponse> {
  const token = await (await authSdk()).idToken();
  return apiFetch<OrderMutationResponse>(`/api/orders/${encodeURIComponent(id)}/cancel`, { method: 'POST', body: OrderCancelSchema.parse(body), token });
}

export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, note }: { id: string; note?: string }) => cancelOrder(id, note ? { note } : {}),
    onSuccess: async ({ order }) => {
      queryClient.setQueryData(myOrderQuery(order._id).queryKey, order);
      // The list, the books whose copies came back (their stock shows on the storefront), the
      // desk and the revenue figures (an admin may use the same browser).
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: myOrdersKey }),
        queryClient.invalidateQueries({ queryKey: queryKeys.books }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminOrders }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminStats }),
        // A special order's order takes its request with it (cancelled).
        ...(isSpecialOrderOrder(order._id) ? [queryClient.invalidateQueries({ queryKey: queryKeys.mySpecialOrders })] : []),
      ]);
    },
    onError: () => queryClient.invalidateQueries({ queryKey: myOrdersKey }),
  });
}
