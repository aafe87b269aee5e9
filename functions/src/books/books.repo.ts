import type { Book, BookInput, BookPatch, BooksQuery, BulkBooks, LowStockBook } from '@bookstore/contract';
import { BOOK_FIELD_NAMES, BOOK_FIELD_SPECS, bookFieldsOf, LOW_STOCK_LIST_SIZE, LOW_STOCK_THRESHOLD, MAX_BOOKS_LIST } from '@bookstore/contract';
import type { Transaction } from 'firebase-admin/firestore';
import type { AuditActor } from '../admin/audit.repo';
import { db } from '../lib/firebase';
import { countReads } from '../lib/read-counter';
import { runCount, runQuery } from '../lib/queries';
import { books, toBook, type BookDoc } from './book-doc';
import { commitBookWrites } from './book-writes';

// The catalogue's reads, and the staff's commands on books. Every command writes through the book
// write path (book-writes.ts), which checks each changed field against the staff member's role and
// applies the side effects (audit, stock flags, catalogue version, back-in-stock alerts).

export { books, toBook, type BookDoc };

/**
 * An edit's changes (PUT: the whole book): every field replaced by the one sent, a blank one
 * cleared, except the fields an edit keeps when it leaves them out (stock, weight, cover; the
 * registry's `keptWhenAbsent`), which a null clears (the weight).
 */
export function editOf(input: BookInput): BookPatch {
  const patch: Record<string, unknown> = {};
  for (const name of BOOK_FIELD_NAMES) {
    const value = input[name];
    if (BOOK_FIELD_SPECS[name].keptWhenAbsent && (value === undefined || value === '')) continue;
    patch[name] = value ?? null;
  }
  return patch as BookPatch;
}

/** Newest first; `limit`, `category` and an `after` cursor keep the home page's cost flat. */
export async function listBooks(query: BooksQuery = {}): Promise<Book[]> {
  let q = query.category ? books().where('category', '==', query.category) : books();
  if (query.after) {
    // Resume after that book's unique newestKey (a range filter: see sort-key.ts).
    const cursor = await books().doc(query.after).get();
    countReads(1);
    if (!cursor.exists) return [];
    q = q.where('newestKey', '<', (cursor.data() as BookDoc).newestKey);
  }
  q = q.orderBy('newestKey', 'desc');
  q = q.limit(Math.min(Number(query.limit ?? MAX_BOOKS_LIST), MAX_BOOKS_LIST));
  return (await runQuery(q)).docs.map(toBook);
}

export async function getBook(id: string): Promise<Book | null> {
  const snap = await books().doc(id).get();
  countReads(1);
  return snap.exists ? toBook(snap) : null;
}

/** Reads books by id inside a transaction, in the order asked (getAll keeps it; an `in` query would not). */
export async function getBookDocs(tx: Transaction, ids: string[]) {
  countReads(ids.length);
  return tx.getAll(...ids.map((id) => books().doc(id)));
}

/** Books by id (outside a transaction), in the order asked; undefined for one that does not exist. */
export async function bookDocsByIds(ids: string[]): Promise<(BookDoc | undefined)[]> {
  if (ids.length === 0) return [];
  const snaps = await db().getAll(...ids.map((id) => books().doc(id)));
  countReads(ids.length);
  return snaps.map((s) => (s.exists ? (s.data() as BookDoc) : undefined));
}

export async function createBook(input: BookInput, actor: AuditActor): Promise<Book> {
  const [result] = await commitBookWrites({ staff: actor }, async () => [{ create: bookFieldsOf(input) }]);
  return result!.after!;
}

/**
 * Replaces a book's fields; the old and new versions, or null if it does not exist. A field the
 * staff member's role may not change is a 403 (nothing written); a save that changes nothing writes nothing.
 */
export async function updateBook(id: string, input: BookInput, actor: AuditActor): Promise<{ before: Book; after: Book } | null> {
  const [result] = await commitBookWrites({ staff: actor }, async (tx) => {
    const [snap] = await getBookDocs(tx, [id]);
    return snap!.exists ? [{ book: snap!, set: editOf(input) }] : [];
  });
  return result ? { before: result.before!, after: result.after! } : null;
}

export async function deleteBook(id: string, actor: AuditActor): Promise<Book | null> {
  const [result] = await commitBookWrites({ staff: actor }, async (tx) => {
    const [snap] = await getBookDocs(tx, [id]);
    return snap!.exists ? [{ book: snap!, remove: true as const }] : [];
  });
  return result?.before ?? null;
}

export async function isCoverInUse(coverImage: string): Promise<boolean> {
  return !(await runQuery(books().where('coverImage', '==', coverImage).limit(1))).empty;
}

export async function countBooks(): Promise<{ total: number; trending: number }> {
  const [total, trending] = await Promise.all([runCount(books()), runCount(books().where('trending', '==', true))]);
  return { total, trending };
}

/** Books running low, lowest stock first: one range query on `stock` (its single-field index). */
export async function lowStockBooks(limit = LOW_STOCK_LIST_SIZE): Promise<LowStockBook[]> {
  const snap = await runQuery(books().where('stock', '<=', LOW_STOCK_THRESHOLD).orderBy('stock', 'asc').limit(limit));
  return snap.docs.map((doc) => {
    const d = doc.data() as BookDoc;
    return { _id: doc.id, title: d.title, stock: d.stock, coverImage: d.coverImage };
  });
}

/**
 * Manage Books' bulk change (issue 26): one transaction reads every listed book and changes the
 * ones it changes, each with its own audit event (a book already at that price or stock is left
 * alone, with none). Books deleted meanwhile are reported as missing. At most 100 books.
 */
export async function bulkChange(bulk: BulkBooks, actor: AuditActor): Promise<{ changed: Book[]; missing: string[] }> {
  const missing: string[] = [];
  const results = await commitBookWrites({ staff: actor }, async (tx) => {
    missing.length = 0; // a retried transaction starts again
    const snaps = await getBookDocs(tx, bulk.ids);
    missing.push(...snaps.filter((snap) => !snap.exists).map((snap) => snap.id));
    const found = snaps.filter((snap) => snap.exists);
    if (bulk.action === 'delete') return found.map((book) => ({ book, remove: true as const }));
    return found.map((book) => ({ book, set: bulk.action === 'price' ? { newPrice: bulk.newPrice } : { stock: bulk.stock } }));
  });
  return { changed: results.filter((r) => r.changed.length > 0).map((r) => r.before!), missing };
}

/** The id of a book with this ISBN (the first, if a hand-made duplicate exists), or null. */
export async function bookIdByIsbn(isbn: string): Promise<string | null> {
  const snap = await runQuery(books().where('isbn', '==', isbn).limit(1));
  return snap.empty ? null : snap.docs[0]!.id;
}

/** Points a book at a stored cover (an edit of its coverImage); the old and new versions, or null if it is gone. */
export async function setCover(id: string, coverImage: string, actor: AuditActor): Promise<{ before: Book; after: Book } | null> {
  const [result] = await commitBookWrites({ staff: actor }, async (tx) => {
    const [snap] = await getBookDocs(tx, [id]);
    return snap!.exists ? [{ book: snap!, set: { coverImage } }] : [];
  });
  return result ? { before: result.before!, after: result.after! } : null;
}
