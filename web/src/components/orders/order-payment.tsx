import { PAYMENT_STATUS_LABELS, type Order, type PaymentStatus } from '@bookstore/contract';
import { formatDateTime, money } from '../../lib/format';

// An order's payment (issue 35): how it is paid, its status, what was refunded and each refund.
// The customer's page follows it live from Firestore; the desk reads it from the API.

const TONE: Record<PaymentStatus, string> = {
  due: 'bg-gray-100 text-gray-800 ring-gray-300',
  awaiting: 'bg-primary-soft text-secondary ring-primary',
  paid: 'bg-secondary text-white ring-secondary',
  failed: 'bg-danger-soft text-danger ring-danger',
  expired: 'bg-gray-100 text-gray-800 ring-gray-300',
  partially_refunded: 'bg-accent-soft text-accent ring-accent',
  refunded: 'bg-accent-soft text-accent ring-accent',
};

export function PaymentBadge({ status }: { status: PaymentStatus }) {
  return (
    <span data-testid="payment-status" className={`inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-sm font-medium ring-1 ring-inset ${TONE[status]}`}>
      {PAYMENT_STATUS_LABELS[status]}
    </span>
  );
}

/** How it is paid, in words the customer reads. */
export function paymentMethodLabel(order: Pick<Order, 'payment' | 'delivery'>): string {
  if (order.payment.method === 'card') return 'Card (Stripe)';
  return order.delivery?.method === 'pickup' ? 'Cash at the counter' : 'Cash on delivery';
}

/** The payment's facts: method, status, what was received and refunded, each refund. */
export function PaymentDetails({ order, who }: { order: Order; who: (by: string | undefined, source: 'desk' | 'stripe') => string }) {
  const p = order.payment;
  return (
    <div className="space-y-3 text-sm" data-testid="payment-details">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="text-gray-700">{paymentMethodLabel(order)}</span>
        <PaymentBadge status={p.status} />
      </div>
      <dl className="space-y-1">
        <div className="flex justify-between"><dt className="text-gray-600">Amount</dt><dd className="tabular-nums">{money(p.amount)}</dd></div>
        {p.paid !== undefined && p.paid > 0 && <div className="flex justify-between"><dt className="text-gray-600">Received</dt><dd className="tabular-nums">{money(p.paid)}</dd></div>}
        {p.refunded > 0 && <div className="flex justify-between font-medium"><dt>Refunded</dt><dd className="tabular-nums" data-testid="payment-refunded">{money(p.refunded)}</dd></div>}
      </dl>
      {p.refunds.length > 0 && (
        <ul className="divide-y divide-gray-100 border-t border-gray-100" aria-label="Refunds">
          {p.refunds.map((r) => (
            <li key={r.id} className="py-2">
              <p className="flex justify-between gap-3">
                <span className="font-medium">Refund {money(r.amount)}{r.status === 'pending' ? ' (on its way)' : r.status === 'failed' ? ' (failed)' : ''}</span>
                <time className="text-gray-600" dateTime={r.at}>{formatDateTime(r.at)}</time>
              </p>
              <p className="text-gray-700">{r.reason} · by {who(r.by, r.source)}</p>
              {/* Only in staff answers (issue 55): a customer's order never carries it. */}
              {r.staffNote && <p className="text-gray-600"><span className="font-medium">Staff note:</span> {r.staffNote}</p>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
