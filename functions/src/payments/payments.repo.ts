import { MAX_PAYMENT_ATTEMPTS, type Order, type StoredPayment } from '@bookstore/contract';
import { FieldValue, type Transaction } from 'firebase-admin/firestore';
import { noAfterCommit } from '../books/book-writes';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { queued } from '../lib/mail-queue';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { cardPaidDelta, disputeLostDelta, mergeDeltas, refundDelta, type CounterDelta } from '../counters/counters';
import { addToCounters } from '../counters/counters.repo';
import { paymentMail, paymentMailId, refundFailedMail, refundMail, refundMailId } from '../orders/mail';
import { updateOrder, updateOrderNow } from '../orders/order-writes';
import { cancelRefundId, mail, mailOrder, orderFromDoc, orders, planTransition, type OrderDoc } from '../orders/orders.repo';
import { busy, TX_OPTIONS } from '../lib/transactions';
import { applyFact, markApplied, withAutoRefundSettled, type Fact, type Outcome } from './payment-facts';

/** The refund a payment that arrived after its order's cancel gets (issue 54). */
export const PAID_AFTER_CANCEL_REASON = 'Paid after the order was cancelled: refunded in full';

// The payment side of an order (issue 35), in Firestore. Each Stripe event is applied at most once:
// its id is recorded in paymentEvents/{id} in the same transaction as its effect, so a redelivery,
// even a concurrent one, reads the record and writes nothing. The stock and the lifecycle are the
// order's own (orders.repo.ts planTransition, readRestock/writeRestock): nothing here writes a book.

export const PAYMENT_EVENTS_COLLECTION = 'paymentEvents';
const paymentEvents = () => db().collection(PAYMENT_EVENTS_COLLECTION);

/** The shop's own actor for what Stripe tells it (an expired session's cancel). */
const STRIPE_ACTOR = { kind: 'system', id: 'stripe' } as const;

export type EventResult = 'applied' | 'duplicate' | 'unknown-order' | 'not-card' | 'no-change';

interface EventRecord {
  type: string;
  orderId: string | null;
  result: EventResult;
  note?: string;
  at: string;
}

/** An order's card payment, for the calls to Stripe around the transactions. */
export interface CardOrder {
  id: string;
  doc: OrderDoc;
  payment: StoredPayment;
}

export async function readOrder(orderId: string): Promise<OrderDoc | null> {
  const snap = await orders().doc(orderId).get();
  countReads(1);
  return snap.exists ? (snap.data() as OrderDoc) : null;
}

/** The writes an outcome makes besides the order itself: counters, refund mails, the payment mail. */
export function outcomeEffects(tx: Transaction, orderId: string, doc: OrderDoc, outcome: Outcome, updated: OrderDoc): void {
  const deltas: CounterDelta[] = [];
  if (outcome.newlyPaid && !outcome.payment.problem?.code.startsWith('AMOUNT')) deltas.push(cardPaidDelta(outcome.payment.paidCents ?? 0));
  for (const { refund, sign } of outcome.refundEffects) {
    deltas.push(refundDelta(refund.amountCents, sign));
    if (sign > 0 && refund.mailed) tx.create(mail().doc(refundMailId(orderId, refund.id)), queued(refundMail(orderId, mailOrder(updated), refund.amountCents, doc.payment?.method === 'card')));
    // Issue 54: a refund that failed at the bank is a correction the customer hears of (once: its id is the refund's).
    if (sign < 0 && refund.status === 'failed') tx.create(mail().doc(`${refundMailId(orderId, refund.id)}-failed`), queued(refundFailedMail(orderId, mailOrder(updated), refund.amountCents)));
  }
  if (outcome.disputeLostCents) deltas.push(disputeLostDelta(outcome.disputeLostCents));
  addToCounters(tx, mergeDeltas(...deltas));
  // Exactly one confirmation per paid order: the id is the order's, and only the first payment is newly paid.
  if (outcome.newlyPaid && doc.status !== 'cancelled') tx.create(mail().doc(paymentMailId(orderId)), queued(paymentMail(orderId, mailOrder(updated))));
}

/**
 * Applies `fact` (from Stripe event `eventId`, or the payment job's look at Stripe) to order
 * `orderId`, once: the event's record, the payment, its counters and mails, and for an expired
 * session the order's cancel (stock back through the order's own transition) all commit together,
 * or none does. An event for an order we do not have is recorded and acknowledged.
 */
export async function applyPaymentFact(eventId: string, type: string, orderId: string | null, fact: Fact): Promise<{ result: EventResult; order?: Order; note?: string; refundDue?: boolean }> {
  const eventRef = paymentEvents().doc(eventId);
  const ref = orderId ? orders().doc(orderId) : null;
  let afterCommit = noAfterCommit;
  const answer = await db().runTransaction(async (tx) => {
    afterCommit = noAfterCommit;
    const [eventSnap, orderSnap] = ref ? await tx.getAll(eventRef, ref) : [await tx.get(eventRef)];
    countReads(ref ? 2 : 1);
    const at = new Date().toISOString();
    const record = (result: EventResult, note?: string) => tx.create(eventRef, { type, orderId, result, ...(note ? { note } : {}), at } satisfies EventRecord);
    if (eventSnap!.exists) return { result: 'duplicate' as const };
    const doc = orderSnap?.data() as OrderDoc | undefined;
    if (!doc || !orderId) {
      record('unknown-order');
      return { result: 'unknown-order' as const };
    }
    if (doc.payment?.method !== 'card') {
      record('not-card');
      return { result: 'not-card' as const };
    }
    const outcome = applyFact(doc.payment, doc.status, fact, at);
    const changed = outcome.payment !== doc.payment;
    if (!changed) {
      record('no-change', outcome.note);
      return { result: 'no-change' as const, note: outcome.note };
    }
    // Reads first: the cancel's plan (lifecycle, books to restock), then nothing else needs reading.
    const plan = outcome.cancel
      ? await planTransition(tx, orderId, doc, { to: 'cancelled', by: STRIPE_ACTOR, note: 'Not paid: the card payment expired' })
      : undefined;
    // A refund the desk is making (its lock, refunds.repo.ts) is mailed by the desk with its gift card
    // part, as one mail; any other refund Stripe tells of is mailed here, once (issue 54).
    outcome.refundEffects = outcome.refundEffects.map((e) => (e.sign > 0 && !e.refund.mailed && e.refund.id !== doc.refundLock?.id ? { ...e, refund: { ...e.refund, mailed: true } } : e));
    const payment: StoredPayment = withAutoRefundSettled({ ...outcome.payment, refunds: markApplied(outcome.payment.refunds ?? [], outcome.refundEffects) }, doc.refundDue?.refundId, at);
    const paid = (payment.paidCents ?? 0) > 0;
    const extra: Partial<OrderDoc> = { payment, updatedAt: at };
    // Paid after a cancel (issue 54): owed back in full, recorded with the payment and made right
    // after it, like a cancelled pre-order's refund (cancel-refunds.ts), under the order's one refund id.
    if (outcome.refundInFull && !doc.refundDue) {
      extra.refundDue = { refundId: cancelRefundId(orderId), cents: payment.paidCents ?? 0, at, reason: PAID_AFTER_CANCEL_REASON };
      extra.refundRetryAt = at;
    }
    record('applied', outcome.note);
    let order: Order;
    const updated: OrderDoc = { ...doc, ...extra };
    if (plan) {
      order = plan.write(extra);
      afterCommit = plan.afterCommit();
    } else {
      // Money in (or flagged): the payment job no longer looks at the order.
      updateOrder(tx, ref!, { ...extra, ...(paid && doc.payBy ? { payBy: FieldValue.delete() } : {}) });
      if (paid) delete updated.payBy;
      order = orderFromDoc(orderId, updated);
    }
    outcomeEffects(tx, orderId, doc, outcome, updated);
    return { result: 'applied' as const, order, note: outcome.note, ...(extra.refundDue ? { refundDue: true } : {}) };
  }, TX_OPTIONS).catch(busy);
  await afterCommit();
  return answer;
}

// --- Checkout sessions ---------------------------------------------------------------------------

/** A card order that can still be paid: pending, no money received, not expired. */
function payable(doc: OrderDoc | undefined): doc is OrderDoc & { payment: StoredPayment } {
  const p = doc?.payment;
  return !!doc && p?.method === 'card' && doc.status === 'pending' && !(p.paidCents ?? 0) && !p.expired;
}

/**
 * Starts a new attempt ('Pay Now' again). The current session stays the order's until Stripe has
 * opened the next (attachSession retires it then, issue 54): if Stripe fails meanwhile, the order
 * keeps a session whose end cancels it, never holding its stock for ever. 409 when the order can no
 * longer be paid or has used its attempts.
 */
/** How long an attempt's opening holds off another (Stripe's calls time out well within it). */
const OPENING_MS = 60_000;

export async function beginAttempt(orderId: string, uid: string, after = 0): Promise<{ attempt: number; previous?: string; doc: OrderDoc }> {
  const ref = orders().doc(orderId);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    const doc = snap.data() as OrderDoc | undefined;
    if (!doc || doc.uid !== uid || doc.payment?.method !== 'card') throw new HttpError(404, 'Order not found');
    if (!payable(doc)) throw new HttpError(409, 'This order cannot be paid any more', { code: 'NOT_PAYABLE', status: doc.status, payment: doc.payment.status });
    // `after`: an attempt whose key Stripe already holds (openSession) is passed over.
    const attempts = Math.max(doc.payment.attempts ?? 0, after);
    if (attempts >= MAX_PAYMENT_ATTEMPTS) throw new HttpError(409, `An order can be paid in at most ${MAX_PAYMENT_ATTEMPTS} attempts`, { code: 'TOO_MANY_ATTEMPTS' });
    // One attempt opens at a time (a double click, two tabs): the second would leave two payable pages.
    const now = new Date();
    if (doc.payment.openingSince && now.getTime() - Date.parse(doc.payment.openingSince) < OPENING_MS) {
      throw new HttpError(409, 'A payment page is being opened for this order. Please wait a moment.', { code: 'PAYMENT_IN_PROGRESS' }, { 'Retry-After': '2' });
    }
    const previous = doc.payment.sessionId;
    const payment: StoredPayment = { ...doc.payment, openingSince: now.toISOString(), attempts: attempts + 1 };
    updateOrder(tx, ref, { payment, updatedAt: new Date().toISOString() });
    return { attempt: attempts + 1, ...(previous ? { previous } : {}), doc };
  }, TX_OPTIONS).catch(busy);
}

/** Stripe did not open attempt `attempt`'s session: another 'Pay Now' may begin at once. */
export async function openingFailed(orderId: string, attempt: number): Promise<void> {
  await db().runTransaction(async (tx) => {
    const ref = orders().doc(orderId);
    const doc = (await tx.get(ref)).data() as OrderDoc | undefined;
    countReads(1);
    if (doc?.payment?.openingSince && doc.payment.attempts === attempt) updateOrder(tx, ref, { 'payment.openingSince': FieldValue.delete() });
  }, TX_OPTIONS);
}

/** Whether the order needs its first session (placed, and no attempt made yet). */
export const needsFirstSession = (doc: OrderDoc) => payable(doc) && !doc.payment.sessionId && !(doc.payment.attempts ?? 0);

/**
 * Stores the session Stripe opened for `attempt` as the order's current one, and its end as the
 * payment job's deadline. Nothing changes if the order was paid, cancelled or moved to a later
 * attempt meanwhile (the answer then says the order as it is).
 */
export async function attachSession(orderId: string, attempt: number, session: { id: string; url: string; expiresAt: number }): Promise<Order> {
  const ref = orders().doc(orderId);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    const doc = snap.data() as OrderDoc;
    if (!payable(doc) || (doc.payment.attempts ?? 0) > attempt || doc.payment.sessionId === session.id) return orderFromDoc(orderId, doc);
    const expiresAt = new Date(session.expiresAt * 1000).toISOString();
    const { openingSince: _opened, ...rest } = doc.payment;
    // The session it replaces is retired now that this one exists: its expiry no longer ends the order.
    const previous = doc.payment.sessionId;
    const retiredSessions = previous ? [...new Set([...(doc.payment.retiredSessions ?? []), previous])] : doc.payment.retiredSessions;
    const payment: StoredPayment = { ...rest, attempts: attempt, sessionId: session.id, checkoutUrl: session.url, expiresAt, failed: false, status: 'awaiting', ...(retiredSessions ? { retiredSessions } : {}) };
    // The job looks a minute after Stripe's end: the expired event usually comes first.
    const payBy = new Date(session.expiresAt * 1000 + 60_000).toISOString();
    const updated: OrderDoc = { ...doc, payment, payBy, updatedAt: new Date().toISOString() };
    updateOrder(tx, ref, { payment, payBy, updatedAt: updated.updatedAt });
    return orderFromDoc(orderId, updated);
  }, TX_OPTIONS).catch(busy);
}

/** Unpaid card orders past their deadline, oldest first (one query on the single-field payBy index). */
export async function dueUnpaidOrders(now: Date, limit: number): Promise<CardOrder[]> {
  const due = await runQuery(orders().where('payBy', '<=', now.toISOString()).orderBy('payBy').limit(limit));
  return due.docs.map((d) => ({ id: d.id, doc: d.data() as OrderDoc, payment: (d.data() as OrderDoc).payment! })).filter((o) => o.payment?.method === 'card');
}

/** The session is still open at Stripe (clocks differ): look again after its end. */
export async function postponeDeadline(orderId: string, expiresAt: number): Promise<void> {
  await updateOrderNow(orders().doc(orderId), { payBy: new Date(expiresAt * 1000 + 60_000).toISOString() });
}

// --- Refunds -----------------------------------------------------------------------------------

/** Cancelled orders whose refund is still owed since before `before` (the hourly job's, cancel-refunds.ts): their ids, oldest first. */
export async function cancelRefundsDue(before: string, limit: number): Promise<string[]> {
  const due = await runQuery(orders().where('refundRetryAt', '<=', before).orderBy('refundRetryAt').limit(limit));
  return due.docs.map((d) => d.id);
}

/** Takes the order out of the hourly job's query: its refund is made, or owed no more. */
export const stopRetrying = (orderId: string) => updateOrderNow(orders().doc(orderId), { refundRetryAt: FieldValue.delete() });

/**
 * A refund the shop owed and could not make in full (a cancel's refund after other refunds, issue 54):
 * on the payment problems queue as REFUND_FAILED with what staff should do. Kept once: a second
 * note of the same refund changes nothing.
 */
export async function noteRefundProblem(orderId: string, message: string, action: string): Promise<void> {
  const ref = orders().doc(orderId);
  await db().runTransaction(async (tx) => {
    const doc = (await tx.get(ref)).data() as OrderDoc | undefined;
    countReads(1);
    if (!doc?.payment || (doc.payment.problem?.code === 'REFUND_FAILED' && doc.payment.problem.message === message)) return;
    const at = new Date().toISOString();
    updateOrder(tx, ref, { payment: { ...doc.payment, problem: { code: 'REFUND_FAILED', message, action, at } }, updatedAt: at });
  }, TX_OPTIONS).catch(busy);
}

/** Marks the order's session as being closed for a cancel (issue 54): its expired event then leaves the ending to the cancel. */
export async function markClosingForCancel(orderId: string, sessionId: string): Promise<void> {
  const ref = orders().doc(orderId);
  await db().runTransaction(async (tx) => {
    const doc = (await tx.get(ref)).data() as OrderDoc | undefined;
    countReads(1);
    if (doc?.payment?.method !== 'card' || doc.payment.sessionId !== sessionId || doc.status !== 'pending') return;
    updateOrder(tx, ref, { payment: { ...doc.payment, closingForCancel: { sessionId, at: new Date().toISOString() } } });
  }, TX_OPTIONS).catch(busy);
}
