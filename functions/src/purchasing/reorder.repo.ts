import type { ReorderSuggestion, StoredSpecialOrder } from '@bookstore/contract';
import { books, type BookDoc } from '../books/book-doc';
import { db } from '../lib/firebase';
import { runQuery } from '../lib/queries';
import { SPECIAL_ORDERS_COLLECTION } from '../special-orders/order-link';
import { copiesOnOrder } from './purchase-orders.repo';

// What to order (issue 56): GET /api/admin/reorder-suggestions, by ISBN:
// - special orders the shopper accepted that the shop has not ordered yet ('accepted');
// - pre-orders waiting (books' preorderWaiting) beyond the copies open purchase orders still bring;
// - books whose stock fell below their reorder minimum (a registry field, `reorderMin`): up to it,
//   less what open purchase orders still bring.
// Books without an ISBN cannot be ordered from a supplier: they are left out.

export async function reorderSuggestions(): Promise<ReorderSuggestion[]> {
  const [accepted, waiting, minimums, onOrder] = await Promise.all([
    runQuery(db().collection(SPECIAL_ORDERS_COLLECTION).where('status', '==', 'accepted')),
    runQuery(books().where('preorderWaiting', '>', 0)),
    runQuery(books().where('reorderMin', '>', 0)),
    copiesOnOrder(),
  ]);
  const out = new Map<string, ReorderSuggestion>();
  const entry = (isbn: string, title: string, bookId?: string) => {
    let s = out.get(isbn);
    if (!s) out.set(isbn, (s = { isbn, title, ...(bookId ? { bookId } : {}), specialOrders: 0, preorders: 0, belowMinimum: 0, quantity: 0 }));
    if (bookId && !s.bookId) Object.assign(s, { bookId, title });
    return s;
  };
  for (const d of accepted.docs) {
    const request = d.data() as StoredSpecialOrder;
    entry(request.isbn, request.title).specialOrders += request.quantity;
  }
  // What open orders bring goes first to pre-orders, then to the minimum.
  const left = new Map(onOrder);
  for (const d of waiting.docs) {
    const book = d.data() as BookDoc;
    if (!book.isbn) continue;
    const coming = left.get(book.isbn) ?? 0;
    const short = Math.max(0, (book.preorderWaiting ?? 0) - coming);
    left.set(book.isbn, Math.max(0, coming - (book.preorderWaiting ?? 0)));
    if (short > 0) entry(book.isbn, book.title, d.id).preorders += short;
  }
  for (const d of minimums.docs) {
    const book = d.data() as BookDoc;
    if (!book.isbn || !book.reorderMin) continue;
    const short = Math.max(0, book.reorderMin - Math.max(0, book.stock ?? 0) - (left.get(book.isbn) ?? 0));
    if (short > 0) entry(book.isbn, book.title, d.id).belowMinimum += short;
  }
  return [...out.values()]
    .map((s) => ({ ...s, quantity: s.specialOrders + s.preorders + s.belowMinimum }))
    .filter((s) => s.quantity > 0)
    .sort((a, b) => b.quantity - a.quantity || a.isbn.localeCompare(b.isbn));
}
