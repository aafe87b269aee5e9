import { isSpecialOrderOrder, OrderStatusChangeSchema, type AdminOrdersPage, type Order, type OrderMutationResponse, type OrderStatus, type OrderTab, type Refund, type RefundRequest } from '@bookstore/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { adminFetch } from '../api/staff-api';
import { queryKeys } from '../../../lib/query-keys';

/** Every desk query (lists and single orders) sits under this key. */
export const adminOrdersKey = queryKeys.adminOrders;

export interface DeskParams {
  status: OrderTab;
  q: string;
  cursor: string | null;
}

/** GET /api/admin/orders?status=&q=&cursor= : one page of 25, newest first, with the tabs' counts. */
export const adminOrdersQuery = ({ status, q, cursor }: DeskParams) =>
  queryOptions({
    queryKey: [...adminOrdersKey, 'list', { status, q, cursor }],
    queryFn: () => {
      const params = new URLSearchParams();
      if (status !== 'all') params.set('status', status);
      if (q) params.set('q', q);
      if (cursor) params.set('cursor', cursor);
      const search = params.toString();
      return adminFetch<AdminOrdersPage>(`/api/admin/orders${search ? `?${search}` : ''}`, { token: adminToken() });
    },
    placeholderData: keepPreviousData, // the table stays put while the next page loads
  });

/** GET /api/orders/:id with the admin's token. */
export const adminOrderQuery = (id: string) =>
  queryOptions({
    queryKey: [...adminOrdersKey, 'detail', id],
    queryFn: () => adminFetch<Order>(`/api/orders/${encodeURIComponent(id)}`, { token: adminToken() }),
  });

/** POST /api/admin/orders/:id/status */
export function changeOrderStatus(id: string, status: OrderStatus, note?: string) {
  return adminFetch<OrderMutationResponse>(`/api/admin/orders/${encodeURIComponent(id)}/status`, {
    method: 'POST',
    body: OrderStatusChangeSchema.parse(note ? { status, note } : { status }),
    token: adminToken(),
  });
}

/** A status change: the order, the desk's lists and counts, and the overview's figures all move. */
export function useChangeOrderStatus() {
  const queryClient = useQueryClient();
  const refresh = (id: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminOrdersKey }),
      queryClient.invalidateQueries({ queryKey: queryKeys.adminStats }),
      queryClient.invalidateQueries({ queryKey: queryKeys.books }), // cancelled and refused put copies back
      // A special order's order cancelled or refused closes its request.
      ...(isSpecialOrderOrder(id) ? [queryClient.invalidateQueries({ queryKey: queryKeys.adminSpecialOrders })] : []),
    ]);
  return useMutation({
    mutationFn: ({ id, status, note }: { id: string; status: OrderStatus; note?: string }) => changeOrderStatus(id, status, note),
    onSuccess: async ({ order }) => {
      queryClient.setQueryData(adminOrderQuery(order._id).queryKey, order);
      await refresh(order._id);
    },
    onError: (_error, { id }) => refresh(id), // a 409 means someone else moved it: show where it is now
  });
}

export interface RefundAnswer {
  message: string;
  order: Order;
  /** The money part (absent when all of it went back on the order's gift card). */
  refund?: Refund;
  giftCard?: { amount: number };
  /** Issue 54: a refund as store credit: the new gift card (its code to hand over, once). */
  storeCredit?: { code?: string; amount: number; last4: string };
}

/**
 * POST /api/admin/orders/:id/refunds with an Idempotency-Key: a retry of the same form makes one refund.
 * A sensitive action (issue 36): through adminFetch, so an old proof asks for the password and sends it again.
 */
export function refundOrder(id: string, body: RefundRequest, idempotencyKey: string) {
  return adminFetch<RefundAnswer>(`/api/admin/orders/${encodeURIComponent(id)}/refunds`, {
    method: 'POST',
    body,
    token: adminToken(),
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

/** A refund: the order (its payment, maybe its stock), the desk and the overview's refunded figure move. */
export function useRefundOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body, key }: { id: string; body: RefundRequest; key: string }) => refundOrder(id, body, key),
    onSuccess: async ({ order }) => {
      queryClient.setQueryData(adminOrderQuery(order._id).queryKey, order);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminOrdersKey }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminStats }),
        queryClient.invalidateQueries({ queryKey: queryKeys.books }),
      ]);
    },
  });
}

/** POST /api/admin/orders/:id/ship-available (issue 41): the lines on hand ship now, the waiting pre-orders later. */
export function useShipAvailable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => adminFetch<OrderMutationResponse>(`/api/admin/orders/${encodeURIComponent(id)}/ship-available`, { method: 'POST', token: adminToken() }),
    onSuccess: async ({ order }) => {
      queryClient.setQueryData(adminOrderQuery(order._id).queryKey, order);
      await queryClient.invalidateQueries({ queryKey: adminOrdersKey });
    },
  });
}
