import type { Firestore, WriteBatch } from 'firebase-admin/firestore';
import type { BookDoc } from '../../functions/src/books/books.repo';
import { COUNTERS_COLLECTION, counterShardId, recount, type CountedOrder } from '../../functions/src/counters/counters';
import type { OrderDoc, OrderLineDoc } from '../../functions/src/orders/orders.repo';
import { adminDb, commitInBatches } from './admin-sdk';

// Issue 11 changed what an order stores; local data from before it is brought up to date here:
// - orders without `items` get snapshot lines from the current books (a book deleted since then
//   becomes a 'Deleted book' line), `events: []` and `updatedAt`;
// - books without `stock` get DEFAULT_STOCK copies;
// - the single `stats/totals` and `stats/month-*` counters are replaced by the sharded counters,
//   recounted from the orders (cancelled orders leave revenue, as they now do).
// Idempotent: each step only touches what is still old, and a marker document makes later runs
// a single read. Run it before the shop takes orders (the recount assumes no concurrent writes).

export const DEFAULT_STOCK = 10;
export const DELETED_BOOK_TITLE = 'Deleted book';
const MARKER = { collection: 'migrations', id: 'issue-11-orders' };

export interface MigrationReport {
  alreadyDone: boolean;
  books: number; // books given a stock
  orders: number; // orders given lines and events
  counters: number; // orders recounted into the shards
}

/**
 * Lines for an order stored before issue 11, from today's books. Today's prices are the best
 * record left; when they no longer add up to what was charged and exactly one line is unknown
 * (deleted), that line takes the difference, so the lines still sum to the total where possible.
 */
export function linesFor(productIDs: string[], totalCents: number, booksById: Map<string, BookDoc>): OrderLineDoc[] {
  const lines = productIDs.map((bookId): OrderLineDoc => {
    const book = booksById.get(bookId);
    return book
      ? { bookId, title: book.title, unitPriceCents: book.newPriceCents, coverImage: book.coverImage }
      : { bookId, title: DELETED_BOOK_TITLE, unitPriceCents: 0, coverImage: '' };
  });
  const deleted = lines.filter((l) => !booksById.has(l.bookId));
  const known = lines.reduce((sum, l) => sum + l.unitPriceCents, 0);
  if (deleted.length === 1 && totalCents > known) deleted[0]!.unitPriceCents = totalCents - known;
  return lines;
}

export async function migrateOrders(db: Firestore = adminDb()): Promise<MigrationReport> {
  const marker = db.collection(MARKER.collection).doc(MARKER.id);
  if ((await marker.get()).exists) return { alreadyDone: true, books: 0, orders: 0, counters: 0 };
  const writes: ((batch: WriteBatch) => void)[] = [];

  const booksById = new Map<string, BookDoc>();
  let books = 0;
  for (const snap of (await db.collection('books').get()).docs) {
    const book = snap.data() as BookDoc;
    if (typeof book.stock !== 'number') {
      book.stock = DEFAULT_STOCK;
      writes.push((b) => b.update(snap.ref, { stock: DEFAULT_STOCK }));
      books += 1;
    }
    booksById.set(snap.id, book);
  }

  const counted: CountedOrder[] = [];
  let orders = 0;
  for (const snap of (await db.collection('orders').get()).docs) {
    const order = snap.data() as Partial<OrderDoc> & Pick<OrderDoc, 'productIDs' | 'totalCents' | 'status' | 'createdAt'>;
    counted.push({ status: order.status, totalCents: order.totalCents, createdAt: order.createdAt });
    if (Array.isArray(order.items)) continue;
    const upgrade = {
      items: linesFor(order.productIDs ?? [], order.totalCents, booksById),
      events: order.events ?? [],
      updatedAt: order.updatedAt ?? order.createdAt,
    };
    writes.push((b) => b.update(snap.ref, upgrade));
    orders += 1;
  }

  // Counters: the whole recount in shard 0; the other shards and the old documents removed.
  // (Deleted first, then written: the npm stand-in merges a set() into an existing document.)
  const totals = recount(counted);
  for (const snap of (await db.collection(COUNTERS_COLLECTION).get()).docs) {
    if (snap.id === 'totals' || snap.id.startsWith('month-') || snap.id.startsWith('counters-')) writes.push((b) => b.delete(snap.ref));
  }
  await commitInBatches(writes, db);
  await db.collection(COUNTERS_COLLECTION).doc(counterShardId(0)).set(totals);
  await marker.set({ at: new Date().toISOString(), books, orders, counters: counted.length });
  return { alreadyDone: false, books, orders, counters: counted.length };
}
