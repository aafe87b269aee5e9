import { logger } from 'firebase-functions/logger';
import { runQuery } from '../lib/queries';
import { books, type BookDoc } from './book-doc';
import { backfillDerivedFields } from './book-writes';
import { readCatalogVersion } from './catalog-version';
import { buildIndex, INDEXED_STORED_FIELDS, loadIndex, rowFrom, serializeIndex, type CatalogSearch, type IndexedBook } from './search-index';
import { readSnapshot, takeBuildLease, waitForSnapshot, writeSnapshot } from './search-snapshot';

// This instance's search index, replaced when the catalogue version (meta/catalog) moves on.
// The version is read at most once per FRESH_MS; a new version's index comes from its stored
// snapshot (search-snapshot.ts: no Firestore read), and only the one instance holding the build
// lease reads the catalogue (only the fields the index needs, with select()) and stores it.
// Concurrent requests share one check and one load.

const FRESH_MS = 1000;
const INDEXED_FIELDS = [...INDEXED_STORED_FIELDS, 'titleKey'];
// Read along to spot books stored before the derived query fields existed (see backfill below).
const DERIVED_CHECK = ['stock', 'inStock', 'newestKey'] as const;

let current: { version: number; index: CatalogSearch } | null = null;
let checkedAt = 0;
let pending: Promise<CatalogSearch> | null = null;

async function loadRows(): Promise<IndexedBook[]> {
  const snap = await runQuery(books().select(...INDEXED_FIELDS, ...DERIVED_CHECK));
  const stale = snap.docs.filter((doc) => doc.get('newestKey') === undefined || doc.get('inStock') === undefined);
  if (stale.length > 0) {
    // Never fail a search over it (a book deleted meanwhile makes its update fail): retried next build.
    await backfillDerivedFields(stale.map((doc) => ({ id: doc.id, ...(doc.data() as BookDoc) }))).catch((error: unknown) =>
      logger.warn('Backfill of browse fields failed', { error: String(error) }),
    );
  }
  return snap.docs.map((doc) => rowFrom(doc.id, doc.data() as BookDoc));
}

/** `version`'s index: its snapshot, else the lease holder's once stored, else built here and stored. */
async function indexFor(version: number): Promise<CatalogSearch> {
  const stored = (await readSnapshot(version)) ?? ((await takeBuildLease(version)) ? null : await waitForSnapshot(version));
  const loaded = stored && loadIndex(stored); // null: stored in another shape (search-index.ts SEARCH_SCHEMA)
  if (loaded) return loaded;
  // The rows are read after the version: they are at least as new as the version they are stored under.
  const built = buildIndex(await loadRows());
  await writeSnapshot(version, serializeIndex(built));
  return built;
}

async function refresh(): Promise<CatalogSearch> {
  const version = await readCatalogVersion();
  if (!current || current.version !== version) current = { version, index: await indexFor(version) };
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
