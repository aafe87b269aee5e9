import { logger } from 'firebase-functions';
import { db, bucket } from '../lib/firebase';
import { countReads } from '../lib/read-counter';
import { SEARCH_SCHEMA } from './search-index';

// The search index, stored once per catalogue version (issue 22 item 5, decision 018): a gzipped
// MiniSearch snapshot in Cloud Storage under search-index/<schema>/v<version>.json.gz, which no client can
// read (storage.rules). An instance whose index is older than meta/catalog loads the snapshot (no
// Firestore read); only the first instance to find none builds it from the catalogue, holding a
// short lease in meta/searchBuild so that a burst of cold starts does not read the catalogue N times.

const ROOT = 'search-index/';
// Each shape of the index (search-index.ts SEARCH_SCHEMA: its fields) has its own folder: during a
// deploy, old and new instances never read each other's snapshots, and a new field means a new build.
const PREFIX = `${ROOT}${SEARCH_SCHEMA}/`;
/** How long one builder may hold the lease; a crashed builder's lease simply runs out. */
export const LEASE_MS = 60_000;
/** How long, and how often, an instance without the lease looks for the builder's snapshot. */
const WAIT_MS = 20_000;
const POLL_MS = 500;

const fileFor = (version: number) => bucket().file(`${PREFIX}v${version}.json.gz`);
// One lease per shape: an old instance building its shape does not hold up a new one.
const leaseRef = () => db().collection('meta').doc(`searchBuild-${SEARCH_SCHEMA}`);

export async function readSnapshot(version: number): Promise<Buffer | null> {
  try {
    const [bytes] = await fileFor(version).download();
    return bytes;
  } catch (error) {
    if ((error as { code?: number }).code === 404) return null;
    logger.warn('Search snapshot could not be read; building from the catalogue', { version, error: String(error) });
    return null;
  }
}

/** Stores the snapshot (first writer wins) and removes older versions' snapshots, of every shape. Never throws. */
export async function writeSnapshot(version: number, bytes: Buffer): Promise<void> {
  try {
    await fileFor(version).save(bytes, { resumable: false, contentType: 'application/gzip', preconditionOpts: { ifGenerationMatch: 0 } });
  } catch (error) {
    if ((error as { code?: number }).code !== 412) logger.warn('Search snapshot could not be stored', { version, error: String(error) });
  }
  try {
    const [files] = await bucket().getFiles({ prefix: ROOT });
    const older = files.filter((f) => Number(/v(\d+)\.json\.gz$/.exec(f.name)?.[1] ?? Infinity) < version);
    await Promise.all(older.map((f) => f.delete({ ignoreNotFound: true })));
  } catch (error) {
    logger.warn('Old search snapshots could not be removed', { error: String(error) });
  }
}

/** True when this instance may build `version`'s snapshot: nobody else holds an unexpired lease on it. */
export async function takeBuildLease(version: number, now = Date.now()): Promise<boolean> {
  return db().runTransaction(async (tx) => {
    const lease = await tx.get(leaseRef());
    countReads(1);
    if (lease.get('version') === version && (lease.get('until') as number) > now) return false;
    tx.set(leaseRef(), { version, until: now + LEASE_MS });
    return true;
  });
}

/** The snapshot another instance is building, once it appears; null if it does not within WAIT_MS. */
export async function waitForSnapshot(version: number): Promise<Buffer | null> {
  for (let waited = 0; waited < WAIT_MS; waited += POLL_MS) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const bytes = await readSnapshot(version);
    if (bytes) return bytes;
  }
  return null;
}
