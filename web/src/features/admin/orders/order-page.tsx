import { buttonClass } from '../../../components/ui/button';
import { fulfilmentKind, nextStatuses, refundsWhenCancelled, type Order, type OrderStatus } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { usePageTitle } from '../../../lib/use-page-title';
import { OrderTotals, methodLabel, totalLabel } from '../../../components/orders/order-charges';
import { OrderLines, formatAddress } from '../../../components/orders/order-lines';
import { StatusBadge, shortId } from '../../../components/orders/order-status';
import { OrderTimeline } from '../../../components/orders/order-timeline';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime, money } from '../../../lib/format';
import { alertBox, confirmAction, toast } from '../../../lib/notify';
import { PaymentDetails } from '../../../components/orders/order-payment';
import { useMe } from '../api/staff-api';
import { adminOrderQuery, useChangeOrderStatus, useShipAvailable } from './desk-api';
import { RefundForm } from './refund-form';
import { actionFor } from './order-actions';

/** A paid card order with a pre-order still waiting: its cancel refunds it (issue 41). */
const refundsOnCancel = (order: Order) => order.payment.method === 'card' && ['paid', 'partially_refunded'].includes(order.payment.status) && refundsWhenCancelled(order);

/** One order on the desk: lines, customer, address, history, and only the moves allowed from here. */
export function Component() {
  const { id = '' } = useParams();
  usePageTitle(`Order #${shortId(id)}`);
  const { data: order, isPending, error, refetch } = useQuery(adminOrderQuery(id));
  const back = (
    <Link to="/dashboard/orders" className="text-sm font-medium text-accent hover:underline">
      <span aria-hidden="true">&larr; </span>All orders
    </Link>
  );
  if (isPending) return <p role="status" className="py-12 text-center text-gray-600">Loading order...</p>;
  if (error || !order) {
    const missing = error instanceof ApiError && error.status === 404;
    return (
      <section className="rounded-lg bg-white p-6 shadow">
        {back}
        <p role="alert" className="mt-4 text-gray-800">
          {missing ? 'No order with this id.' : 'Could not load the order.'}{' '}
          {!missing && <button type="button" onClick={() => refetch()} className="font-semibold underline">Try Again</button>}
        </p>
      </section>
    );
  }
  return (
    <article className="space-y-6" aria-labelledby="order-heading">
      <div className="rounded-lg bg-white p-4 shadow sm:p-6">
        {back}
        <div className="mt-3 flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
          <div>
            <div className="flex flex-wrap items-center gap-3">
              <h3 id="order-heading" className="font-mono text-2xl font-bold">Order #{shortId(order._id)}</h3>
              <StatusBadge status={order.status} />
            </div>
            <p className="mt-1 text-sm text-gray-600">
              Placed <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time> · <span className="break-all">{order._id}</span>
            </p>
          </div>
          <StatusActions order={order} />
        </div>
      </div>

      <div className="grid items-start gap-6 lg:grid-cols-3">
        <section className="rounded-lg bg-white p-4 shadow sm:p-6 lg:col-span-2" aria-labelledby="lines-heading">
          <h4 id="lines-heading" className="mb-2 font-semibold">Items ({order.items.length})</h4>
          <OrderLines order={order} />
          <PartsPanel order={order} />
          <OrderTotals order={order} label={order.payment.method === 'card' ? 'Total, by card' : totalLabel(order, 'Due')} />
        </section>
        <section className="rounded-lg bg-white p-4 shadow sm:p-6" aria-labelledby="customer-heading">
          <h4 id="customer-heading" className="mb-3 font-semibold">Customer</h4>
          <dl className="space-y-3 text-sm">
            <div><dt className="text-gray-600">Name</dt><dd className="font-medium">{order.name}</dd></div>
            <div><dt className="text-gray-600">Email</dt><dd className="break-all"><a href={`mailto:${order.email}`} className="text-accent hover:underline">{order.email}</a></dd></div>
            <div><dt className="text-gray-600">Phone</dt><dd><a href={`tel:${order.phone.replace(/[^+0-9]/g, '')}`} className="text-accent hover:underline">{order.phone}</a></dd></div>
            <div><dt className="text-gray-600">How</dt><dd>{methodLabel(order)}</dd></div>
            {order.address && <div><dt className="text-gray-600">Address</dt><dd>{formatAddress(order.address)}</dd></div>}
            {order.pickup?.holdUntil && order.status === 'ready_for_pickup' && (
              <div><dt className="text-gray-600">Held until</dt><dd><time dateTime={order.pickup.holdUntil}>{formatDateTime(order.pickup.holdUntil)}</time></dd></div>
            )}
          </dl>
        </section>
        <section className="rounded-lg bg-white p-4 shadow sm:p-6 lg:col-span-2" aria-labelledby="timeline-heading">
          <h4 id="timeline-heading" className="mb-4 font-semibold">History</h4>
          <OrderTimeline order={order} actorLabel={(by) => (by.kind === 'admin' ? `the ${by.id}` : by.kind === 'system' ? (by.id === 'stripe' ? 'the shop (payment expired)' : 'the shop (hold expired)') : 'the customer')} />
        </section>
        <PaymentPanel order={order} />
      </div>
    </article>
  );
}

/** An order with pre-orders still waiting (issue 41): what was shipped in parts, what still waits, and 'Ship available items'. */
function PartsPanel({ order }: { order: Order }) {
  const ship = useShipAvailable();
  const waiting = order.items.filter((l) => l.preorder === 'waiting');
  const sent = new Set((order.shipments ?? []).flatMap((s) => s.bookIds));
  if (waiting.length === 0 && !order.shipments?.length) return null;
  const ready = order.items.filter((l) => l.preorder !== 'waiting' && !sent.has(l.bookId));
  const titleOf = (id: string) => order.items.find((l) => l.bookId === id)?.title ?? id;
  const run = async () => {
    try {
      await ship.mutateAsync(order._id);
      void toast('Available items shipped', { timer: 2000 });
    } catch (error) {
      await alertBox('Could not ship the available items', error instanceof Error ? error.message : 'Please try again.', 'error');
    }
  };
  return (
    <div className="mt-3 rounded-md bg-gray-50 p-3 text-sm" aria-label="Shipping in parts" role="region">
      {order.shipments?.map((s, i) => (
        <p key={s.at}>Part {i + 1} shipped <time dateTime={s.at}>{formatDateTime(s.at)}</time>: {s.bookIds.map(titleOf).join(', ')}</p>
      ))}
      {waiting.length > 0 && <p className="font-medium" data-testid="still-waits">Still waits: {waiting.map((l) => l.title).join(', ')}</p>}
      {waiting.length > 0 && ready.length > 0 && order.status === 'confirmed' && fulfilmentKind(order) !== 'pickup' && (
        <button type="button" onClick={() => void run()} disabled={ship.isPending} className={`mt-2 ${buttonClass('primary', 'md')}`}>Ship available items</button>
      )}
    </div>
  );
}

/** The payment (issue 35): what Stripe or the customer paid, each refund, a flag the desk must act on, and the refund form. */
function PaymentPanel({ order }: { order: Order }) {
  const me = useMe();
  const problem = order.payment.problem;
  return (
    <section className="rounded-lg bg-white p-4 shadow sm:p-6" aria-labelledby="payment-heading">
      <h4 id="payment-heading" className="mb-3 font-semibold">Payment</h4>
      {problem && !problem.resolvedAt && (
        <div role="alert" className="mb-3 rounded-md bg-danger-soft px-3 py-2 text-sm font-medium text-danger ring-1 ring-danger" data-testid="payment-problem">
          <p>Check this payment: {problem.message}</p>
          {problem.done && <p className="mt-1 font-normal">{problem.done}</p>}
          {problem.action && <p className="mt-1">To do: {problem.action}</p>}
        </div>
      )}
      {problem?.resolvedAt && (
        // Issue 54: a settled problem stays on the order as its history, off the Payment problems queue.
        <p className="mb-3 rounded-md bg-gray-50 px-3 py-2 text-sm text-gray-700 ring-1 ring-gray-200" data-testid="payment-problem-settled">
          Settled: {problem.message} {problem.done}
        </p>
      )}
      <PaymentDetails order={order} who={(by, source) => (source === 'stripe' ? "Stripe's dashboard" : by ? `the ${by}` : 'the desk')} />
      {me.can('orders.refund') && <div className="mt-4"><RefundForm order={order} /></div>}
    </section>
  );
}

function StatusActions({ order }: { order: Order }) {
  const change = useChangeOrderStatus();
  const allowed = nextStatuses(order.status, 'admin', fulfilmentKind(order));
  if (allowed.length === 0) return <p className="text-sm text-gray-600">No further steps: this order is {order.status.replace(/_/g, ' ')}.</p>;

  const run = async (to: OrderStatus) => {
    const action = actionFor(order, to)!;
    const answer = await confirmAction({
      title: action.title,
      text: `Order #${shortId(order._id)}, ${money(order.totalPrice)}. ${action.text}${to === 'cancelled' && refundsOnCancel(order) ? ' What the card paid is refunded (a gift card part goes back on the gift card).' : ''}`,
      confirmButtonText: action.label,
      cancelButtonText: 'Back',
      danger: action.danger,
      askNote: action.askNote,
    });
    if (!answer) return;
    try {
      await change.mutateAsync({ id: order._id, status: to, note: answer.note });
      void toast(action.done, { timer: 2000 });
    } catch (error) {
      console.error('Status change failed', error);
      const moved = error instanceof ApiError && error.status === 409;
      await alertBox(
        'Could not change the status',
        moved ? 'The order was changed meanwhile. The page now shows its current status.' : error instanceof Error ? error.message : 'Please try again.',
        'error',
      );
    }
  };

  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label="Order actions">
      {allowed.map((to) => {
        const action = actionFor(order, to);
        if (!action) return null;
        return (
          <button
            key={to}
            type="button"
            onClick={() => run(to)}
            disabled={change.isPending}
            className={
              // The next step is the primary action; cancel and refuse are secondary (their
              // confirmation dialog carries the red button).
              buttonClass(action.danger ? 'secondary' : 'primary', 'md')
            }
          >
            {action.label}
          </button>
        );
      })}
    </div>
  );
}
