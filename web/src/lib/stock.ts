import { formatPublicationDate, isForthcoming, LOW_STOCK_THRESHOLD } from '@bookstore/contract';

/** A forthcoming book's publication date, as shown ('June 15, 2027'): it is sold as a pre-order (issue 41); null otherwise. */
export function preorderDate(book: { publishedOn?: string }): string | null {
  return isForthcoming(book.publishedOn) ? formatPublicationDate(book.publishedOn!) : null;
}

export type StockLevel = { kind: 'out' } | { kind: 'low'; left: number } | { kind: 'in' };

/** What the storefront says about a book's stock: nothing, 'Only N left', or 'Out of stock'. */
export function stockLevel(stock: number | undefined): StockLevel {
  // Books stored before stock existed carry none: treat them as available, the server decides.
  if (stock === undefined || !Number.isFinite(stock)) return { kind: 'in' };
  if (stock <= 0) return { kind: 'out' };
  if (stock <= LOW_STOCK_THRESHOLD) return { kind: 'low', left: stock };
  return { kind: 'in' };
}

export function stockText(level: StockLevel): string | null {
  if (level.kind === 'out') return 'Out of stock';
  if (level.kind === 'low') return `Only ${level.left} left`;
  return null;
}
