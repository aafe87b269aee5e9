import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gunzipSync, gzipSync } from 'node:zlib';
import MiniSearch, { type SearchOptions, type SearchResult } from 'minisearch';
import { SEARCH_WEIGHTS, SEARCHED_FIELDS, STAFF_SEARCH_WEIGHTS, type Category, type SearchedBookFields } from '@bookstore/contract';
import { foldText, titleSortText } from './sort-key';

// The search index (MiniSearch, in the function instance's memory). Pure: built from plain rows,
// so the unit tests and bench/search.ts exercise exactly what the API serves. Freshness across
// instances lives in catalog-index.ts. Which fields are searched, and their weights, come from the
// book's field registry (contract/src/book-fields.ts `search`).

/** What the index keeps per book: the searched text, and the few fields answers are built from. */
export type IndexedBook = SearchedBookFields & {
  id: string;
  coverImage: string;
  titleKey: string;
  priceCents: number;
  createdAt: string;
};

/** The stored part of a hit (suggestions and Manage Books' sorts are built from it; long text is searched but not kept). */
export interface StoredBook {
  id: string;
  title: string;
  author?: string;
  category: Category;
  coverImage: string;
  titleKey: string;
  priceCents: number;
  createdAt: string;
}
export type Hit = SearchResult & StoredBook;

const STORED: (keyof StoredBook)[] = ['id', 'title', 'author', 'category', 'coverImage', 'titleKey', 'priceCents', 'createdAt'];

/** The book's stored fields an index row is built from: a change to any of them moves the catalogue version (book-writes.ts). */
export const INDEXED_STORED_FIELDS: readonly string[] = [...new Set<string>([...SEARCHED_FIELDS, 'coverImage', 'title', 'newPriceCents', 'createdAt'])];

/**
 * The shape of a stored snapshot: its searched and kept fields. A snapshot of another shape (an
 * older deploy's, before a field was added) is never loaded: the instance builds its own
 * (search-snapshot.ts keeps each shape under its own name). Bump FORMAT when serializeIndex changes.
 */
const FORMAT = 1;
export const SEARCH_SCHEMA = createHash('sha256').update(JSON.stringify({ FORMAT, fields: SEARCHED_FIELDS, stored: STORED })).digest('hex').slice(0, 12);

/** 'Café' and 'cafe' are the same term, in the index and in queries. */
function processTerm(term: string): string | null {
  const folded = foldText(term);
  return folded || null;
}

const SHOPPER_SEARCH: SearchOptions = {
  // Ranking: the registry's weights (a title match outweighs a subtitle's, an author's, the category's, the description's).
  boost: SEARCH_WEIGHTS,
  fuzzy: 0.2, // 'harri poter': one edit per five letters
  prefix: true, // 'harr' while typing
  combineWith: 'AND',
};

const ADMIN_SEARCH: SearchOptions = {
  fields: Object.keys(STAFF_SEARCH_WEIGHTS),
  boost: STAFF_SEARCH_WEIGHTS,
  fuzzy: 0.2,
  prefix: true,
  combineWith: 'AND',
};

const FIELDS = SEARCHED_FIELDS;
const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

function termsOf(text: string): string[] {
  return tokenize(text).map(processTerm).filter((term): term is string => !!term);
}

/** The index, with how many books contain each term (to leave out words nearly every book has). */
export interface CatalogSearch {
  index: MiniSearch<IndexedBook>;
  documentFrequency: Map<string, number>;
  size: number;
}

const INDEX_OPTIONS = { fields: [...FIELDS], storeFields: STORED, processTerm };

export function buildIndex(rows: IndexedBook[]): CatalogSearch {
  const index = new MiniSearch<IndexedBook>(INDEX_OPTIONS);
  index.addAll(rows);
  const documentFrequency = new Map<string, number>();
  for (const row of rows) {
    const terms = new Set(FIELDS.flatMap((field) => termsOf(row[field] ?? '')));
    for (const term of terms) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  return { index, documentFrequency, size: rows.length };
}

/**
 * The index as stored between instances (catalog-index.ts): MiniSearch's own JSON and the term
 * frequencies, gzip-compressed. Loading it costs no Firestore read and no tokenising of the catalogue.
 */
export function serializeIndex(search: CatalogSearch): Buffer {
  // Line 1: our own fields; the rest: MiniSearch's JSON, handed to loadJSON as it is (no second parse).
  const head = JSON.stringify({ schema: SEARCH_SCHEMA, size: search.size, documentFrequency: [...search.documentFrequency] });
  return gzipSync(`${head}\n${JSON.stringify(search.index)}`, { level: 6 });
}

/** The stored index, or null when it was stored in another shape (then it is built again, never loaded into this one). */
export function loadIndex(snapshot: Buffer): CatalogSearch | null {
  const text = gunzipSync(snapshot).toString('utf8');
  const split = text.indexOf('\n');
  const { schema, size, documentFrequency } = JSON.parse(text.slice(0, split)) as { schema?: string; size: number; documentFrequency: [string, number][] };
  if (schema !== SEARCH_SCHEMA) return null;
  return { size, documentFrequency: new Map(documentFrequency), index: MiniSearch.loadJSON<IndexedBook>(text.slice(split + 1), INDEX_OPTIONS) };
}

const gunzipAsync = promisify(gunzip);

/**
 * loadIndex without holding the event loop for the whole load: the gunzip runs off the main thread
 * and MiniSearch loads its terms in batches with pauses between them (loadJSONAsync), so an instance
 * loading a newer snapshot (at 100,000 books, seconds) keeps answering with the index it has.
 */
export async function loadIndexAsync(snapshot: Buffer): Promise<CatalogSearch | null> {
  const text = (await gunzipAsync(snapshot)).toString('utf8');
  const split = text.indexOf('\n');
  const { schema, size, documentFrequency } = JSON.parse(text.slice(0, split)) as { schema?: string; size: number; documentFrequency: [string, number][] };
  if (schema !== SEARCH_SCHEMA) return null;
  const index = await MiniSearch.loadJSONAsync<IndexedBook>(text.slice(split + 1), INDEX_OPTIONS);
  return { size, documentFrequency: new Map(documentFrequency), index };
}

/** Above this share of the catalogue a word hardly ranks anything, but costs a pass over its books. */
const COMMON_SHARE = 0.1;
const COMMON_MIN_BOOKS = 200;

/**
 * The query without its words that most books contain ('the', 'of', or a word every title
 * shares), as long as a rarer word remains: a query's cost then follows its rare words' matches,
 * not the catalogue's size, and the ranking barely moves (such words weigh almost nothing).
 */
export function selectiveQuery(search: CatalogSearch, q: string): string {
  const terms = termsOf(q);
  const limit = Math.max(COMMON_MIN_BOOKS, search.size * COMMON_SHARE);
  const rare = terms.filter((term) => (search.documentFrequency.get(term) ?? 0) <= limit);
  return rare.length > 0 && rare.length < terms.length ? rare.join(' ') : q;
}

/**
 * Every book matching all the words (typos and prefixes forgiven), best first; when no book has
 * all of them, those matching any (so one misspelt word beyond repair does not empty the page).
 */
export function searchBooks(search: CatalogSearch, q: string): Hit[] {
  const query = selectiveQuery(search, q);
  const all = search.index.search(query, SHOPPER_SEARCH) as Hit[];
  return all.length > 0 ? all : (search.index.search(query, { ...SHOPPER_SEARCH, combineWith: 'OR' }) as Hit[]);
}

/** Books whose title or author matches every word (for the admin's Manage Books). */
export function searchTitleOrAuthor(search: CatalogSearch, q: string): Hit[] {
  return search.index.search(q, ADMIN_SEARCH) as Hit[];
}

/** An index row from a stored book's fields (older documents may lack the derived titleKey). */
export function rowFrom(id: string, d: SearchedBookFields & { coverImage: string; titleKey?: string; newPriceCents: number; createdAt: string }): IndexedBook {
  const searched = Object.fromEntries(SEARCHED_FIELDS.flatMap((field) => (d[field] ? [[field, d[field]]] : []))) as SearchedBookFields;
  return { id, ...searched, coverImage: d.coverImage, titleKey: d.titleKey ?? titleSortText(d.title), priceCents: d.newPriceCents, createdAt: d.createdAt };
}
