import { buttonClass } from '../../components/ui/button';
import type { Unavailability } from './cart-rules';

export const PROBLEM_TEXT: Record<Unavailability, string> = {
  'out-of-stock': 'Out of stock',
  deleted: 'No longer available',
};

/** A line's problem, shown beside it in the cart and at checkout. */
export function ProblemBadge({ problem }: { problem: Unavailability }) {
  return (
    <span className="inline-flex w-fit items-center gap-1.5 rounded-full bg-danger-soft px-2.5 py-0.5 text-xs font-semibold text-danger ring-1 ring-inset ring-danger">
      <span className="size-1.5 rounded-full bg-danger" aria-hidden="true" />
      {PROBLEM_TEXT[problem]}
    </span>
  );
}

/** The banner above the lines: what happened, and the one-click way out. */
export function UnavailableNotice({ count, onRemove }: { count: number; onRemove: () => void }) {
  if (count === 0) return null;
  return (
    <div role="alert" className="flex flex-col gap-3 rounded-md border border-danger bg-danger-soft p-4 text-sm text-danger sm:flex-row sm:items-center sm:justify-between">
      <p>
        <strong className="font-semibold">{count === 1 ? '1 item' : `${count} items`} can no longer be ordered.</strong>{' '}
        Remove {count === 1 ? 'it' : 'them'} to place your order.
      </p>
      <button type="button" onClick={onRemove} className={buttonClass('secondary', 'sm', 'shrink-0')}>
        Remove Unavailable Items
      </button>
    </div>
  );
}
