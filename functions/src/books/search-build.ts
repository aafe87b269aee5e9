import { logger } from 'firebase-functions/logger';
import { runQuery } from '../lib/queries';
import { books, type BookDoc } from './book-doc';
import { backfillDerivedFields } from './book-writes';
import { readCatalogVersion } from './catalog-version';
import { buildIndex, INDEXED_STORED_FIELDS, rowFrom, serializeIndex, SEARCH_SCHEMA, type IndexedBook } from './search-index';
import { publishSnapshot, readPublished, releaseBuildLease, takeBuildLease } from './search-snapshot';
import { planFromIds, sitemapPlanRef, URLS_PER_FILE } from './sitemap.repo';

// The `buildSearchIndex` function's work (issue 58, decision 044): off every request path, one
// builder at a time (a lease), it reads the catalogue (only the fields the index needs), builds the
// index, stores its snapshot and publishes it (search-snapshot.ts), and plans the sitemap's files
// from the same ids (sitemap.repo.ts). It runs when meta/catalog is
// written: every book create, edit or delete that moves the catalogue version, an import's end, and
// a `search` instance that found no snapshot at all (search-snapshot.ts askForBuild). Events that arrive while a build
// runs find the lease held and end; the builder looks at the version again once it is done (after
// giving the lease up, so an event after that look takes it), so the last edit is always built.

const INDEXED_FIELDS = [...INDEXED_STORED_FIELDS, 'titleKey'];
// Read along to spot books stored before the derived query fields existed (see backfill below).
const DERIVED_CHECK = ['stock', 'inStock', 'newestKey'] as const;
/** Edits arriving together (a bulk change, an import's requests) make one build: the builder waits this long first. */
export const BUILD_DEBOUNCE_MS = 1000;
/** Builds one run makes at most (each one the catalogue's newest version; the next event carries on). */
const MAX_BUILDS = 5;

async function loadRows(): Promise<IndexedBook[]> {
  const snap = await runQuery(books().select(...INDEXED_FIELDS, ...DERIVED_CHECK));
  const stale = snap.docs.filter((doc) => doc.get('newestKey') === undefined || doc.get('inStock') === undefined);
  if (stale.length > 0) {
    // Never fail a build over it (a book deleted meanwhile makes its update fail): retried next build.
    await backfillDerivedFields(stale.map((doc) => ({ id: doc.id, ...(doc.data() as BookDoc) }))).catch((error: unknown) =>
      logger.warn('Backfill of browse fields failed', { error: String(error) }),
    );
  }
  return snap.docs.map((doc) => rowFrom(doc.id, doc.data() as BookDoc));
}

/** Whether the published snapshot is behind the catalogue (or missing). */
async function behind(): Promise<number | null> {
  const [version, published] = await Promise.all([readCatalogVersion(), readPublished()]);
  return published && published.version >= version ? null : version;
}

export interface BuildRun {
  /** The catalogue versions built and published by this run. */
  built: { version: number; books: number; ms: number }[];
  /** Why nothing was built: the snapshot was current, or another builder holds the lease. */
  skipped?: 'current' | 'busy';
}

/**
 * One builder's run: waits `debounceMs`, then builds until the published snapshot holds the newest
 * version; each build also writes the sitemap's plan (`sitemapUrlsPerFile`: tests make it small).
 */
export async function buildSearchSnapshots({ debounceMs = BUILD_DEBOUNCE_MS, sitemapUrlsPerFile = URLS_PER_FILE } = {}): Promise<BuildRun> {
  if (debounceMs > 0) await new Promise((resolve) => setTimeout(resolve, debounceMs));
  const run: BuildRun = { built: [] };
  while (run.built.length < MAX_BUILDS) {
    if ((await behind()) === null) return run.built.length ? run : { ...run, skipped: 'current' };
    if (!(await takeBuildLease())) return run.built.length ? run : { ...run, skipped: 'busy' };
    try {
      for (let version = await behind(); version !== null && run.built.length < MAX_BUILDS; version = await behind()) {
        const started = Date.now();
        // The rows are read after the version: they are at least as new as the version they are stored under.
        const rows = await loadRows();
        const bytes = serializeIndex(buildIndex(rows));
        await publishSnapshot(version, bytes, rows.length);
        // The sitemap's files from the same ids (sitemap.repo.ts): its index then costs one read.
        await sitemapPlanRef().set(planFromIds(rows.map((row) => row.id), sitemapUrlsPerFile));
        const ms = Date.now() - started;
        run.built.push({ version, books: rows.length, ms });
        logger.info('Search index built', { version, books: rows.length, ms, bytes: bytes.length, schema: SEARCH_SCHEMA });
      }
    } finally {
      await releaseBuildLease();
    }
  }
  return run;
}
