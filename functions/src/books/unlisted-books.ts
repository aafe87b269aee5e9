import type { UnlistedBook } from '@bookstore/contract';
import { FieldPath, type DocumentSnapshot, type Query, type Transaction } from 'firebase-admin/firestore';
import { decodeCursor, encodeCursor } from '../lib/created-cursor';
import { db } from '../lib/firebase';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';

// Unlisted books (issue 56, decision 056): copies received of an ISBN the catalogue does not list
// are counted in unlistedBooks/<isbn13>, a collection of their own that no storefront path reads
// (lists, search index, sitemaps, the served book page, orders, the Firestore rules all read
// `books`), so such a book cannot reach a shopper by a forgotten filter. Creating a book with that
// ISBN (Manage Books, the import) takes its copies and its cost over, in the create's transaction
// (book-writes.ts, which alone writes this collection: eslint's aggregate rule).
//
// Its moving-average cost lives with the other costs, in bookCosts/unlisted:<isbn13> (no book id
// holds a ':'), so a bookseller's list of unlisted books carries no cost.

export interface UnlistedBookDoc {
  isbn: string;
  title: string;
  stock: number;
  createdAt: string;
  updatedAt: string;
}

export const unlistedBooks = () => db().collection('unlistedBooks');
export const unlistedRef = (isbn: string) => unlistedBooks().doc(isbn);
/** Its cost's document id in bookCosts (purchasing-docs.ts). */
export const unlistedCostId = (isbn: string) => `unlisted:${isbn}`;

/** The title of a book received unlisted: the receipt line's, else the ISBN (the lookup would be a network call inside the receipt's transaction). */
export const unlistedTitle = (isbn: string, title?: string) => title?.trim() || `Unlisted ISBN ${isbn}`;

const answerOf = (doc: UnlistedBookDoc): UnlistedBook => ({ isbn: doc.isbn, title: doc.title, stock: doc.stock, createdAt: doc.createdAt, updatedAt: doc.updatedAt });

/** The unlisted books of these ISBN-13s, read in `tx` (missing ones too: reading them locks them against a concurrent create). */
export async function readUnlisted(tx: Transaction, isbns: readonly string[]): Promise<Map<string, DocumentSnapshot>> {
  const unique = [...new Set(isbns)];
  if (unique.length === 0) return new Map();
  const snaps = await tx.getAll(...unique.map(unlistedRef));
  countReads(snaps.length);
  return new Map(snaps.map((s) => [s.id, s]));
}

/** Newest first, a page at a time (cursor: the last one's createdAt and ISBN). */
export async function pageOfUnlistedBooks(limit: number, cursor?: string): Promise<{ unlistedBooks: UnlistedBook[]; nextCursor: string | null }> {
  let query: Query = unlistedBooks().orderBy('createdAt', 'desc').orderBy(FieldPath.documentId(), 'desc');
  const after = cursor ? decodeCursor(cursor) : undefined;
  if (after) query = query.startAfter(after.createdAt, after.id);
  const snap = await runQuery(query.limit(limit));
  const list = snap.docs.map((d) => answerOf(d.data() as UnlistedBookDoc));
  const last = list[list.length - 1];
  return { unlistedBooks: list, nextCursor: last && list.length === limit ? encodeCursor({ createdAt: last.createdAt, id: last.isbn }) : null };
}

/** Every unlisted book with copies on hand (the stock valuation counts them). */
export async function unlistedInStock(): Promise<UnlistedBookDoc[]> {
  return (await runQuery(unlistedBooks().where('stock', '>', 0))).docs.map((d) => d.data() as UnlistedBookDoc);
}
