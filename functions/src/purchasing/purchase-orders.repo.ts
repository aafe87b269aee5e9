import {
  canMovePurchaseOrder, formatCents, purchaseOrderFromStored, toCsv,
  type PurchaseOrder, type PurchaseOrderCreate, type PurchaseOrdersPage, type PurchaseOrderStatus, type StoredPurchaseOrder, type StoredPurchaseOrderLine,
} from '@bookstore/contract';
import { FieldPath, type Query } from 'firebase-admin/firestore';
import { appendAudit, openAudit, type AuditActor } from '../admin/audit.repo';
import type { BookDoc } from '../books/book-doc';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { MAIL_COLLECTION, queued, type MailDoc } from '../lib/mail-queue';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { decodeCursor, encodeCursor } from '../lib/created-cursor';
import { booksByIsbn, purchaseOrders } from './purchasing-docs';
import { readSupplier } from './suppliers.repo';
import { paragraphsHtml } from '../lib/html';

// Purchase orders (issue 56): purchaseOrders/<auto id>, made as a draft, sent (the supplier is
// mailed the order through the shop's mail queue, in the same transaction, under `po-<id>-sent`),
// received by receipts (receipts.repo.ts counts each line's copies and moves the status on), or
// cancelled before anything came in. Statuses move only forward (contract canMovePurchaseOrder).

const mail = () => db().collection(MAIL_COLLECTION);
const $ = (cents: number) => `$${formatCents(cents)}`;

/**
 * A new draft: each line's title is the catalogue's (or the title a special order gave it, else its
 * ISBN), fixed on the order so the supplier's copy says what was asked for.
 */
export async function createPurchaseOrder(actor: AuditActor, input: PurchaseOrderCreate, titleOf: (isbn: string) => Promise<string>): Promise<PurchaseOrder> {
  const found = await booksByIsbn(input.lines.map((l) => l.isbn));
  const lines: StoredPurchaseOrderLine[] = await Promise.all(input.lines.map(async (l) => {
    const book = found.get(l.isbn);
    const title = book ? (book.data() as BookDoc).title : await titleOf(l.isbn);
    return { isbn: l.isbn, title, ...(book ? { bookId: book.id } : {}), quantity: l.quantity, unitCostCents: l.unitCost, received: 0 };
  }));
  const ref = purchaseOrders().doc();
  return db().runTransaction(async (tx) => {
    const supplier = await readSupplier(tx, input.supplierId);
    const log = await openAudit(tx);
    const now = new Date().toISOString();
    const doc: StoredPurchaseOrder = {
      supplierId: input.supplierId, supplierName: supplier.name, status: 'draft', lines,
      totalCents: lines.reduce((sum, l) => sum + l.quantity * l.unitCostCents, 0),
      ...(input.note ? { note: input.note } : {}),
      history: [{ status: 'draft', at: now, by: actor.username }], createdAt: now, updatedAt: now,
    };
    tx.create(ref, doc);
    appendAudit(log, actor, { action: 'purchase-order.create', target: `purchaseOrders/${ref.id}`, changes: { status: { before: null, after: 'draft' }, total: { before: null, after: doc.totalCents } } }, now);
    return purchaseOrderFromStored(ref.id, doc);
  });
}

/** The order as the supplier reads it: ISBN, title and quantity of each line. */
export function purchaseOrderCsv(doc: StoredPurchaseOrder): string {
  return toCsv([['ISBN', 'title', 'quantity'], ...doc.lines.map((l) => [l.isbn, l.title, String(l.quantity)])]);
}

function orderMail(id: string, doc: StoredPurchaseOrder, to: string): MailDoc {
  const subject = `Purchase order ${id.slice(0, 8).toUpperCase()}`;
  const text = [
    'Hello,',
    '',
    `Please supply the following (purchase order ${id.slice(0, 8).toUpperCase()}${doc.note ? `; ${doc.note}` : ''}):`,
    ...doc.lines.map((l) => `- ${l.quantity} x ${l.title} (ISBN ${l.isbn}) at ${$(l.unitCostCents)}`),
    '',
    `Total: ${$(doc.totalCents)}`,
    '',
    'ISBN,title,quantity',
    ...purchaseOrderCsv(doc).split('\r\n').slice(1).filter(Boolean),
  ].join('\n');
  const html = paragraphsHtml(text);
  return { to, message: { subject, text, html } };
}

/** Sends (draft -> sent, mailing the supplier when it has an address) or cancels (draft or sent -> cancelled). */
export async function movePurchaseOrder(actor: AuditActor, id: string, to: 'sent' | 'cancelled'): Promise<{ purchaseOrder: PurchaseOrder; mailed: boolean }> {
  const ref = purchaseOrders().doc(id);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    const doc = snap.data() as StoredPurchaseOrder | undefined;
    if (!doc) throw new HttpError(404, 'Purchase order not found');
    if (!canMovePurchaseOrder(doc.status, to) || (to === 'sent' && doc.status !== 'draft')) {
      throw new HttpError(409, `A purchase order that is ${doc.status} cannot be ${to}`, { code: 'INVALID_TRANSITION', status: doc.status });
    }
    const supplier = to === 'sent' ? await readSupplier(tx, doc.supplierId) : null;
    const log = await openAudit(tx);
    const now = new Date().toISOString();
    const next: StoredPurchaseOrder = { ...doc, status: to, updatedAt: now, history: [...doc.history, { status: to, at: now, by: actor.username }] };
    tx.set(ref, next);
    const mailed = Boolean(supplier?.email);
    if (supplier?.email) tx.create(mail().doc(`po-${id}-sent`), queued(orderMail(id, next, supplier.email)));
    appendAudit(log, actor, { action: to === 'sent' ? 'purchase-order.send' : 'purchase-order.cancel', target: `purchaseOrders/${id}`, changes: { status: { before: doc.status, after: to } } }, now);
    return { purchaseOrder: purchaseOrderFromStored(id, next), mailed };
  });
}

export async function readPurchaseOrder(id: string): Promise<StoredPurchaseOrder | null> {
  const snap = await purchaseOrders().doc(id).get();
  countReads(1);
  return (snap.data() as StoredPurchaseOrder | undefined) ?? null;
}

/** Newest first, optionally of one status (index: status, createdAt desc, id desc). */
export async function pageOfPurchaseOrders(status: PurchaseOrderStatus | undefined, limit: number, cursor?: string): Promise<PurchaseOrdersPage> {
  let query: Query = purchaseOrders();
  if (status) query = query.where('status', '==', status);
  query = query.orderBy('createdAt', 'desc').orderBy(FieldPath.documentId(), 'desc');
  const after = cursor ? decodeCursor(cursor) : undefined;
  if (after) query = query.startAfter(after.createdAt, after.id);
  const snap = await runQuery(query.limit(limit));
  const list = snap.docs.map((d) => purchaseOrderFromStored(d.id, d.data() as StoredPurchaseOrder));
  const last = list[list.length - 1];
  return { purchaseOrders: list, nextCursor: last && list.length === limit ? encodeCursor({ createdAt: last.createdAt, id: last._id }) : null };
}

/** Open orders (not yet all in): what they still bring, by ISBN (the reorder suggestions subtract it). */
export async function copiesOnOrder(): Promise<Map<string, number>> {
  const snap = await runQuery(purchaseOrders().where('status', 'in', ['draft', 'sent', 'partially_received']));
  const out = new Map<string, number>();
  for (const d of snap.docs) {
    for (const l of (d.data() as StoredPurchaseOrder).lines) out.set(l.isbn, (out.get(l.isbn) ?? 0) + Math.max(0, l.quantity - l.received));
  }
  return out;
}
