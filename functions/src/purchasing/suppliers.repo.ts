import { supplierFromStored, type StoredSupplier, type Supplier, type SupplierCreate, type SupplierPatch } from '@bookstore/contract';
import { FieldPath, type Query, type Transaction } from 'firebase-admin/firestore';
import { appendAudit, changedFields, openAudit, type AuditActor } from '../admin/audit.repo';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { decodeCursor, encodeCursor } from '../lib/created-cursor';
import { fieldError, suppliers } from './purchasing-docs';

// Suppliers (issue 56): suppliers/<auto id>, created and edited by owners and managers, each
// change one audit event in its transaction.

const FIELDS = ['name', 'email', 'accountNumber', 'returnsWindowDays', 'notes'] as const;
/** Firestore refuses undefined: a field left out is not stored. */
const defined = <T extends object>(value: T) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

export async function createSupplier(actor: AuditActor, input: SupplierCreate): Promise<Supplier> {
  const ref = suppliers().doc();
  return db().runTransaction(async (tx) => {
    const log = await openAudit(tx);
    const now = new Date().toISOString();
    const doc: StoredSupplier = { ...defined(input), createdAt: now, updatedAt: now };
    tx.create(ref, doc);
    appendAudit(log, actor, { action: 'supplier.create', target: `suppliers/${ref.id}`, changes: changedFields(null, doc as unknown as Record<string, unknown>, FIELDS) }, now);
    return supplierFromStored(ref.id, doc);
  });
}

/** PATCH: the fields given replace the stored ones (an empty optional text clears it). */
export async function patchSupplier(actor: AuditActor, id: string, patch: SupplierPatch): Promise<Supplier> {
  const ref = suppliers().doc(id);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    const before = snap.data() as StoredSupplier | undefined;
    if (!before) throw new HttpError(404, 'Supplier not found');
    const log = await openAudit(tx);
    const now = new Date().toISOString();
    const merged: Record<string, unknown> = { ...before };
    for (const field of FIELDS) {
      if (!(field in patch)) continue;
      const value = patch[field];
      if (value === undefined) delete merged[field];
      else merged[field] = value;
    }
    const after = { ...merged, updatedAt: now } as unknown as StoredSupplier;
    const changes = changedFields(before as unknown as Record<string, unknown>, after as unknown as Record<string, unknown>, FIELDS);
    if (Object.keys(changes).length === 0) return supplierFromStored(id, before);
    tx.set(ref, after);
    appendAudit(log, actor, { action: 'supplier.update', target: `suppliers/${id}`, changes }, now);
    return supplierFromStored(id, after);
  });
}

/** Newest first, a page at a time (cursor: the last one's createdAt and id). */
export async function pageOfSuppliers(limit: number, cursor?: string): Promise<{ suppliers: Supplier[]; nextCursor: string | null }> {
  let query: Query = suppliers().orderBy('createdAt', 'desc').orderBy(FieldPath.documentId(), 'desc');
  const after = cursor ? decodeCursor(cursor) : undefined;
  if (after) query = query.startAfter(after.createdAt, after.id);
  const snap = await runQuery(query.limit(limit));
  const list = snap.docs.map((d) => supplierFromStored(d.id, d.data() as StoredSupplier));
  const last = list[list.length - 1];
  return { suppliers: list, nextCursor: last && list.length === limit ? encodeCursor({ createdAt: last.createdAt, id: last._id }) : null };
}

/** The supplier a request names, read in `tx`; an unknown one is the request's mistake (422 naming `field`). */
export async function readSupplier(tx: Transaction, id: string, field = 'supplierId'): Promise<StoredSupplier> {
  const snap = await tx.get(suppliers().doc(id));
  countReads(1);
  const doc = snap.data() as StoredSupplier | undefined;
  if (!doc) throw fieldError(field, 'Unknown supplier', 'UNKNOWN_SUPPLIER');
  return doc;
}
