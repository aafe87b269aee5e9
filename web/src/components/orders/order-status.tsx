import type { OrderStatus } from '@bookstore/contract';

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

const TONE: Record<OrderStatus, string> = {
  pending: 'bg-primary-soft text-secondary ring-primary',
  confirmed: 'bg-accent-soft text-accent ring-accent',
  shipped: 'bg-accent-soft text-accent ring-accent',
  delivered: 'bg-accent-soft text-secondary ring-accent',
  cancelled: 'bg-gray-100 text-gray-800 ring-gray-300',
  refused: 'bg-danger-soft text-danger ring-danger',
  ready_for_pickup: 'bg-accent-soft text-secondary ring-accent',
  collected: 'bg-accent-soft text-secondary ring-accent',
};

const DOT: Record<OrderStatus, string> = {
  pending: 'bg-secondary',
  confirmed: 'bg-secondary',
  shipped: 'bg-secondary',
  delivered: 'bg-secondary',
  cancelled: 'bg-gray-500',
  refused: 'bg-danger',
  ready_for_pickup: 'bg-secondary',
  collected: 'bg-secondary',
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
export function shortId(id: string): string {
  return id.slice(0, 8);
}
