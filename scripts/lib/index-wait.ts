// Waiting for Firestore's composite indexes after `firebase deploy --only firestore:indexes`.
// The deploy only *creates* the indexes; Firestore then builds them for minutes, and every query
// that needs one answers FAILED_PRECONDITION (our 500) until it is READY. So `npm run deploy` polls
// the Firestore Admin API's index list between the index push and the release of the code that
// queries them (docs/decisions/017-deploy-order.md). Everything here is pure: the list, the clock
// and the sleep are injected, and index-wait.test.ts replays recorded API answers on a fake clock.

/** One entry of firestore.indexes.json's `indexes` (the firebase CLI's spec format). */
export interface IndexSpec {
  collectionGroup: string;
  queryScope?: string;
  apiScope?: string;
  fields: IndexField[];
}

export interface IndexField {
  fieldPath: string;
  order?: string;
  arrayConfig?: string;
  vectorConfig?: unknown;
}

/**
 * An index as the Firestore Admin API lists it (GET v1/projects/{p}/databases/(default)/
 * collectionGroups/-/indexes answers `{ indexes: ApiIndex[] }`): the collection group is only in
 * `name`, and the fields end with the implicit `__name__` field.
 */
export interface ApiIndex {
  name: string;
  queryScope?: string;
  apiScope?: string;
  fields?: IndexField[];
  /** CREATING, READY or NEEDS_REPAIR (Firestore; Datastore mode also says ERROR). */
  state?: string;
  density?: string;
}

export type IndexStatus = 'READY' | 'CREATING' | 'MISSING' | 'FAILED';

export interface IndexProgress {
  spec: IndexSpec;
  label: string;
  status: IndexStatus;
  /** The API's own word for it (e.g. NEEDS_REPAIR), when the index exists. */
  state?: string;
}

/** The composite indexes firestore.indexes.json declares (field overrides and TTL policies are not waited for: they do not fail queries). */
export function indexSpecs(indexesJson: string): IndexSpec[] {
  return ((JSON.parse(indexesJson) as { indexes?: IndexSpec[] }).indexes ?? []).filter((index) => index.fields.length > 0);
}

/** `books (category ASC, newestKey DESC)`: how an operator finds it in the console. */
export function indexLabel(spec: IndexSpec): string {
  const fields = spec.fields.map((f) => `${f.fieldPath} ${f.order === 'DESCENDING' ? 'DESC' : f.order === 'ASCENDING' ? 'ASC' : f.arrayConfig ? 'CONTAINS' : 'VECTOR'}`);
  const scope = spec.queryScope === 'COLLECTION_GROUP' ? ' [collection group]' : '';
  return `${spec.collectionGroup}${scope} (${fields.join(', ')})`;
}

const COLLECTION_GROUP = /\/collectionGroups\/([^/]+)\/indexes\//;

/** The same comparison firebase-tools makes when it deploys (FirestoreApi.indexMatchesSpec), minus the parts our spec never sets. */
export function indexMatches(index: ApiIndex, spec: IndexSpec): boolean {
  if (COLLECTION_GROUP.exec(index.name)?.[1] !== spec.collectionGroup) return false;
  if ((index.queryScope ?? 'COLLECTION') !== (spec.queryScope ?? 'COLLECTION')) return false;
  if (spec.apiScope && (index.apiScope ?? 'ANY_API') !== spec.apiScope) return false;
  // Firestore appends `__name__` (in the last field's direction) unless the spec names it itself.
  let fields = index.fields ?? [];
  const last = fields[fields.length - 1];
  if (last?.fieldPath === '__name__' && spec.fields[spec.fields.length - 1]?.fieldPath !== '__name__') fields = fields.slice(0, -1);
  if (fields.length !== spec.fields.length) return false;
  return fields.every((f, i) => {
    const s = spec.fields[i]!;
    return f.fieldPath === s.fieldPath && f.order === s.order && f.arrayConfig === s.arrayConfig && JSON.stringify(f.vectorConfig) === JSON.stringify(s.vectorConfig);
  });
}

/** Each declared index and where the API says it stands. */
export function indexProgress(specs: IndexSpec[], listed: ApiIndex[]): IndexProgress[] {
  return specs.map((spec) => {
    const label = indexLabel(spec);
    const matches = listed.filter((index) => indexMatches(index, spec));
    if (matches.length === 0) return { spec, label, status: 'MISSING' };
    // Two matches only happen while a deleted copy lingers: the best one decides.
    const state = matches.find((m) => m.state === 'READY')?.state ?? matches.find((m) => m.state === 'CREATING' || !m.state || m.state === 'STATE_UNSPECIFIED')?.state ?? matches[0]!.state;
    if (state === 'READY') return { spec, label, status: 'READY', state };
    if (!state || state === 'CREATING' || state === 'STATE_UNSPECIFIED') return { spec, label, status: 'CREATING', state: state ?? 'STATE_UNSPECIFIED' };
    return { spec, label, status: 'FAILED', state };
  });
}

export interface WaitOptions {
  projectId: string;
  specs: IndexSpec[];
  /** The Admin API's index list (firestore-index-api.ts); throws when it cannot be read. */
  list: () => Promise<ApiIndex[]>;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  log: (line: string) => void;
  timeoutMs: number;
  pollMs: number;
  /** How long a declared index may be absent from the list before the wait gives up on it (the list can lag the deploy by a few seconds). */
  missingGraceMs?: number;
  /** Consecutive failed list calls tolerated (a network blip) before giving up. */
  maxListFailures?: number;
}

export type WaitResult =
  | { ok: true; polls: number; elapsedMs: number }
  | { ok: false; reason: 'timeout' | 'failed' | 'missing' | 'unreadable'; polls: number; elapsedMs: number; message: string[] };

/** The commands a stopped wait tells the operator about. */
export function resumeCommands(projectId: string): { watch: string; console: string; resume: string; skip: string; redeploy: string } {
  return {
    watch: `npx firebase firestore:indexes --pretty --project ${projectId}`,
    console: `https://console.firebase.google.com/project/${projectId}/firestore/databases/-default-/indexes`,
    resume: `npm run deploy -- --project ${projectId} --from index-wait`,
    skip: `npm run deploy -- --project ${projectId} --from extensions`,
    redeploy: `npm run deploy -- --project ${projectId}`,
  };
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** Polls until every declared index is READY; stops early on a failed or missing index, or at the timeout. Never throws. */
export async function waitForIndexes(options: WaitOptions): Promise<WaitResult> {
  const { specs, log, now, sleep, timeoutMs, pollMs, projectId } = options;
  const missingGraceMs = options.missingGraceMs ?? 60_000;
  const maxListFailures = options.maxListFailures ?? 3;
  const commands = resumeCommands(projectId);
  const started = now();
  let polls = 0;
  let listFailures = 0;
  let lastSummary = '';
  const notReleased = 'Rules, indexes and Storage rules are deployed; the extension, the functions and Hosting are not (the live site still runs the previous release).';

  for (;;) {
    const elapsedMs = now() - started;
    let listed: ApiIndex[];
    polls++;
    try {
      listed = await options.list();
      listFailures = 0;
    } catch (error) {
      listFailures++;
      const why = error instanceof Error ? error.message : String(error);
      if (listFailures >= maxListFailures) {
        return {
          ok: false,
          reason: 'unreadable',
          polls,
          elapsedMs,
          message: [`The index list could not be read ${listFailures} times in a row: ${why}`, notReleased, `Check your login and network (${commands.watch}), then resume: ${commands.resume}`],
        };
      }
      log(`  could not read the index list (${why}); trying again`);
      await sleep(pollMs);
      continue;
    }

    const progress = indexProgress(specs, listed);
    const count = (status: IndexStatus) => progress.filter((p) => p.status === status);
    const failed = count('FAILED');
    if (failed.length > 0) {
      return {
        ok: false,
        reason: 'failed',
        polls,
        elapsedMs,
        message: [
          `${failed.length} composite index${failed.length > 1 ? 'es' : ''} failed to build:`,
          ...failed.map((p) => `  ${p.state} ${p.label}`),
          notReleased,
          `Firestore says why in ${commands.console}. Delete the failed index there (its data cannot be repaired in place), then run the whole deploy again, which re-creates it: ${commands.redeploy}`,
        ],
      };
    }
    const missing = count('MISSING');
    if (missing.length > 0 && elapsedMs >= missingGraceMs) {
      return {
        ok: false,
        reason: 'missing',
        polls,
        elapsedMs,
        message: [
          `${missing.length} composite index${missing.length > 1 ? 'es' : ''} of firestore.indexes.json ${missing.length > 1 ? 'do' : 'does'} not exist in the project:`,
          ...missing.map((p) => `  MISSING ${p.label}`),
          notReleased,
          `The index deploy did not create ${missing.length > 1 ? 'them' : 'it'}: run the whole deploy again (${commands.redeploy}) and read the firestore lines of its output.`,
        ],
      };
    }
    const ready = count('READY').length;
    if (ready === specs.length) {
      log(`  all ${specs.length} composite indexes READY after ${formatDuration(elapsedMs)}`);
      return { ok: true, polls, elapsedMs };
    }
    const creating = count('CREATING').length;
    const summary = `  ${ready} of ${specs.length} READY, ${creating} CREATING${missing.length > 0 ? `, ${missing.length} not listed yet` : ''}`;
    if (summary !== lastSummary) log(`${summary} (${formatDuration(elapsedMs)})`);
    lastSummary = summary;

    if (elapsedMs + pollMs > timeoutMs) {
      const waiting = progress.filter((p) => p.status !== 'READY');
      return {
        ok: false,
        reason: 'timeout',
        polls,
        elapsedMs,
        message: [
          `Stopped waiting after ${formatDuration(elapsedMs)}: ${waiting.length} of ${specs.length} composite indexes are not READY yet:`,
          ...waiting.map((p) => `  ${p.status === 'MISSING' ? 'MISSING' : p.state} ${p.label}`),
          notReleased,
          `Follow the build: ${commands.watch} (or ${commands.console}).`,
          `Resume once they are READY (waits again, then releases the rest): ${commands.resume}`,
          `Or release now and accept 500s on the queries that need them until they are READY: ${commands.skip}`,
        ],
      };
    }
    await sleep(pollMs);
  }
}
