import type { AuditAction, AuditEvent, AuditPage, AuditQuery, FieldChange, Role } from '@bookstore/contract';
import type { Query, Transaction, WriteBatch } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { runQuery } from '../lib/queries';

// The audit log, audit/<auto id>: one event per admin write, ALWAYS added to the same transaction
// or batch as the write it describes (so a change without its event, or an event without its
// change, cannot be committed). Server-only (firestore.rules), read through GET /api/admin/audit.

export const audit = () => db().collection('audit');

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

/** Adds the event to `writer`; it commits with the change or not at all. */
export function appendAudit(writer: Transaction | WriteBatch, actor: AuditActor, entry: AuditEntry, at = new Date().toISOString()): void {
  const doc: AuditDoc = { actor: actor.username, role: actor.role, action: entry.action, target: entry.target, at, changes: entry.changes ?? {} };
  // Transaction.create and WriteBatch.create have the same shape; TypeScript cannot unify the overloads.
  (writer as WriteBatch).create(audit().doc(), doc);
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
  return {
    events: docs.map((doc) => ({ id: doc.id, ...(doc.data() as AuditDoc) })),
    nextCursor: snap.docs.length > query.limit && last ? encodeCursor((last.data() as AuditDoc).at, last.id) : null,
  };
}
