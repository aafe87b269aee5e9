import type { AuditAction, Book, BookDetailField, BookInput, BooksQuery, BulkBooks, LowStockBook, Permission } from '@bookstore/contract';
import { BOOK_DETAIL_FIELDS, fromCents, LOW_STOCK_LIST_SIZE, LOW_STOCK_THRESHOLD, MAX_BOOKS_LIST, priceBandOf, toCents } from '@bookstore/contract';
import type { DocumentSnapshot, Transaction } from 'firebase-admin/firestore';
import { appendAudit, changedFields, openAudit, type AuditActor } from '../admin/audit.repo';
import { db } from '../lib/firebase';
import { countReads } from '../lib/read-counter';
import { runCount, runQuery } from '../lib/queries';
import { drainAlerts, readAlertsToRelease, releaseAlerts, releaseRestocked } from '../subscriptions/stock-alerts.repo';
import { bumpCatalogVersion } from './catalog-version';
import { sortKeys } from './sort-key';

/** How a book is stored: the API's Book without its id, prices in integer cents, dates as ISO strings (they sort as text). */
export interface BookDoc extends Omit<Book, '_id' | 'oldPrice' | 'newPrice'> {
  oldPriceCents: number;
  newPriceCents: number;
  // Derived fields, for Firestore queries only (never sent): see sort-key.ts and stockFields().
  /** stock > 0. Kept in step with `stock` by every write that changes it (stockFields). */
  inStock: boolean;
  /** priceBandOf(newPriceCents): lets 'newest' and 'title' be filtered by a price range. */
  priceBand: number;
  /** Tie-breaker: the document id (or a random id-like value); unique, uniform, stable on edits. */
  tie: string;
  /** Unique sort keys (value + tie), so a page resumes with one range filter: see sort-key.ts. */
  newestKey: string;
  priceKey: string;
  titleKey: string;
}

/**
 * The fields to write whenever `stock` changes (create, edit, and an order's decrement in its
 * transaction), so the 'in stock only' filter (`inStock == true`) never disagrees with `stock`.
 */
export function stockFields(stock: number): Pick<BookDoc, 'stock' | 'inStock'> {
  return { stock, inStock: stock > 0 };
}

export const books = () => db().collection('books');

export function toBook(snap: DocumentSnapshot): Book {
  const d = snap.data() as BookDoc;
  return {
    _id: snap.id,
    title: d.title,
    ...(d.author ? { author: d.author } : {}),
    description: d.description,
    category: d.category,
    trending: d.trending,
    coverImage: d.coverImage,
    oldPrice: fromCents(d.oldPriceCents),
    newPrice: fromCents(d.newPriceCents),
    ...(d.isbn ? { isbn: d.isbn } : {}),
    ...bookDetails(d),
    stock: d.stock ?? 0,
    ...(d.weightGrams ? { weightGrams: d.weightGrams } : {}),
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

/** The edition's details that are set (issue 26): absent ones are left out, never stored as empty. */
export function bookDetails(from: Partial<Pick<Book, BookDetailField>>): Partial<Pick<Book, BookDetailField>> {
  const out: Record<string, unknown> = {};
  for (const field of BOOK_DETAIL_FIELDS) if (from[field] !== undefined && from[field] !== '') out[field] = from[field];
  return out as Partial<Pick<Book, BookDetailField>>;
}

/** The stored form of a book; `id` (the document's id) breaks ties in sort orders when known. */
export function toDoc(input: BookInput, now: string, createdAt = now, id?: string): BookDoc {
  const newPriceCents = toCents(input.newPrice)!;
  return {
    title: input.title,
    ...(input.author ? { author: input.author } : {}),
    description: input.description,
    category: input.category,
    trending: input.trending,
    coverImage: input.coverImage,
    oldPriceCents: toCents(input.oldPrice)!,
    newPriceCents,
    ...(input.isbn ? { isbn: input.isbn } : {}),
    ...bookDetails(input),
    ...stockFields(input.stock ?? 0),
    ...(input.weightGrams ? { weightGrams: input.weightGrams } : {}),
    createdAt,
    updatedAt: now,
    priceBand: priceBandOf(newPriceCents),
    ...sortKeys({ title: input.title, newPriceCents, createdAt }, id),
  };
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

// What the audit log records of a book (stored names: prices in integer cents), by the permission
// that changing it needs (contract/src/staff.ts): a bookseller may move the stock and nothing else.
const FIELD_PERMISSIONS: Record<string, Permission> = {
  title: 'books.edit', author: 'books.edit', description: 'books.edit', category: 'books.edit', trending: 'books.edit',
  coverImage: 'books.edit', isbn: 'books.edit',
  publisher: 'books.edit', publishedOn: 'books.edit', pages: 'books.edit', format: 'books.edit', language: 'books.edit',
  oldPriceCents: 'books.price', newPriceCents: 'books.price', stock: 'books.stock',
  weightGrams: 'books.edit',
};
const AUDITED_FIELDS = Object.keys(FIELD_PERMISSIONS);
const asRecord = (doc: BookDoc) => doc as unknown as Record<string, unknown>;

/** The permissions a change needs (a save that changes nothing needs the least: books.stock), and its audit action. */
export function editNeeds(changed: string[]): { permissions: Permission[]; action: AuditAction } {
  const permissions = [...new Set(changed.map((f) => FIELD_PERMISSIONS[f]!))];
  if (permissions.length === 0) return { permissions: ['books.stock'], action: 'book.edit' };
  const only = (p: Permission) => permissions.every((x) => x === p);
  return { permissions, action: only('books.stock') ? 'book.stock' : only('books.price') ? 'book.price' : 'book.edit' };
}

export async function createBook(input: BookInput, actor: AuditActor): Promise<Book> {
  const ref = books().doc();
  const doc = toDoc(input, new Date().toISOString(), undefined, ref.id);
  await db().runTransaction(async (tx) => {
    const log = await openAudit(tx);
    tx.create(ref, doc);
    appendAudit(log, actor, { action: 'book.create', target: `books/${ref.id}`, changes: changedFields(null, asRecord(doc), AUDITED_FIELDS) });
    bumpCatalogVersion(tx); // the search index of every instance sees the new book
  });
  return toBook(await ref.get());
}

/**
 * Replaces a book's fields; returns the old and new versions, or null if it does not exist.
 * `authorize` sees the permissions the change needs (it depends on what changed, known only once
 * the stored book is read in the transaction) and throws to refuse: nothing is written then.
 */
export async function updateBook(id: string, input: BookInput, actor: AuditActor, authorize: (needed: Permission[]) => void): Promise<{ before: Book; after: Book } | null> {
  const ref = books().doc(id);
  let moreAlerts = false;
  const before = await db().runTransaction(async (tx) => {
    moreAlerts = false;
    const snap = await tx.get(ref);
    if (!snap.exists) return null;
    const old = toBook(snap);
    const coverImage = input.coverImage || old.coverImage; // empty keeps the old cover
    // Absent keeps the stored weight; null clears it.
    const weightGrams = input.weightGrams === undefined ? old.weightGrams : input.weightGrams;
    const next = toDoc({ ...input, coverImage, stock: input.stock ?? old.stock, weightGrams }, new Date().toISOString(), old.createdAt, id);
    const changes = changedFields(snap.data() as Record<string, unknown>, asRecord(next), AUDITED_FIELDS);
    const { permissions, action } = editNeeds(Object.keys(changes));
    authorize(permissions);
    // Back in stock (0 -> more): its waiting alerts are mailed and cleared in this transaction (issue 28).
    const waiting = await readAlertsToRelease(tx, id, old.stock, next.stock);
    const log = await openAudit(tx);
    tx.set(ref, next);
    appendAudit(log, actor, { action, target: `books/${id}`, changes });
    bumpCatalogVersion(tx);
    moreAlerts = releaseAlerts(tx, { id, title: next.title }, waiting);
    return old;
  });
  if (moreAlerts) await drainAlerts(id);
  if (!before) return null;
  return { before, after: toBook(await ref.get()) };
}

export async function deleteBook(id: string, actor: AuditActor): Promise<Book | null> {
  const ref = books().doc(id);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (!snap.exists) return null;
    const log = await openAudit(tx);
    tx.delete(ref);
    appendAudit(log, actor, { action: 'book.delete', target: `books/${id}`, changes: changedFields(snap.data() as Record<string, unknown>, null, AUDITED_FIELDS) });
    bumpCatalogVersion(tx);
    return toBook(snap);
  });
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

/** The book's stored fields as the input toDoc takes (for writes that change one field of many books). */
function inputOf(snap: DocumentSnapshot): BookInput {
  const { _id: _id, createdAt: _c, updatedAt: _u, ...book } = toBook(snap);
  return { ...book, author: book.author, isbn: book.isbn };
}

/**
 * Manage Books' bulk change (issue 26): one transaction reads every listed book and writes the ones
 * it changes, each with its own audit event (a book already at that price or stock is left alone,
 * with none). Books deleted meanwhile are reported as missing. At most 100 books: 201 writes.
 */
export async function bulkChange(bulk: BulkBooks, actor: AuditActor): Promise<{ changed: Book[]; missing: string[] }> {
  const restocked: string[] = [];
  const result = await db().runTransaction(async (tx) => {
    restocked.length = 0; // a retried transaction starts again
    const snaps = await getBookDocs(tx, bulk.ids);
    const log = await openAudit(tx);
    const changed: Book[] = [];
    const missing: string[] = [];
    const now = new Date().toISOString();
    for (const snap of snaps) {
      if (!snap.exists) {
        missing.push(snap.id);
        continue;
      }
      const stored = snap.data() as BookDoc;
      const target = `books/${snap.id}`;
      if (bulk.action === 'delete') {
        tx.delete(snap.ref);
        appendAudit(log, actor, { action: 'book.delete', target, changes: changedFields(asRecord(stored), null, AUDITED_FIELDS) });
        changed.push(toBook(snap));
        continue;
      }
      const input = inputOf(snap);
      const next = toDoc(bulk.action === 'price' ? { ...input, newPrice: bulk.newPrice } : { ...input, stock: bulk.stock }, now, stored.createdAt, stored.tie ?? snap.id);
      const changes = changedFields(asRecord(stored), asRecord(next), AUDITED_FIELDS);
      if (Object.keys(changes).length === 0) continue;
      tx.set(snap.ref, next);
      appendAudit(log, actor, { action: bulk.action === 'price' ? 'book.price' : 'book.stock', target, changes });
      changed.push(toBook(snap));
      if ((stored.stock ?? 0) <= 0 && next.stock > 0) restocked.push(snap.id);
    }
    if (changed.length > 0) bumpCatalogVersion(tx);
    return { changed, missing };
  });
  // Back in stock: up to 100 books' alerts would not fit this transaction's 500 writes; each book's
  // are released after it, in transactions that re-read its stock (issue 28, as an import does).
  await releaseRestocked(restocked);
  return result;
}

/** The id of a book with this ISBN (the first, if a hand-made duplicate exists), or null. */
export async function bookIdByIsbn(isbn: string): Promise<string | null> {
  const snap = await runQuery(books().where('isbn', '==', isbn).limit(1));
  return snap.empty ? null : snap.docs[0]!.id;
}

/** Points a book at a stored cover, in a transaction with its audit event; the old and new versions, or null if it is gone. */
export async function setCover(id: string, coverImage: string, actor: AuditActor): Promise<{ before: Book; after: Book } | null> {
  const ref = books().doc(id);
  const before = await db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    if (!snap.exists) return null;
    const stored = snap.data() as BookDoc;
    const next = toDoc({ ...inputOf(snap), coverImage }, new Date().toISOString(), stored.createdAt, stored.tie ?? id);
    const changes = changedFields(asRecord(stored), asRecord(next), AUDITED_FIELDS);
    if (Object.keys(changes).length > 0) {
      const log = await openAudit(tx);
      tx.set(ref, next);
      appendAudit(log, actor, { action: 'book.edit', target: `books/${id}`, changes });
      bumpCatalogVersion(tx);
    }
    return toBook(snap);
  });
  if (!before) return null;
  return { before, after: toBook(await ref.get()) };
}
