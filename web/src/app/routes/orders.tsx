import { buttonClass } from '../../components/ui/button';
import { pageClass, pageTitle } from '../../components/ui/page';
import { CUSTOMER_ORDERS_PAGE_SIZE, type Order } from '@bookstore/contract';
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { OrderLines, formatAddress } from '../../components/orders/order-lines';
import { StatusBadge, shortId } from '../../components/orders/order-status';
import { PaymentBadge } from '../../components/orders/order-payment';
import { useAuth } from '../../lib/auth/auth-context';
import { RequireUser } from '../../lib/auth/require-user';
import { LiveErrorBoundary, LiveFirestore } from '../../lib/live-firestore';
import { LiveNotice } from '../../features/orders/live-notice';
import { useLiveOrders, useStatusNotice } from '../../features/orders/live-orders';
import { customerCanCancel, useCancelWithConfirm } from '../../features/orders/use-cancel-with-confirm';
import { formatDate, money } from '../../lib/format';
import { usePageTitle } from '../../lib/use-page-title';

export function Component() {
  usePageTitle('Your Orders');
  return (
    <RequireUser>
      <LiveFirestore>
        <LiveErrorBoundary fallback={() => <p role="alert" className="py-16 text-center text-danger">Error getting order data</p>}>
          <Orders />
        </LiveErrorBoundary>
      </LiveFirestore>
    </RequireUser>
  );
}

function Orders() {
  const { user } = useAuth();
  // Followed live from Firestore: a status change on the admin's desk shows here without a reload.
  // Each order carries its own lines (title, price, cover as sold): no catalogue download.
  const [count, setCount] = useState(CUSTOMER_ORDERS_PAGE_SIZE);
  const live = useLiveOrders(user?.uid ?? '', count);
  const notice = useStatusNotice(live.orders);
  const { cancel, pendingId } = useCancelWithConfirm();
  // While 'Load More' waits for the longer query, the orders already shown stay on screen: the ref
  // holds the last page the live query delivered and is read only to render that snapshot.
  /* eslint-disable react-hooks/refs -- a render-time snapshot of the previous query's result, by design */
  const shown = useRef<Order[] | null>(null);
  if (live.status === 'success') shown.current = live.orders;
  const orders = shown.current;
  if (live.status === 'error') return <p role="alert" className="py-16 text-center text-danger">Error getting order data</p>;
  if (!orders) return <p role="status" className="py-16 text-center">Loading...</p>;
  return (
    <section className={`${pageClass} max-w-4xl`}>
      <h1 className={`mb-6 ${pageTitle}`}>Your Orders</h1>
      <LiveNotice notice={notice} />
      {orders.length === 0 ? (
        <p>No orders found!</p>
      ) : (
        <>
          <ol className="space-y-6">
            {orders.map((order) => (
              <li key={order._id}>
                <OrderCard order={order} onCancel={() => cancel(order)} cancelling={pendingId === order._id} />
              </li>
            ))}
          </ol>
          {(live.hasMore || live.status === 'loading') && (
            <div className="mt-8 text-center">
              <button
                type="button"
                onClick={() => setCount((n) => n + CUSTOMER_ORDERS_PAGE_SIZE)}
                disabled={live.status === 'loading'}
                className={buttonClass('secondary', 'md')}
              >
                {live.status === 'loading' ? 'Loading...' : 'Load More'}
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
/* eslint-enable react-hooks/refs */

function OrderCard({ order, onCancel, cancelling }: { order: Order; onCancel: () => void; cancelling: boolean }) {
  const updated = order.updatedAt && order.updatedAt !== order.createdAt ? order.updatedAt : null;
  return (
    <article className="rounded-lg bg-white p-5 shadow ring-1 ring-gray-100" aria-labelledby={`order-${order._id}`}>
      <header className="mb-3 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={`order-${order._id}`} className="font-semibold">
            <Link to={`/orders/${order._id}`} className="hover:text-accent hover:underline">
              Order #{shortId(order._id)}
            </Link>
          </h2>
          <p className="text-sm text-gray-600">
            Placed <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time>
            {updated && <> · Updated <time dateTime={updated}>{formatDate(updated)}</time></>}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {/* A card order's payment beside its status (issue 35); cash orders read as before. */}
          {order.payment.method === 'card' && <PaymentBadge status={order.payment.status} />}
          <StatusBadge status={order.status} />
        </div>
      </header>
      <OrderLines order={order} bookHref={(id) => `/books/${id}`} compact />
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 border-t border-gray-100 pt-3 text-sm text-gray-700">
        <dt>Total</dt><dd className="font-semibold text-gray-900">{money(order.totalPrice)}</dd>
        <dt>Email</dt><dd className="break-all">{order.email}</dd>
        {order.delivery?.method === 'pickup' ? (
          <><dt>Pickup</dt><dd>{order.name}, in the shop</dd></>
        ) : (
          <><dt>Deliver to</dt><dd>{order.name}, {formatAddress(order.address)}</dd></>
        )}
      </dl>
      <div className="mt-4 flex flex-wrap items-center justify-end gap-3">
        {customerCanCancel(order) && (
          <button
            type="button"
            onClick={onCancel}
            disabled={cancelling}
            className={buttonClass('secondary', 'sm')}
          >
            {cancelling ? 'Cancelling...' : 'Cancel Order'}
            <span className="sr-only"> #{shortId(order._id)}</span>
          </button>
        )}
        <Link to={`/orders/${order._id}`} className={buttonClass('secondary', 'sm')}>
          View Order<span className="sr-only"> #{shortId(order._id)}</span>
        </Link>
      </div>
    </article>
  );
}
