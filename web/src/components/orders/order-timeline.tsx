import type { Order, OrderEvent } from '@bookstore/contract';
import { formatDateTime } from '../../lib/format';
import { STATUS_LABEL, statusDot } from './order-status';

/** Who made a change, as this reader should see it (the customer sees 'you' and 'the shop'). */
export type ActorLabel = (by: OrderEvent['by']) => string;

/** Placement, then every status change, oldest first, with who and any note. */
export function OrderTimeline({ order, actorLabel }: { order: Order; actorLabel: ActorLabel }) {
  const steps = [
    { key: 'placed', title: 'Order placed', at: order.createdAt, who: null as string | null, note: undefined as string | undefined, dot: 'bg-gray-400' },
    ...order.events.map((event, i) => ({
      key: `${i}-${event.to}`,
      title: STATUS_LABEL[event.to],
      at: event.at,
      who: actorLabel(event.by),
      note: event.note,
      dot: statusDot(event.to),
    })),
  ];
  return (
    <ol className="relative space-y-5 border-l-2 border-gray-200 pl-6" aria-label="Order history">
      {steps.map((step) => (
        <li key={step.key} className="relative">
          <span className={`absolute top-1 -left-[1.95rem] size-3.5 rounded-full ring-4 ring-white ${step.dot}`} aria-hidden="true" />
          <p className="font-medium text-gray-900">{step.title}</p>
          <p className="text-sm text-gray-600">
            <time dateTime={step.at}>{formatDateTime(step.at)}</time>
            {step.who && <> · by {step.who}</>}
          </p>
          {step.note && <p className="mt-1 rounded bg-gray-50 px-3 py-2 text-sm text-gray-800 ring-1 ring-gray-100">“{step.note}”</p>}
        </li>
      ))}
    </ol>
  );
}
