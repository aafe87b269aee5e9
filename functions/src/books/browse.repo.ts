import type { AdminBookSort, Book, BooksPage, BrowseQuery, BrowseSort } from '@bookstore/contract';
import { PRICE_EDGES, priceBandOf } from '@bookstore/contract';
import { FieldPath, type Query, type QueryDocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { books, toBook, type BookDoc } from './books.repo';
import { decodeKeyset, encodeKeyset } from './cursor';

// Server-side pages over Firestore with keyset cursors: each page is one query of `limit + 1`
// documents (the extra one says whether another page follows), whatever the page number.
//
// Query shapes (each has its composite index in firestore.indexes.json):
//   [category ==] [inStock ==] [priceBand in | ==]  orderBy createdAt desc | titleKey asc
//   [category ==] [inStock ==] [newPriceCents >= / <]  orderBy newPriceCents asc | desc
// Firestore can only order by the field it range-filters first, so a price range under 'newest'
// or 'title' filters on the stored price band instead (the contract's price edges make bands and
// ranges coincide, so the answer is exact). A trailing orderBy on the document id in the same
// direction makes the order total (Firestore adds it implicitly; we state it to resume from a
// cursor's values) and "previous" pages run the same query with every direction flipped.

type Dir = 'asc' | 'desc';

export interface KeysetOrder {
  /** Names the order inside cursors, so a cursor only resumes the order it came from. */
  name: string;
  field: 'createdAt' | 'newPriceCents' | 'titleKey';
  dir: Dir;
}

const BROWSE_ORDERS: Record<BrowseSort, KeysetOrder> = {
  newest: { name: 'newest', field: 'createdAt', dir: 'desc' },
  'price-asc': { name: 'price-asc', field: 'newPriceCents', dir: 'asc' },
  'price-desc': { name: 'price-desc', field: 'newPriceCents', dir: 'desc' },
  title: { name: 'title', field: 'titleKey', dir: 'asc' },
};

const ADMIN_FIELDS: Record<AdminBookSort, KeysetOrder['field']> = {
  date: 'createdAt',
  price: 'newPriceCents',
  title: 'titleKey',
};

const flip = (dir: Dir): Dir => (dir === 'asc' ? 'desc' : 'asc');

/** Price bands inside [minPrice, maxPrice): the contract only accepts edges, so bands fit exactly. */
export function bandsBetween(minPrice = 0, maxPrice?: number): number[] {
  const first = priceBandOf(minPrice * 100);
  const last = maxPrice === undefined ? PRICE_EDGES.length - 1 : priceBandOf(maxPrice * 100) - 1;
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

async function keysetPage(filtered: Query, order: KeysetOrder, cursorToken: string | undefined, limit: number): Promise<BooksPage> {
  const valueType = order.field === 'newPriceCents' ? 'number' : 'string';
  const cursor = cursorToken ? decodeKeyset(cursorToken, order.name, valueType) : undefined;
  const backwards = cursor?.way === 'prev';
  const dir = backwards ? flip(order.dir) : order.dir;
  let q = filtered.orderBy(order.field, dir).orderBy(FieldPath.documentId(), dir);
  if (cursor) q = q.startAfter(cursor.value, cursor.id);
  const docs = (await runQuery(q.limit(limit + 1))).docs as QueryDocumentSnapshot[];
  const more = docs.length > limit; // more books beyond this page, in the direction we read
  const page = docs.slice(0, limit);
  if (backwards) page.reverse();
  const at = (doc: QueryDocumentSnapshot | undefined, way: 'next' | 'prev') =>
    doc ? encodeKeyset({ order: order.name, way, value: (doc.data() as BookDoc)[order.field], id: doc.id }) : null;
  return {
    books: page.map(toBook),
    nextCursor: backwards ? at(page.at(-1), 'next') : more ? at(page.at(-1), 'next') : null,
    prevCursor: backwards ? (more ? at(page[0], 'prev') : null) : cursor ? at(page[0], 'prev') : null,
  };
}

// GET /api/books?sort=...
export async function browseBooks(query: BrowseQuery): Promise<BooksPage> {
  const order = BROWSE_ORDERS[query.sort];
  let q: Query = books();
  if (query.category) q = q.where('category', '==', query.category);
  if (query.inStock) q = q.where('inStock', '==', true);
  const priced = query.minPrice !== undefined || query.maxPrice !== undefined;
  if (priced && order.field === 'newPriceCents') {
    if (query.minPrice) q = q.where('newPriceCents', '>=', query.minPrice * 100);
    if (query.maxPrice !== undefined) q = q.where('newPriceCents', '<', query.maxPrice * 100);
  } else if (priced) {
    const bands = bandsBetween(query.minPrice, query.maxPrice);
    if (bands.length === 1) q = q.where('priceBand', '==', bands[0]);
    else if (bands.length < PRICE_EDGES.length) q = q.where('priceBand', 'in', bands);
  }
  return keysetPage(q, order, query.cursor, query.limit);
}

// GET /api/admin/books without q
export async function adminListBooks(sort: AdminBookSort, dir: Dir, cursor: string | undefined, limit: number): Promise<BooksPage> {
  const order: KeysetOrder = { name: `admin:${sort}:${dir}`, field: ADMIN_FIELDS[sort], dir };
  return keysetPage(books(), order, cursor, limit);
}

/** Books by id in the order asked, skipping any deleted meanwhile (getAll: one read each). */
export async function getBooksByIds(ids: string[]): Promise<Book[]> {
  if (ids.length === 0) return [];
  const snaps = await db().getAll(...ids.map((id) => books().doc(id)));
  countReads(snaps.length);
  return snaps.filter((snap) => snap.exists).map(toBook);
}
