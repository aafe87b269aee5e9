import type { StockValuation } from '@bookstore/contract';
import { fromCents } from '@bookstore/contract';
import { books, type BookDoc } from '../books/book-doc';
import { unlistedCostId, unlistedInStock } from '../books/unlisted-books';
import { runQuery } from '../lib/queries';
import { averageCosts } from './purchasing-docs';

// The stock's value (issue 56): every copy on hand (books in stock: their `stock`) at its book's
// moving-average cost (bookCosts/<bookId>, receipts.repo.ts), summed in cents and answered in
// dollars, by category too. Copies of a book with no cost yet are counted in units and
// `uncostedUnits`, not in the value. Copies received of an ISBN the catalogue does not list (unlisted
// books, decision 056) are the shop's too: counted at their cost (bookCosts/unlisted:<isbn>), under
// UNLISTED_CATEGORY.

/** The valuation's category for unlisted books (they have none). */
export const UNLISTED_CATEGORY = 'Unlisted';

export async function stockValuation(): Promise<StockValuation> {
  const [snap, unlisted] = await Promise.all([runQuery(books().where('inStock', '==', true).select('stock', 'category')), unlistedInStock()]);
  const held = [
    ...snap.docs.map((d) => ({ id: d.id, ...(d.data() as Pick<BookDoc, 'stock' | 'category'>) })),
    ...unlisted.map((u) => ({ id: unlistedCostId(u.isbn), stock: u.stock, category: UNLISTED_CATEGORY })),
  ];
  const costs = await averageCosts(held.map((b) => b.id));
  let units = 0;
  let cents = 0;
  let uncostedUnits = 0;
  const byCategory: Record<string, { units: number; cents: number }> = {};
  for (const book of held) {
    const stock = Math.max(0, book.stock ?? 0);
    const avg = costs.get(book.id);
    const value = avg === undefined ? 0 : stock * avg;
    units += stock;
    cents += value;
    if (avg === undefined) uncostedUnits += stock;
    const category = (byCategory[book.category] ??= { units: 0, cents: 0 });
    category.units += stock;
    category.cents += value;
  }
  return {
    units, value: fromCents(cents), uncostedUnits,
    byCategory: Object.fromEntries(Object.entries(byCategory).map(([name, c]) => [name, { units: c.units, value: fromCents(c.cents) }])),
  };
}
