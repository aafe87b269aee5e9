import { shortId } from '../../components/orders/order-status';
import type { StatusNotice } from './live-orders';

/** A short, polite live region: 'Your order is on its way' when an open order is shipped. */
export function LiveNotice({ notice }: { notice: StatusNotice | null }) {
  return (
    <div role="status" aria-live="polite" className="empty:hidden mb-6 rounded-md bg-accent-soft px-4 py-3 text-accent ring-1 ring-accent" data-testid="order-notice">
      {notice ? <span key={notice.key}>{notice.text} (order #{shortId(notice.orderId)}).</span> : null}
    </div>
  );
}
