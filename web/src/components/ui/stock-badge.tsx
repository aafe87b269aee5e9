import { stockLevel, stockText } from '../../lib/stock';

const TONE = {
  out: 'bg-gray-200 text-gray-800 ring-gray-300',
  low: 'bg-primary-soft text-secondary ring-primary',
} as const;

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
