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
  pending: 'bg-amber-100 text-amber-900 ring-amber-200',
  confirmed: 'bg-sky-100 text-sky-900 ring-sky-200',
  shipped: 'bg-indigo-100 text-indigo-900 ring-indigo-200',
  delivered: 'bg-green-100 text-green-900 ring-green-200',
  cancelled: 'bg-gray-100 text-gray-800 ring-gray-300',
  refused: 'bg-red-100 text-red-900 ring-red-200',
  ready_for_pickup: 'bg-teal-100 text-teal-900 ring-teal-200',
  collected: 'bg-green-100 text-green-900 ring-green-200',
};

const DOT: Record<OrderStatus, string> = {
  pending: 'bg-amber-500',
  confirmed: 'bg-sky-600',
  shipped: 'bg-indigo-600',
  delivered: 'bg-green-600',
  cancelled: 'bg-gray-500',
  refused: 'bg-red-600',
  ready_for_pickup: 'bg-teal-600',
  collected: 'bg-green-600',
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
