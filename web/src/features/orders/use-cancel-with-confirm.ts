import { canTransition, fulfilmentKind, refundsWhenCancelled, type Order } from '@bookstore/contract';
import { ApiError } from '../../lib/api-client';
import { alertBox, confirmAction, toast } from '../../lib/notify';
import { useCancelOrder } from './cancel-order';

/** A paid card order with a pre-order still waiting (issue 41): its cancel refunds it by itself. */
const paidPreorder = (order: Order) => order.payment.method === 'card' && order.payment.status === 'paid' && !order.payment.problem && refundsWhenCancelled(order);

/**
 * Whether to offer 'Cancel Order' (the contract's lifecycle; the server decides again). A card order
 * the customer paid is cancelled by the shop, which refunds it; but a paid pre-order still waiting the
 * customer may cancel, and its cancel refunds it.
 */
export const customerCanCancel = (order: Order) =>
  canTransition(order.status, 'cancelled', 'customer', fulfilmentKind(order)) &&
  (paidPreorder(order) || !(order.payment.method === 'card' && (['paid', 'partially_refunded', 'refunded'].includes(order.payment.status) || order.payment.problem)));

/** 'Cancel Order': asks first (with an optional note), then cancels and says what happened. */
export function useCancelWithConfirm() {
  const mutation = useCancelOrder();
  const cancel = async (order: Order) => {
    const answer = await confirmAction({
      title: 'Cancel this order?',
      text: `Order of ${order.items.length === 1 ? '1 book' : `${order.items.length} books`}. ${paidPreorder(order) ? 'What you paid by card is refunded in full. ' : ''}This cannot be undone.`,
      confirmButtonText: 'Cancel Order',
      cancelButtonText: 'Keep order',
      danger: true,
      askNote: true,
    });
    if (!answer) return;
    try {
      await mutation.mutateAsync({ id: order._id, note: answer.note });
      void toast('Order cancelled', { timer: 2000 });
    } catch (error) {
      console.error('Cancel failed', error);
      const text = error instanceof ApiError && error.status === 409 ? 'It has already moved on (shipped or cancelled). The page now shows its current status.' : 'Please try again.';
      await alertBox('Could not cancel the order', text, 'error');
    }
  };
  return { cancel, pendingId: mutation.isPending ? mutation.variables?.id : undefined };
}
