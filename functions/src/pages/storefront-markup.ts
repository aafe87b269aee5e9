import { formatDate, LOW_STOCK_THRESHOLD, moneyLabel } from '@bookstore/contract';

// Pieces of the storefront's markup as the web app renders them, for the pages this function fills
// in before any JavaScript has run (book-article.ts, books-grid.ts). Same elements and classes as
// the components named, kept in step by hand; the app's first render replaces them.

export { coverPath } from '@bookstore/contract';

export const money = moneyLabel;

/** web/src/lib/format.ts formatDate */
export function published(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : formatDate(iso);
}

/** web/src/components/ui/stock-badge.tsx */
export function stockBadge(stock: number | undefined, className: string): string {
  if (stock === undefined || !Number.isFinite(stock) || stock > LOW_STOCK_THRESHOLD) return '';
  const out = stock <= 0;
  const tone = out ? 'bg-gray-200 text-gray-800 ring-gray-300' : 'bg-amber-100 text-amber-900 ring-amber-200';
  return `<span class="flex w-fit items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${tone} ${className}"><span class="size-1.5 rounded-full ${out ? 'bg-gray-600' : 'bg-amber-600'}" aria-hidden="true"></span>${out ? 'Out of stock' : `Only ${stock} left`}</span>`;
}

export const soldOut = (stock: number | undefined) => stock !== undefined && Number.isFinite(stock) && stock <= 0;

/** web/src/components/ui/icons.tsx */
function icon(paths: string, className: string): string {
  return `<svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" class="${className}">${paths}</svg>`;
}
export const cartIcon = (className: string) =>
  icon('<path d="M3 4h2l2.4 11.2a2 2 0 0 0 2 1.6h7.7a2 2 0 0 0 2-1.5L21 8H6.2"></path><circle cx="10" cy="20" r="1.3"></circle><circle cx="17" cy="20" r="1.3"></circle>', className);
export const chevronLeft = (className: string) => icon('<path d="m15 18-6-6 6-6"></path>', className);
export const chevronRight = (className: string) => icon('<path d="m9 18 6-6-6-6"></path>', className);
