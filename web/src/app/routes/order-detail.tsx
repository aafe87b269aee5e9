import { buttonClass, textLink } from '../../components/ui/button';
import { pageClass, pageTitle } from '../../components/ui/page';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { PaymentDetails } from '../../components/orders/order-payment';
import { usePayNow } from '../../features/orders/pay-now';
import { OrderTotals, methodLabel, totalLabel } from '../../components/orders/order-charges';
import { OrderLines, formatAddress } from '../../components/orders/order-lines';
import { StatusBadge, shortId } from '../../components/orders/order-status';
import { OrderTimeline } from '../../components/orders/order-timeline';
import { RequireUser } from '../../lib/auth/require-user';
import { isPermissionDenied, LiveErrorBoundary, LiveFirestore } from '../../lib/live-firestore';
import { LiveNotice } from '../../features/orders/live-notice';
import { useLiveOrder, useStatusNotice } from '../../features/orders/live-orders';
import { customerCanCancel, useCancelWithConfirm } from '../../features/orders/use-cancel-with-confirm';
import type { Order } from '@bookstore/contract';
import { formatDate } from '../../lib/format';
import { usePageTitle } from '../../lib/use-page-title';

export function Component() {
  const { id = '' } = useParams();
  usePageTitle(`Order #${shortId(id)}`);
  return (
    <RequireUser>
      <LiveFirestore>
        <LiveErrorBoundary key={id} fallback={(error) => <Unavailable missing={isPermissionDenied(error)} />}>
          <OrderDetail id={id} />
        </LiveErrorBoundary>
      </LiveFirestore>
    </RequireUser>
  );
}

function OrderDetail({ id }: { id: string }) {
  // Followed live from Firestore: someone else's order is refused by the rules, and reads as not found.
  const { status, order, missing } = useLiveOrder(id);
  const notice = useStatusNotice(order ? [order] : []);
  const { cancel, pendingId } = useCancelWithConfirm();
  const payNow = usePayNow();
  const [search] = useSearchParams();
  if (status === 'loading') return <p role="status" className="py-16 text-center">Loading...</p>;
  if (status === 'error' || !order) return <Unavailable missing={missing} />;
  return (
    <article className={`${pageClass} max-w-5xl`}>
      <Link to="/orders" className={`text-sm ${textLink}`}><span aria-hidden="true">&larr; </span>Your Orders</Link>
      <header className="mt-3 mb-6 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className={pageTitle}>Order #{shortId(order._id)}</h1>
          <p className="text-sm text-gray-600">Placed <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time> · <span className="break-all">{order._id}</span></p>
        </div>
        <div className="flex items-center gap-3">
          <StatusBadge status={order.status} />
          {customerCanCancel(order) && (
            <button
              type="button"
              onClick={() => cancel(order)}
              disabled={pendingId === order._id}
              className={buttonClass('secondary', 'sm')}
            >
              {pendingId === order._id ? 'Cancelling...' : 'Cancel Order'}
            </button>
          )}
        </div>
      </header>
      <LiveNotice notice={notice} />
      <CheckoutReturn order={order} returned={search.get('checkout')} />
      <div className="grid items-start gap-6 md:grid-cols-5">
        <section className="rounded-lg bg-white p-5 shadow ring-1 ring-gray-100 md:col-span-3" aria-labelledby="items-heading">
          <h2 id="items-heading" className="mb-2 font-semibold">Items ({order.items.length})</h2>
          <OrderLines order={order} bookHref={(bookId) => `/books/${bookId}`} />
          <OrderTotals order={order} label={order.payment.method === 'card' ? 'Total, by card' : totalLabel(order, 'Total')} />
        </section>
        <div className="space-y-6 md:col-span-2">
          <section className="rounded-lg bg-white p-5 shadow ring-1 ring-gray-100" aria-labelledby="delivery-heading">
            <h2 id="delivery-heading" className="mb-2 font-semibold">{order.delivery?.method === 'pickup' ? 'Pickup in the shop' : 'Delivery'}</h2>
            {order.delivery && order.delivery.method !== 'pickup' && <p className="mb-2 text-sm text-gray-700">{methodLabel(order)}</p>}
            <address className="text-sm not-italic text-gray-700">
              {order.name}<br />
              {order.address && <>{formatAddress(order.address)}<br /></>}
              {order.phone}<br />
              <span className="break-all">{order.email}</span>
            </address>
            {order.pickup && <PickupDetails pickup={order.pickup} ready={order.status === 'ready_for_pickup'} />}
          </section>
          <section className="rounded-lg bg-white p-5 shadow ring-1 ring-gray-100" aria-labelledby="payment-heading">
            <h2 id="payment-heading" className="mb-2 font-semibold">Payment</h2>
            <PaymentDetails order={order} who={(_by, source) => (source === 'stripe' ? 'the shop (Stripe)' : 'the shop')} />
            {payable(order) && (
              <button type="button" onClick={() => payNow.mutate(order._id)} disabled={payNow.isPending} className={buttonClass('primary', 'md', 'mt-4 w-full')}>
                {payNow.isPending ? 'Opening the payment page...' : 'Pay Now'}
              </button>
            )}
            {payNow.isError && <p role="alert" className="mt-2 text-sm text-danger">{payNow.error instanceof Error ? payNow.error.message : 'Could not open the payment page.'} Please try again.</p>}
          </section>
          <section className="rounded-lg bg-white p-5 shadow ring-1 ring-gray-100" aria-labelledby="history-heading">
            <h2 id="history-heading" className="mb-4 font-semibold">History</h2>
            <OrderTimeline order={order} actorLabel={(by) => (by.kind === 'customer' ? 'you' : 'the shop')} />
          </section>
        </div>
      </div>
    </article>
  );
}

/** An unpaid card order that can still be paid (a new payment page each time: the server decides again). */
const payable = (order: Order) => order.payment.method === 'card' && order.status === 'pending' && (order.payment.status === 'awaiting' || order.payment.status === 'failed') && !(order.payment.problem && !order.payment.problem.resolvedAt);

/**
 * Back from the payment page (?checkout=success or cancelled): what is happening now. The payment is
 * confirmed by Stripe's webhook, not by this visit, so 'success' waits for the live status to say Paid.
 */
function CheckoutReturn({ order, returned }: { order: Order; returned: string | null }) {
  if (order.payment.method !== 'card' || !returned) return null;
  const status = order.payment.status;
  const text =
    status === 'paid' ? 'Thank you: your payment was received.'
      : returned === 'success' && status === 'awaiting' ? 'Thank you: we are confirming your payment with the bank...'
        : status === 'awaiting' || status === 'failed' ? 'Your card was not charged. Pay Now to try again: your books are held until the payment time runs out.'
          : null;
  if (!text) return null;
  return <p role="status" className="mb-4 rounded-md bg-primary-soft px-4 py-3 text-secondary ring-1 ring-primary" data-testid="checkout-return">{text}</p>;
}

/** Where and when to collect a pickup order; once it is ready, until when it is kept. */
function PickupDetails({ pickup, ready }: { pickup: NonNullable<Order['pickup']>; ready: boolean }) {
  return (
    <div className="mt-3 space-y-2 border-t border-gray-100 pt-3 text-sm text-gray-700" data-testid="pickup-details">
      <p><span className="font-medium text-gray-900">Collect at:</span> <span className="whitespace-pre-line">{pickup.address}</span></p>
      <p><span className="font-medium text-gray-900">Opening hours:</span> <span className="whitespace-pre-line">{pickup.hours}</span></p>
      {ready && pickup.holdUntil && <p className="font-medium text-secondary">Ready: we keep it for you until <time dateTime={pickup.holdUntil}>{formatDate(pickup.holdUntil)}</time>.</p>}
    </div>
  );
}

/** Someone else's order (refused by the rules) or no such order: 'Order not found.'; else the spec's error. */
function Unavailable({ missing }: { missing: boolean }) {
  return (
    <section className={pageClass}>
      <p role="alert" className={missing ? 'text-gray-800' : 'text-danger'}>{missing ? 'Order not found.' : 'Error getting order data'}</p>
      <Link to="/orders" className={`mt-6 inline-block ${textLink}`}>Back to your orders</Link>
    </section>
  );
}
