import { runQuery } from '../lib/queries';
import { books, type BookDoc } from './books.repo';
import { readCatalogVersion } from './catalog-version';
import { buildIndex, rowFrom, type CatalogSearch, type IndexedBook } from './search-index';

// This instance's search index, rebuilt when the catalogue version (meta/catalog) moves on.
// The version is read at most once per FRESH_MS; a rebuild reads the catalogue once (only the
// fields the index needs, with select()). Concurrent requests share one check and one rebuild.

const FRESH_MS = 1000;
const INDEXED_FIELDS = ['title', 'author', 'category', 'description', 'coverImage', 'titleKey', 'newPriceCents', 'createdAt'] as const;

let current: { version: number; index: CatalogSearch } | null = null;
let checkedAt = 0;
let pending: Promise<CatalogSearch> | null = null;

async function loadRows(): Promise<IndexedBook[]> {
  const snap = await runQuery(books().select(...INDEXED_FIELDS));
  return snap.docs.map((doc) => rowFrom(doc.id, doc.data() as BookDoc));
}

async function refresh(): Promise<CatalogSearch> {
  // Read the version before the books: the rows are then at least as new as the version we record.
  const version = await readCatalogVersion();
  if (!current || current.version !== version) current = { version, index: buildIndex(await loadRows()) };
  checkedAt = Date.now();
  return current.index;
}

export async function catalogIndex(): Promise<CatalogSearch> {
  if (current && Date.now() - checkedAt < FRESH_MS) return current.index;
  pending ??= refresh().finally(() => {
    pending = null;
  });
  return pending;
}
