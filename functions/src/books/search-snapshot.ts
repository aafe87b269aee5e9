import { logger } from 'firebase-functions/logger';
import { db, bucket } from '../lib/firebase';
import { countReads } from '../lib/read-counter';
import { catalogVersionRef } from './catalog-version';
import { SEARCH_SCHEMA } from './search-index';

// The search index, stored once per catalogue version (decision 018, amended by 043): a gzipped
// MiniSearch snapshot in Cloud Storage under search-index/<schema>/v<version>.json.gz, which no client
// can read (storage.rules). Only the `buildSearchIndex` function writes one (search-build.ts); it then
// publishes it in meta/searchIndex-<schema> { version }, the one document a `search` instance polls to
// learn that a newer index is there to load. A search never builds.

const ROOT = 'search-index/';
// Each shape of the index (search-index.ts SEARCH_SCHEMA: its fields) has its own folder and its own
// published pointer: during a deploy, old and new instances never read each other's snapshots.
const PREFIX = `${ROOT}${SEARCH_SCHEMA}/`;
/**
 * How long one builder may hold the lease: past the function's 540 s timeout, so a live build is
 * never joined by a second one; a crashed builder's lease simply runs out.
 */
export const LEASE_MS = 600_000;

const fileFor = (version: number) => bucket().file(`${PREFIX}v${version}.json.gz`);
const versionOf = (name: string) => Number(/v(\d+)\.json\.gz$/.exec(name)?.[1] ?? Infinity);
// One lease and one pointer per shape: an old deploy's builder does not hold up a new one.
const leaseRef = () => db().collection('meta').doc(`searchBuild-${SEARCH_SCHEMA}`);
export const publishedRef = () => db().collection('meta').doc(`searchIndex-${SEARCH_SCHEMA}`);

/** What the builder last published: the catalogue version its snapshot holds, how many books, when. */
export interface Published {
  version: number;
  books: number;
  builtAt: string;
}

/** The newest published snapshot of this shape, or null when none was ever built (one read). */
export async function readPublished(): Promise<Published | null> {
  const snap = await publishedRef().get();
  countReads(1);
  return snap.exists ? (snap.data() as Published) : null;
}

/** `version`'s snapshot, or null when it is not (or no longer) stored. Storage trouble other than 404 throws. */
export async function readSnapshot(version: number): Promise<Buffer | null> {
  try {
    const [bytes] = await fileFor(version).download();
    return bytes;
  } catch (error) {
    if ((error as { code?: number }).code === 404) return null;
    throw error;
  }
}

/**
 * Stores `version`'s snapshot, then publishes it unless a newer one is published already, then
 * removes snapshots older than the one published before it (an instance that read that pointer a
 * moment ago may still be downloading it).
 */
export async function publishSnapshot(version: number, bytes: Buffer, books: number, now = new Date()): Promise<boolean> {
  try {
    await fileFor(version).save(bytes, { resumable: false, contentType: 'application/gzip', preconditionOpts: { ifGenerationMatch: 0 } });
  } catch (error) {
    if ((error as { code?: number }).code !== 412) throw error; // 412: stored already (same version, same rows)
  }
  let previous = 0;
  const published = await db().runTransaction(async (tx) => {
    const snap = await tx.get(publishedRef());
    countReads(1);
    previous = (snap.get('version') as number | undefined) ?? 0;
    if (snap.exists && previous >= version) return false;
    tx.set(publishedRef(), { version, books, builtAt: now.toISOString() } satisfies Published);
    return true;
  });
  if (!published) return false;
  try {
    const [files] = await bucket().getFiles({ prefix: ROOT });
    await Promise.all(files.filter((f) => versionOf(f.name) < previous).map((f) => f.delete({ ignoreNotFound: true })));
  } catch (error) {
    logger.warn('Old search snapshots could not be removed', { error: String(error) });
  }
  return true;
}

/** True when this builder may build: nobody else holds an unexpired lease (of this shape). */
export async function takeBuildLease(now = Date.now()): Promise<boolean> {
  return db().runTransaction(async (tx) => {
    const lease = await tx.get(leaseRef());
    countReads(1);
    if (((lease.get('until') as number | undefined) ?? 0) > now) return false;
    tx.set(leaseRef(), { until: now + LEASE_MS, since: now });
    return true;
  });
}

/** Gives the lease up (a builder that is done, or failed). */
export async function releaseBuildLease(): Promise<void> {
  await leaseRef().set({ until: 0 }, { merge: true });
}

/**
 * A `search` instance with no snapshot to load asks for one: a write to meta/catalog that leaves the
 * version as it is but fires the builder's trigger (a first deploy, a new index shape, a lost event).
 */
export async function askForBuild(now = new Date()): Promise<void> {
  await catalogVersionRef().set({ searchWanted: { schema: SEARCH_SCHEMA, at: now.toISOString() } }, { merge: true });
}
