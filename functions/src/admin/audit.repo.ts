import type { AuditAction, AuditEvent, AuditPage, AuditQuery, FieldChange, Role } from '@bookstore/contract';
import { FieldPath, type Firestore, type Query, type QueryDocumentSnapshot, type Timestamp, type Transaction } from 'firebase-admin/firestore';
import { logger } from 'firebase-functions/logger';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { EMPTY_HEAD, eventHash, unchainedProblems, verifyChain, type ChainHead, type ChainReport, type StoredEvent, type UnchainedEvent } from './audit-chain';

// The audit log, audit/<auto id>: one event per admin write, ALWAYS added to the same transaction
// as the write it describes (so a change without its event, or an event without its change, cannot
// be committed). Server-only (firestore.rules), read through GET /api/admin/audit.
// Events form a hash chain (audit-chain.ts): a transaction that writes events first reads the
// chain's head (openAudit, before its writes, as Firestore transactions require) and moves it on
// with each event, so concurrent appends serialise on the head and never fork the chain.

export const audit = (firestore: Firestore = db()) => firestore.collection('audit');
export const auditHeadRef = (firestore: Firestore = db()) => firestore.collection('meta').doc('auditHead');

/** Who acts: the staff member from the request's session (lib/auth.ts). */
export interface AuditActor {
  username: string;
  role: Role;
}

export interface AuditEntry {
  action: AuditAction;
  target: string;
  changes?: Record<string, FieldChange>;
}

type AuditDoc = Omit<AuditEvent, 'id'>;

/** JSON-safe: Firestore refuses `undefined`, so a missing value is stored as null. */
const clean = (value: unknown) => (value === undefined ? null : value);

/** The fields whose values differ between `before` and `after` (compared as JSON). */
export function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown> | null, fields: readonly string[]): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const field of fields) {
    const a = clean(before?.[field]);
    const b = clean(after?.[field]);
    if (JSON.stringify(a) !== JSON.stringify(b)) changes[field] = { before: a, after: b };
  }
  return changes;
}

/** A transaction's handle on the chain: appends events after its head, in order. */
export interface AuditLog {
  readonly tx: Transaction;
  /** The head as it will be after this transaction's appends. */
  readonly head: ChainHead;
}

const logs = new WeakMap<AuditLog, { firestore: Firestore; head: ChainHead }>();

/**
 * Reads the chain's head in `tx`: call it with the transaction's other reads, before any write.
 * The head is then part of the transaction, so a concurrent append makes one of the two retry.
 */
export async function openAudit(tx: Transaction, firestore: Firestore = db()): Promise<AuditLog> {
  const snap = await tx.get(auditHeadRef(firestore));
  countReads(1);
  const stored = snap.data() as Partial<ChainHead> | undefined;
  const state = { firestore, head: typeof stored?.seq === 'number' && typeof stored.hash === 'string' ? { seq: stored.seq, hash: stored.hash } : EMPTY_HEAD };
  const log: AuditLog = {
    tx,
    get head() {
      return state.head;
    },
  };
  logs.set(log, state);
  return log;
}

/** Adds the event to the log's transaction, after the head; it commits with the change or not at all. */
export function appendAudit(log: AuditLog, actor: AuditActor, entry: AuditEntry, at = new Date().toISOString()): void {
  appendAudits(log, actor, [entry], at);
}

/**
 * Adds the events in order, and moves the head once: n + 1 writes (a write path that audits up to
 * 140 books in one transaction stays within Firestore's 500 writes per commit).
 */
export function appendAudits(log: AuditLog, actor: AuditActor, entries: readonly AuditEntry[], at = new Date().toISOString()): void {
  const state = logs.get(log);
  if (!state) throw new Error('appendAudit needs a log from openAudit');
  let last: { seq: number; hash: string; id: string } | undefined;
  for (const entry of entries) {
    // Stored exactly as hashed: JSON values only (undefined dropped), so the walk recomputes the same hash.
    const body = JSON.parse(JSON.stringify({ actor: actor.username, role: actor.role, action: entry.action, target: entry.target, at, changes: entry.changes ?? {} })) as Omit<AuditDoc, 'seq' | 'prevHash' | 'hash'>;
    const seq = state.head.seq + 1;
    const prevHash = state.head.hash;
    const hash = eventHash({ ...body, seq, prevHash });
    const ref = audit(state.firestore).doc();
    log.tx.create(ref, { ...body, seq, prevHash, hash } satisfies AuditDoc);
    state.head = { seq, hash };
    last = { seq, hash, id: ref.id };
  }
  if (last) log.tx.set(auditHeadRef(state.firestore), { ...last, at });
}

/** A transaction whose only write is one event (a sign-in, an export): the head and the event. */
export async function recordAudit(actor: AuditActor, entry: AuditEntry): Promise<void> {
  const head = await db().runTransaction(async (tx) => {
    const log = await openAudit(tx);
    appendAudit(log, actor, entry);
    return log.head;
  });
  logChainHead(head);
}

/**
 * The head after a commit, in the function's log (Cloud Logging, outside Firestore): a witness an
 * operator can give `npm run audit:verify -- --anchor <seq>:<hash>`, which a rewrite of the whole
 * chain by someone holding Firestore credentials cannot match.
 */
export function logChainHead(head: ChainHead): void {
  logger.info('audit chain head', { auditSeq: head.seq, auditHash: head.hash });
}

/** Firestore's create time of a document, ISO; undefined where the database does not give one. */
const createdAt = (doc: { createTime?: Timestamp }): string | undefined => doc.createTime?.toDate().toISOString();

/** Chained events in seq order, a page at a time. */
async function* chainedEvents(firestore: Firestore, pageSize = 500): AsyncGenerator<StoredEvent> {
  let after: QueryDocumentSnapshot | undefined;
  for (;;) {
    let query = audit(firestore).orderBy('seq').limit(pageSize);
    if (after) query = query.startAfter(after);
    const snap = await query.get();
    for (const doc of snap.docs) yield { id: doc.id, ...(doc.data() as Omit<StoredEvent, 'id'>), createdAt: createdAt(doc) };
    if (snap.size < pageSize) return;
    after = snap.docs[snap.size - 1];
  }
}

/** Every event without `seq` (only `seq` and `at` read), by id, a page at a time. */
async function unchainedEvents(firestore: Firestore, pageSize = 1000): Promise<UnchainedEvent[]> {
  const found: UnchainedEvent[] = [];
  let after: QueryDocumentSnapshot | undefined;
  for (;;) {
    let query = audit(firestore).select('seq', 'at').orderBy(FieldPath.documentId()).limit(pageSize);
    if (after) query = query.startAfter(after);
    const snap = await query.get();
    for (const doc of snap.docs) if (doc.get('seq') === undefined) found.push({ id: doc.id, createdAt: createdAt(doc), at: doc.get('at') });
    if (snap.size < pageSize) return found;
    after = snap.docs[snap.size - 1];
  }
}

/**
 * Walks the whole chain (an operator's tool: reads every chained event once, and `seq` and `at` of
 * every event), and names what does not hold: the chain's own problems (verifyChain) and any event
 * written without its place in it after it began (unchainedProblems, issue 55).
 */
export async function verifyAuditLog(firestore: Firestore = db(), anchor?: ChainHead | readonly ChainHead[]): Promise<ChainReport & { unchained: number }> {
  const headSnap = await auditHeadRef(firestore).get();
  const stored = headSnap.data() as Partial<ChainHead> | undefined;
  const head = typeof stored?.seq === 'number' && typeof stored.hash === 'string' ? { seq: stored.seq, hash: stored.hash } : EMPTY_HEAD;
  // The chain began at the earliest create time of its events and its head (an event deleted and
  // written again, or the head, cannot move it later than another's).
  let chainStart: string | undefined;
  const earliest = (when: string | undefined) => {
    if (when !== undefined && (chainStart === undefined || when < chainStart)) chainStart = when;
  };
  async function* noting(events: AsyncIterable<StoredEvent>) {
    for await (const event of events) {
      earliest(event.createdAt ?? event.at);
      yield event;
    }
  }
  const report = await verifyChain(noting(chainedEvents(firestore)), head, anchor);
  if (headSnap.exists) earliest(createdAt(headSnap) ?? (headSnap.get('at') as string | undefined));
  // Events from before the chain cannot be checked: counted, not hidden. Any other is a problem.
  const unchained = unchainedProblems(await unchainedEvents(firestore), chainStart);
  const problems = [...report.problems, ...unchained.problems];
  return { ...report, ok: problems.length === 0, problems, unchained: unchained.before };
}

// Cursor: url-safe base64 of [at, id] of the page's last event; the query resumes after it in
// (at desc, id desc) order, so events written meanwhile never shift a page.
function encodeCursor(at: string, id: string): string {
  return Buffer.from(JSON.stringify([at, id])).toString('base64url');
}

function decodeCursor(token: string): [string, string] {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string' && v.length > 0 && v.length < 200)) {
      return value as [string, string];
    }
  } catch {
    /* answered below */
  }
  throw new HttpError(400, 'cursor is not valid', { details: { cursor: ['cursor is not valid'] } });
}

/** Newest first; `actor` and `action` filter by equality (composite indexes in firestore.indexes.json). */
export async function auditPage(query: AuditQuery): Promise<AuditPage> {
  let q: Query = audit();
  if (query.actor) q = q.where('actor', '==', query.actor);
  if (query.action) q = q.where('action', '==', query.action);
  q = q.orderBy('at', 'desc').orderBy('__name__', 'desc');
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  // startAfter is the real cursor; the range filter (same index) and the filter below keep pages
  // right on the npm Firestore stand-in too, which ignores cursors (as orders.repo.ts pageOf does).
  if (after) q = q.where('at', '<=', after[0]).startAfter(after[0], audit().doc(after[1]));
  const snap = await runQuery(q.limit(query.limit + 1));
  const newer = (at: string, id: string) => after && (at > after[0] || (at === after[0] && id >= after[1]));
  const docs = snap.docs.filter((d) => !newer((d.data() as AuditDoc).at, d.id)).slice(0, query.limit);
  const last = docs[docs.length - 1];
  // An event without its place in the chain written after the chain began is flagged (issue 55):
  // the shop never writes one, so someone wrote it around the shop. One more read, only then.
  const loose = docs.filter((doc) => doc.get('seq') === undefined);
  const head = loose.length > 0 ? await auditHeadRef().get() : undefined;
  const chainStart = head?.exists ? (createdAt(head) ?? '') : undefined;
  const outOfChain = new Set(loose.filter((doc) => unchainedProblems([{ id: doc.id, createdAt: createdAt(doc), at: doc.get('at') }], chainStart).problems.length > 0).map((doc) => doc.id));
  return {
    events: docs.map((doc) => ({ id: doc.id, ...(doc.data() as AuditDoc), ...(outOfChain.has(doc.id) ? { outOfChain: true as const } : {}) })),
    nextCursor: snap.docs.length > query.limit && last ? encodeCursor((last.data() as AuditDoc).at, last.id) : null,
  };
}
