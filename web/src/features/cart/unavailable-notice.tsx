import type { Unavailability } from './cart-rules';

export const PROBLEM_TEXT: Record<Unavailability, string> = {
  'out-of-stock': 'Out of stock',
  deleted: 'No longer available',
};

/** A line's problem, shown beside it in the cart and at checkout. */
export function ProblemBadge({ problem }: { problem: Unavailability }) {
  return (
    <span className="inline-flex w-fit items-center gap-1.5 rounded-full bg-red-50 px-2.5 py-0.5 text-xs font-semibold text-red-800 ring-1 ring-inset ring-red-200">
      <span className="size-1.5 rounded-full bg-red-600" aria-hidden="true" />
      {PROBLEM_TEXT[problem]}
    </span>
  );
}

/** The banner above the lines: what happened, and the one-click way out. */
export function UnavailableNotice({ count, onRemove }: { count: number; onRemove: () => void }) {
  if (count === 0) return null;
  return (
    <div role="alert" className="flex flex-col gap-3 rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900 sm:flex-row sm:items-center sm:justify-between">
      <p>
        <strong className="font-semibold">{count === 1 ? '1 item' : `${count} items`} can no longer be ordered.</strong>{' '}
        Remove {count === 1 ? 'it' : 'them'} to place your order.
      </p>
      <button type="button" onClick={onRemove} className="shrink-0 rounded-md bg-red-700 px-3 py-1.5 font-semibold text-white hover:bg-red-800">
        Remove unavailable items
      </button>
    </div>
  );
}
