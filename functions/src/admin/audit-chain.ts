import { createHash } from 'node:crypto';

// The audit log's hash chain (issue 36): every event carries `seq` (its place in the log, 1, 2, 3,
// ...), `prevHash` (the hash of event seq - 1; GENESIS for the first) and `hash`, a SHA-256 over
// its own fields and prevHash. The head document (meta/auditHead: the last seq and hash) is read
// and rewritten in the same transaction as every append, so two appends never take one seq, and an
// edit, a deletion or a reordering shows when the chain is walked (verifyChain, `npm run audit:verify`).
// Pure functions: the function, the command-line tools and the tests share them.

export const GENESIS_HASH = '0'.repeat(64);

/** The fields an event's hash covers, as stored. */
export interface ChainedFields {
  seq: number;
  prevHash: string;
  actor: string;
  role: string;
  action: string;
  target: string;
  at: string;
  changes: Record<string, unknown>;
}

/** JSON with every object's keys sorted: the same value always gives the same text (Firestore does not keep key order). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function eventHash(fields: ChainedFields): string {
  const { seq, prevHash, actor, role, action, target, at, changes } = fields;
  return createHash('sha256').update(canonicalJson({ seq, prevHash, actor, role, action, target, at, changes })).digest('hex');
}

/** What the head document holds: the newest event's place and hash (seq 0 and GENESIS before any). */
export interface ChainHead {
  seq: number;
  hash: string;
}

export const EMPTY_HEAD: ChainHead = { seq: 0, hash: GENESIS_HASH };

/** A stored event as the walk reads it; `createdAt`, when known, is Firestore's own create time (ISO). */
export type StoredEvent = Partial<ChainedFields> & { id: string; hash?: string; createdAt?: string };

export interface ChainReport {
  ok: boolean;
  /** Chained events walked. */
  checked: number;
  head: ChainHead;
  problems: string[];
}

/**
 * Walks chained events in `seq` order and says what does not hold: a gap (a deleted event), a
 * repeated seq, an event whose hash is not of its own fields (edited), one whose prevHash is not its
 * predecessor's hash (a deletion or insertion repaired by hand), and a head that is not the last
 * event (the newest deleted). Each anchor, a (seq, hash) seen earlier outside Firestore (a log line,
 * an earlier run, the daily anchors of audit-anchor.ts), must still be in the chain: a rewrite of
 * the whole tail cannot pass it.
 */
export async function verifyChain(events: AsyncIterable<StoredEvent> | Iterable<StoredEvent>, head: ChainHead, anchor?: ChainHead | readonly ChainHead[]): Promise<ChainReport> {
  const problems: string[] = [];
  let last: ChainHead = EMPTY_HEAD;
  let checked = 0;
  // seq -> the hashes anchored for it (two anchors of one seq that differ cannot both hold).
  const unseen = new Map<number, string[]>();
  for (const a of anchor === undefined ? [] : Array.isArray(anchor) ? anchor : [anchor as ChainHead]) {
    if (a.seq > 0) unseen.set(a.seq, [...(unseen.get(a.seq) ?? []), a.hash]);
  }
  for await (const event of events) {
    checked += 1;
    const seq = event.seq ?? NaN;
    const where = `event ${seq} (audit/${event.id})`;
    if (seq === last.seq) problems.push(`${where}: a second event with this seq`);
    else if (seq > last.seq + 1) problems.push(`events ${last.seq + 1}-${seq - 1} are missing (deleted) before ${where}`);
    if (event.prevHash !== last.hash) problems.push(`${where}: its prevHash is not the hash of event ${last.seq} (an event before it was removed, replaced or reordered)`);
    const recomputed = eventHash({
      seq, prevHash: event.prevHash ?? '', actor: event.actor ?? '', role: event.role ?? '', action: event.action ?? '', target: event.target ?? '', at: event.at ?? '', changes: event.changes ?? {},
    });
    if (recomputed !== event.hash) problems.push(`${where}: its fields do not match its hash (edited)`);
    const anchored = unseen.get(seq);
    if (anchored) {
      unseen.delete(seq);
      for (const hash of anchored) if (event.hash !== hash) problems.push(`${where}: not the event anchored as ${hash} (the chain was rewritten from here or before)`);
    }
    last = { seq, hash: event.hash ?? '' };
  }
  if (head.seq !== last.seq || head.hash !== last.hash) {
    problems.push(`the head (meta/auditHead) says event ${head.seq} is the newest, the log ends at ${last.seq}${head.seq > last.seq ? ' (the newest events were deleted)' : ''}`);
  }
  for (const seq of unseen.keys()) problems.push(`the anchored event ${seq} is not in the log`);
  return { ok: problems.length === 0, checked, head, problems };
}

/** An event without `seq`, as the scan for them reads it. */
export interface UnchainedEvent {
  id: string;
  /** Firestore's create time (ISO), which no writer chooses; absent where the database does not say. */
  createdAt?: string;
  /** The event's own `at`, what its writer said (used only where createdAt is absent). */
  at?: unknown;
}

/**
 * Events without their place in the chain (issue 55). Every event the shop has written since the
 * chain began has `seq`; one without it written after that (Firestore's create time, which the
 * writer cannot choose, later than the chain's first event's) was written around the shop, with
 * the project's credentials: a forgery, named as a problem. Those from before the chain are counted
 * (`before`), not checkable. Where the database gives no create time, the event's own `at` decides,
 * and an event with neither cannot be placed before the chain, so it is a problem too.
 */
export function unchainedProblems(events: readonly UnchainedEvent[], chainStart: string | undefined): { before: number; problems: string[] } {
  let before = 0;
  const problems: string[] = [];
  for (const event of events) {
    const when = event.createdAt ?? (typeof event.at === 'string' ? event.at : undefined);
    if (chainStart === undefined || (when !== undefined && when < chainStart)) before += 1;
    else problems.push(`audit/${event.id}: written ${when ?? 'at an unknown time'} without its place in the chain (no seq), after the chain began (${chainStart}): not written by the shop`);
  }
  return { before, problems };
}
