import { fromStoredFields, priceBandOf, toStoredFields, type Book, type BookFields, type StoredBookFields } from '@bookstore/contract';
import type { DocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { sortKeys } from './sort-key';

// A book as Firestore stores it: the registry's fields (contract/src/book-fields.ts; prices in
// integer cents), its dates, and fields derived from them for queries. Derived fields are computed
// here and only here, from the stored fields, by every write (book-writes.ts).

/** The fields the shop's queries filter and sort on (never sent): see sort-key.ts. */
export interface DerivedBookFields {
  /** stock > 0: browse's 'in stock only'. */
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

export type BookDoc = StoredBookFields & DerivedBookFields & {
  /** ISO 8601 (they sort as text). */
  createdAt: string;
  /** When its fields last changed; an order's stock change leaves it (the sitemap's lastmod). */
  updatedAt: string;
  /** Issue 41: order lines waiting for a copy (preorders/*); kept by every edit, moved only by orders and allocations. */
  preorderWaiting?: number;
};

/** The derived fields' names: every other key of a stored book is a registry field or a date (book-writes.inproc.test.ts). */
export const DERIVED_FIELDS = ['inStock', 'priceBand', 'tie', 'newestKey', 'priceKey', 'titleKey'] as const satisfies readonly (keyof DerivedBookFields)[];

export const books = () => db().collection('books');

/** The query fields of a stored book; `tie` (the id, or the tie it already has) breaks ties in sort orders. */
export function derivedFields(doc: Pick<BookDoc, 'title' | 'newPriceCents' | 'createdAt' | 'stock'>, tie?: string): DerivedBookFields {
  return { inStock: (doc.stock ?? 0) > 0, priceBand: priceBandOf(doc.newPriceCents), ...sortKeys(doc, tie) };
}

/** The whole stored document of a book's fields. */
export function bookDoc(fields: BookFields, dates: { createdAt: string; updatedAt: string }, tie?: string): BookDoc {
  const stored = toStoredFields(fields);
  return { ...stored, ...dates, ...derivedFields({ ...stored, createdAt: dates.createdAt }, tie) };
}

/** The API's book from a stored document. */
export function toBook(snap: DocumentSnapshot): Book {
  const d = snap.data() as BookDoc;
  return { _id: snap.id, ...fromStoredFields(d as unknown as Record<string, unknown>), createdAt: d.createdAt, updatedAt: d.updatedAt };
}
