import { stockLevel, stockText } from '../../lib/stock';

const TONE = {
  out: 'bg-gray-200 text-gray-800 ring-gray-300',
  low: 'bg-primary-soft text-secondary ring-primary',
} as const;

/** A forthcoming book's date in the stock badge's place (issue 41): 'Publishes June 15, 2027'. */
export function PreorderBadge({ date, className = '' }: { date: string; className?: string }) {
  return (
    <span className={`flex w-fit items-center gap-1.5 rounded-full bg-primary-soft px-2.5 py-0.5 text-xs font-semibold text-secondary ring-1 ring-inset ring-primary ${className}`}>
      <span className="size-1.5 rounded-full bg-secondary" aria-hidden="true" />
      Publishes {date}
    </span>
  );
}

/** 'Out of stock' or 'Only N left'; nothing when plenty are left. */
export function StockBadge({ stock, className = '' }: { stock: number | undefined; className?: string }) {
  const level = stockLevel(stock);
  const text = stockText(level);
  if (!text || level.kind === 'in') return null;
  return (
    <span className={`flex w-fit items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${TONE[level.kind]} ${className}`}>
      <span className={`size-1.5 rounded-full ${level.kind === 'out' ? 'bg-gray-600' : 'bg-secondary'}`} aria-hidden="true" />
      {text}
    </span>
  );
}
