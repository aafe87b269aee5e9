import type { AdminBookSort, Book, BooksPage, BrowseQuery, BrowseSort } from '@bookstore/contract';
import { PRICE_EDGES, priceBandOf } from '@bookstore/contract';
import type { Query, QueryDocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { books, toBook, type BookDoc } from './books.repo';
import { decodeKeyset, encodeKeyset } from './cursor';
import { priceKeyPrefix } from './sort-key';

// Server-side pages over Firestore with keyset cursors: each page is one query of `limit + 1`
// documents (the extra one says whether another page follows), whatever the page number.
// Each order reads one unique stored key (sort-key.ts), so a cursor is that key's value and a
// page resumes with a range filter on it; "previous" runs the same query with the order flipped.
//
// Query shapes (each has its composite index in firestore.indexes.json):
//   [category ==] [inStock ==] [priceBand in | ==] [newestKey < | >]  orderBy newestKey desc | asc
//   (the home page list, GET /api/books?category=&after=, is the first shape too)
//   [category ==] [inStock ==] [priceBand in | ==] [titleKey > | <]   orderBy titleKey asc | desc
//   [category ==] [inStock ==] [priceKey >= and < and > | <]          orderBy priceKey asc | desc
// Firestore orders by the field it range-filters, so a price range under 'newest' or 'title'
// filters on the stored price band (the contract's price edges make bands and ranges coincide,
// so the answer is exact), and under the price sorts on priceKey itself.

type Dir = 'asc' | 'desc';
type KeyField = 'newestKey' | 'priceKey' | 'titleKey';

export interface KeysetOrder {
  /** Names the order inside cursors, so a cursor only resumes the order it came from. */
  name: string;
  field: KeyField;
  dir: Dir;
}

const BROWSE_ORDERS: Record<BrowseSort, KeysetOrder> = {
  newest: { name: 'newest', field: 'newestKey', dir: 'desc' },
  'price-asc': { name: 'price-asc', field: 'priceKey', dir: 'asc' },
  'price-desc': { name: 'price-desc', field: 'priceKey', dir: 'desc' },
  title: { name: 'title', field: 'titleKey', dir: 'asc' },
};

const ADMIN_FIELDS: Record<AdminBookSort, KeyField> = {
  date: 'newestKey',
  price: 'priceKey',
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
  const cursor = cursorToken ? decodeKeyset(cursorToken, order.name) : undefined;
  const backwards = cursor?.way === 'prev';
  const dir = backwards ? flip(order.dir) : order.dir;
  let q = filtered;
  if (cursor) q = q.where(order.field, dir === 'asc' ? '>' : '<', cursor.key);
  const docs = (await runQuery(q.orderBy(order.field, dir).limit(limit + 1))).docs as QueryDocumentSnapshot[];
  const more = docs.length > limit; // more books beyond this page, in the direction we read
  const page = docs.slice(0, limit);
  if (backwards) page.reverse();
  const at = (doc: QueryDocumentSnapshot | undefined, way: 'next' | 'prev') =>
    doc ? encodeKeyset({ order: order.name, way, key: (doc.data() as BookDoc)[order.field] }) : null;
  return {
    books: page.map(toBook),
    nextCursor: backwards || more ? at(page.at(-1), 'next') : null,
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
  if (priced && order.field === 'priceKey') {
    if (query.minPrice) q = q.where('priceKey', '>=', priceKeyPrefix(query.minPrice * 100));
    if (query.maxPrice !== undefined) q = q.where('priceKey', '<', priceKeyPrefix(query.maxPrice * 100));
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
