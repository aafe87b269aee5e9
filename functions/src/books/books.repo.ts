import type { Book, BookInput, BooksQuery, LowStockBook } from '@bookstore/contract';
import { fromCents, LOW_STOCK_LIST_SIZE, LOW_STOCK_THRESHOLD, MAX_BOOKS_LIST, priceBandOf, toCents } from '@bookstore/contract';
import type { DocumentSnapshot, Transaction } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { countReads } from '../lib/read-counter';
import { runCount, runQuery } from '../lib/queries';
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
    stock: d.stock ?? 0,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
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
    ...stockFields(input.stock ?? 0),
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

export async function createBook(input: BookInput): Promise<Book> {
  const ref = books().doc();
  const batch = db().batch();
  batch.create(ref, toDoc(input, new Date().toISOString(), undefined, ref.id));
  bumpCatalogVersion(batch); // the search index of every instance sees the new book
  await batch.commit();
  return toBook(await ref.get());
}

/** Replaces a book's fields; returns the old and new versions, or null if it does not exist. */
export async function updateBook(id: string, input: BookInput): Promise<{ before: Book; after: Book } | null> {
  const ref = books().doc(id);
  const before = await db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (!snap.exists) return null;
    const old = toBook(snap);
    const coverImage = input.coverImage || old.coverImage; // empty keeps the old cover
    tx.set(ref, toDoc({ ...input, coverImage, stock: input.stock ?? old.stock }, new Date().toISOString(), old.createdAt, id));
    bumpCatalogVersion(tx);
    return old;
  });
  if (!before) return null;
  return { before, after: toBook(await ref.get()) };
}

export async function deleteBook(id: string): Promise<Book | null> {
  const ref = books().doc(id);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (!snap.exists) return null;
    tx.delete(ref);
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
