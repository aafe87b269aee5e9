import { logger } from 'firebase-functions/logger';
import { HttpError } from '../lib/http-error';
import { loadIndexAsync, type CatalogSearch } from './search-index';
import { askForBuild, readPublished, readSnapshot } from './search-snapshot';

// This `search` instance's index (decision 044). The builder (`buildSearchIndex`, search-build.ts)
// publishes each new snapshot in meta/searchIndex-<schema>; this instance reads that one document at
// most once per FRESH_MS, and when it names a newer version loads it in the background while every
// request keeps being answered from the index it has. Only a cold instance waits for a load. Nothing
// here reads the catalogue or builds: an instance that finds no snapshot at all asks the builder for
// one, waits up to COLD_WAIT_MS for it, then answers 503 with Retry-After.

const FRESH_MS = 1000;
/** How long a cold instance with no snapshot to load waits for the builder before answering 503. */
export const COLD_WAIT_MS = 10_000;
const POLL_MS = 500;
/** How often one instance may ask for a build while no snapshot exists. */
const ASK_EVERY_MS = 30_000;
/** What the 503 asks the client to wait: a first build of a large catalogue takes minutes. */
export const NOT_READY_RETRY_AFTER_S = 30;

interface Loaded {
  version: number;
  index: CatalogSearch;
}

let current: Loaded | null = null;
let checkedAt = 0;
let checking: Promise<void> | null = null;
let cold: Promise<CatalogSearch> | null = null;
let askedAt = 0;

/** For tests in one process (the in-process lane's files share a worker's modules): a cold instance again. */
export function resetCatalogIndex(): void {
  current = null;
  checkedAt = 0;
  checking = null;
  cold = null;
  askedAt = 0;
}

/** The published snapshot when it is newer than `have` (null: nothing newer, or it was replaced meanwhile). */
async function newerThan(have: number): Promise<Loaded | null> {
  const published = await readPublished();
  if (!published || published.version <= have) return null;
  const bytes = await readSnapshot(published.version);
  const index = bytes && (await loadIndexAsync(bytes));
  return index ? { version: published.version, index } : null;
}

/** Looks for a newer snapshot and loads it, without anyone waiting for it. */
function refreshInBackground(): void {
  if (checking || Date.now() - checkedAt < FRESH_MS) return;
  const have = current?.version ?? -1;
  checking = newerThan(have)
    .then((next) => {
      if (next && next.version > (current?.version ?? -1)) current = next;
    })
    .catch((error: unknown) => logger.warn('A newer search index could not be loaded; the one loaded is served', { have, error: String(error) }))
    .finally(() => {
      checkedAt = Date.now();
      checking = null;
    });
}

async function loadCold(): Promise<CatalogSearch> {
  const until = Date.now() + COLD_WAIT_MS;
  for (;;) {
    let loaded: Loaded | null;
    try {
      loaded = await newerThan(-1);
    } catch (error) {
      logger.error('The search index could not be loaded', { error: String(error) });
      throw new HttpError(503, 'Search is unavailable right now. Please try again in a moment.', { code: 'SEARCH_NOT_READY' }, { 'Retry-After': String(NOT_READY_RETRY_AFTER_S) });
    }
    if (loaded) {
      current = loaded;
      checkedAt = Date.now();
      return loaded.index;
    }
    if (Date.now() - askedAt >= ASK_EVERY_MS) {
      askedAt = Date.now();
      await askForBuild().catch((error: unknown) => logger.warn('Asking for a search index build failed', { error: String(error) }));
    }
    if (Date.now() >= until) {
      throw new HttpError(503, 'Search is being prepared. Please try again in a moment.', { code: 'SEARCH_NOT_READY' }, { 'Retry-After': String(NOT_READY_RETRY_AFTER_S) });
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The index to answer with: the one loaded (a newer one loads behind it), or for a cold instance the published one. */
export async function catalogIndex(): Promise<CatalogSearch> {
  if (current) {
    refreshInBackground();
    return current.index;
  }
  cold ??= loadCold().finally(() => {
    cold = null;
  });
  return cold;
}

/** The version this instance answers from (-1: none loaded yet). For tests and logs. */
export function loadedVersion(): number {
  return current?.version ?? -1;
}
