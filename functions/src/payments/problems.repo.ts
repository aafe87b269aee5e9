import { fromCents, paymentFromStored, storedPaymentOf, type PaymentProblemEntry, type PaymentProblemsPage } from '@bookstore/contract';
import { FieldPath } from 'firebase-admin/firestore';
import { appendAudit, openAudit, type AuditActor } from '../admin/audit.repo';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { runCount, runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { updateOrder } from '../orders/order-writes';
import { orderFromDoc, orders, type OrderDoc } from '../orders/orders.repo';
import { busy, TX_OPTIONS } from '../lib/transactions';
import { decodeCursor, encodeCursor } from '../lib/created-cursor';
import type { Order } from '@bookstore/contract';

// The payment problems queue (issue 54): every order whose payment has an open problem (paid after
// a cancel, paid twice, an amount not the order's, a dispute, a refund that failed), newest first.
// The order's own `problemOpenAt` (kept by the order's one write path, order-writes.ts) is the
// queue: one single-field index, one page query, and a count; nothing here grows with the orders.

const entryOf = (id: string, doc: OrderDoc): PaymentProblemEntry => {
  const payment = paymentFromStored(storedPaymentOf(doc));
  return {
    orderId: id,
    email: doc.email,
    name: doc.name,
    status: doc.status,
    totalPrice: fromCents(doc.totalCents),
    payment: { status: payment.status, ...(payment.paid !== undefined ? { paid: payment.paid } : {}), refunded: payment.refunded },
    problem: doc.payment!.problem!,
    ...(payment.dispute ? { dispute: payment.dispute } : {}),
  };
};

export async function problemsPage(limit: number, cursor?: string): Promise<PaymentProblemsPage> {
  let query = orders().orderBy('problemOpenAt', 'desc').orderBy(FieldPath.documentId(), 'desc');
  const after = cursor ? decodeCursor(cursor) : undefined;
  if (after) query = query.startAfter(after.createdAt, after.id);
  const [snap, count] = await Promise.all([runQuery(query.limit(limit)), runCount(orders().where('problemOpenAt', '>', ''))]);
  const problems = snap.docs.filter((d) => (d.data() as OrderDoc).payment?.problem).map((d) => entryOf(d.id, d.data() as OrderDoc));
  const last = snap.docs[snap.docs.length - 1];
  return {
    problems,
    nextCursor: last && snap.docs.length === limit ? encodeCursor({ createdAt: String(last.get('problemOpenAt')), id: last.id }) : null,
    count,
  };
}

/** How many orders are on the queue (the overview's figure). */
export const openProblemCount = () => runCount(orders().where('problemOpenAt', '>', ''));

/**
 * Staff settled a problem outside the shop (a second payment refunded in Stripe, an amount settled
 * with the customer): off the queue, kept on the order with the note; audited.
 */
export async function resolveProblem(orderId: string, note: string, actor: AuditActor): Promise<Order> {
  const ref = orders().doc(orderId);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    const doc = snap.data() as OrderDoc | undefined;
    if (!doc) throw new HttpError(404, 'Order not found');
    const problem = doc.payment?.problem;
    if (!problem || problem.resolvedAt) throw new HttpError(409, 'This order has no open payment problem', { code: 'NO_PROBLEM' });
    // An open dispute is settled by Stripe's decision, not by staff.
    if (problem.code === 'DISPUTED') throw new HttpError(409, 'A dispute is settled when Stripe closes it (won or lost)', { code: 'DISPUTE_OPEN' });
    const log = await openAudit(tx);
    const at = new Date().toISOString();
    const payment = { ...doc.payment!, problem: { ...problem, done: `${problem.done ? `${problem.done} ` : ''}Settled by staff: ${note}`, resolvedAt: at } };
    updateOrder(tx, ref, { payment, updatedAt: at });
    appendAudit(log, actor, { action: 'order.payment-problem', target: `orders/${orderId}`, changes: { problem: { before: problem.code, after: null }, note: { before: null, after: note } } }, at);
    return orderFromDoc(orderId, { ...doc, payment, updatedAt: at });
  }, TX_OPTIONS).catch(busy);
}
