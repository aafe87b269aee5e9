import { DELIVERY_LABELS, type Order } from '@bookstore/contract';
import { money } from '../../lib/format';

/** What the total is called: paid at the shop's counter for a pickup, in cash at the door otherwise. */
export function totalLabel(order: Pick<Order, 'delivery'>, prefix: 'Total' | 'Due'): string {
  const pickup = order.delivery?.method === 'pickup';
  if (prefix === 'Due') return pickup ? 'Due at the counter' : 'Cash due on delivery';
  return pickup ? 'Total, pay at the counter' : 'Total, cash on delivery';
}

/** How the books reach the customer, as one line ('Post (Europe)'); orders without a method were delivered. */
export function methodLabel(order: Pick<Order, 'delivery'>): string {
  if (!order.delivery) return 'Delivery';
  return `${DELIVERY_LABELS[order.delivery.method]}${order.delivery.zone ? ` (${order.delivery.zone})` : ''}`;
}

/** Subtotal, shipping and tax (orders priced with a method, issue 27), then the total. */
export function OrderTotals({ order, label }: { order: Order; label: string }) {
  const c = order.charges;
  return (
    <dl className="mt-3 space-y-1 border-t border-gray-100 pt-3 text-sm" data-testid="order-totals">
      {c && (
        <>
          <div className="flex justify-between"><dt>Subtotal</dt><dd className="tabular-nums">{money(c.subtotal)}</dd></div>
          <div className="flex justify-between"><dt>{methodLabel(order)}</dt><dd className="tabular-nums">{c.shipping === 0 ? 'Free' : money(c.shipping)}</dd></div>
          {c.taxRate !== '0%' && (
            <div className="flex justify-between text-gray-700">
              <dt>{c.taxIncluded ? `Includes ${c.taxLabel} (${c.taxRate})` : `${c.taxLabel} (${c.taxRate})`}</dt>
              <dd className="tabular-nums">{money(c.tax)}</dd>
            </div>
          )}
        </>
      )}
      <div className="flex justify-between text-base font-semibold"><dt>{label}</dt><dd className="tabular-nums" data-testid="order-total">{money(order.totalPrice)}</dd></div>
    </dl>
  );
}
