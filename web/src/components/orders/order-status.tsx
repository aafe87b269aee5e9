import { shortOrderId, type OrderStatus } from '@bookstore/contract';

/** What each status is called on screen (the badge shows the status itself, capitalised). */
export const STATUS_LABEL: Record<OrderStatus, string> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  refused: 'Refused at the door',
  ready_for_pickup: 'Ready for pickup',
  collected: 'Collected',
};

// In the shop's palette (issue 29): waiting in yellow, under way in the accent, on the road in navy,
// done in solid navy, cancelled grey, refused red.
const TONE: Record<OrderStatus, string> = {
  pending: 'bg-primary-soft text-secondary ring-primary',
  confirmed: 'bg-accent-soft text-accent ring-accent',
  shipped: 'bg-secondary-soft text-secondary ring-secondary',
  delivered: 'bg-secondary text-white ring-secondary',
  cancelled: 'bg-gray-100 text-gray-800 ring-gray-300',
  refused: 'bg-danger-soft text-danger ring-danger',
  ready_for_pickup: 'bg-accent-soft text-accent ring-accent',
  collected: 'bg-secondary text-white ring-secondary',
};

const DOT: Record<OrderStatus, string> = {
  pending: 'bg-secondary',
  confirmed: 'bg-accent',
  shipped: 'bg-secondary',
  delivered: 'bg-primary',
  cancelled: 'bg-gray-500',
  refused: 'bg-danger',
  ready_for_pickup: 'bg-accent',
  collected: 'bg-primary',
};

export function StatusBadge({ status }: { status: OrderStatus }) {
  return (
    <span data-testid="order-status" className={`inline-flex items-center gap-1.5 whitespace-nowrap rounded-full px-2.5 py-0.5 text-sm font-medium capitalize ring-1 ring-inset ${TONE[status]}`}>
      <span className={`size-1.5 rounded-full ${DOT[status]}`} aria-hidden="true" />
      {status.replace(/_/g, ' ')}
    </span>
  );
}

export function statusDot(status: OrderStatus): string {
  return DOT[status];
}

/** The first characters of an id, enough to tell orders apart on screen (case kept: ids are case-sensitive). */
export const shortId = shortOrderId;
