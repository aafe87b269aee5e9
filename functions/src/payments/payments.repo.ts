import {
  cardPaymentStatus, fromCents, MAX_PAYMENT_ATTEMPTS, MAX_REFUNDS_PER_ORDER, refundableCents, refundedCentsOf, storedPaymentOf,
  type Order, type ParsedRefundRequest, type Refund, type StoredPayment, type StoredRefund,
} from '@bookstore/contract';
import { FieldValue, type Transaction } from 'firebase-admin/firestore';
import { logger } from 'firebase-functions/logger';
import { appendAudit, openAudit, type AuditActor } from '../admin/audit.repo';
import { noAfterCommit } from '../books/book-writes';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { queued } from '../lib/mail-queue';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { cardPaidDelta, mergeDeltas, refundDelta, type CounterDelta } from '../orders/counters';
import { addToCounters } from '../orders/counters.repo';
import { paymentMail, paymentMailId, refundMail, refundMailId } from '../orders/mail';
import {
  busy, mail, mailOrder, orderFromDoc, orders, planTransition, readRestock, TX_OPTIONS, writeRestock, type OrderDoc,
} from '../orders/orders.repo';
import { updateOrder, updateOrderNow } from '../orders/order-writes';
import { applyFact, markApplied, settleEffects, type Fact, type Outcome } from './payment-facts';

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
function outcomeEffects(tx: Transaction, orderId: string, doc: OrderDoc, outcome: Outcome, updated: OrderDoc): void {
  const deltas: CounterDelta[] = [];
  if (outcome.newlyPaid && !outcome.payment.problem?.code.startsWith('AMOUNT')) deltas.push(cardPaidDelta(outcome.payment.paidCents ?? 0));
  for (const { refund, sign } of outcome.refundEffects) {
    deltas.push(refundDelta(refund.amountCents, sign));
    if (sign > 0) tx.create(mail().doc(refundMailId(orderId, refund.id)), queued(refundMail(orderId, mailOrder(updated), refund.amountCents, doc.payment?.method === 'card')));
  }
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
export async function applyPaymentFact(eventId: string, type: string, orderId: string | null, fact: Fact): Promise<{ result: EventResult; order?: Order; note?: string }> {
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
    const payment: StoredPayment = { ...outcome.payment, refunds: markApplied(outcome.payment.refunds ?? [], outcome.refundEffects) };
    const paid = (payment.paidCents ?? 0) > 0;
    const extra: Partial<OrderDoc> = { payment, updatedAt: at };
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
    return { result: 'applied' as const, order, note: outcome.note };
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
 * Starts a new attempt ('Pay Now' again): the current session is retired first (its expiry will not
 * end the order), then the caller expires it at Stripe and opens the next. 409 when the order can no
 * longer be paid or has used its attempts.
 */
/** How long an attempt's opening holds off another (Stripe's calls time out well within it). */
const OPENING_MS = 60_000;

export async function beginAttempt(orderId: string, uid: string, after = 0): Promise<{ attempt: number; retired?: string; doc: OrderDoc }> {
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
    const retired = doc.payment.sessionId;
    const payment: StoredPayment = {
      ...doc.payment,
      openingSince: now.toISOString(),
      attempts: attempts + 1,
      failed: false,
      status: 'awaiting',
      ...(retired ? { retiredSessions: [...(doc.payment.retiredSessions ?? []), retired] } : {}),
    };
    updateOrder(tx, ref, { payment, updatedAt: new Date().toISOString() });
    return { attempt: attempts + 1, ...(retired ? { retired } : {}), doc };
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
    const payment: StoredPayment = { ...rest, attempts: attempt, sessionId: session.id, checkoutUrl: session.url, expiresAt, status: 'awaiting' };
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

export interface RefundAsk {
  orderId: string;
  refundId: string;
  requestHash: string;
  request: ParsedRefundRequest;
  /** Staff who asked (audited); absent for the refund a customer's cancel made (issue 41: customers are not in the staff log). */
  actor?: AuditActor;
}

export interface RefundAnswer {
  order: Order;
  refund: Refund;
  replayed: boolean;
}

const refundAnswer = (orderId: string, doc: OrderDoc, refund: StoredRefund, replayed: boolean): RefundAnswer => {
  const order = orderFromDoc(orderId, doc);
  return { order, refund: order.payment.refunds.find((r) => r.id === refund.id)!, replayed };
};

function replayOrRefuse(existing: StoredRefund | undefined, hash: string): 'replay' | 'new' | 'upgrade' {
  if (!existing) return 'new';
  // Recorded by Stripe's event before the desk's own answer came back: the desk completes it.
  if (existing.requestHash === undefined) return 'upgrade';
  if (existing.requestHash !== hash) throw new HttpError(422, 'This Idempotency-Key was used for a different refund', { code: 'IDEMPOTENCY_KEY_REUSED' });
  return 'replay';
}

function exceeds(payment: StoredPayment): never {
  const refundable = fromCents(refundableCents(payment));
  const message = (payment.paidCents ?? 0) === 0 ? 'Nothing has been paid for this order yet' : `At most $${refundable.toFixed(2)} can still be refunded`;
  throw new HttpError(409, message, { code: 'REFUND_EXCEEDS_PAYMENT', refundable });
}

/** Restock lines must be the order's, each put back at most once (by a refund or a cancel). */
export function restockBookIds(doc: OrderDoc, request: ParsedRefundRequest): string[] {
  const ids = request.restock.map((l) => l.bookId);
  const lines = new Set((doc.items ?? []).map((l) => l.bookId));
  const unknown = ids.filter((id) => !lines.has(id));
  if (unknown.length) throw new HttpError(400, `Not lines of this order: ${unknown.join(', ')}`, { details: { restock: [`Not lines of this order: ${unknown.join(', ')}`] } });
  const back = new Set(doc.restocked ?? []);
  // A cancelled or refused order's lines are all back already.
  if (['cancelled', 'refused'].includes(doc.status)) for (const l of doc.items ?? []) back.add(l.bookId);
  // A waiting pre-order (issue 41) never took a copy: there is nothing to put back.
  const waiting = ids.filter((id) => (doc.items ?? []).some((l) => l.bookId === id && l.preorder === 'waiting'));
  if (waiting.length) throw new HttpError(409, `A waiting pre-order has no copy to put back: ${waiting.join(', ')}`, { code: 'PREORDER_WAITING', bookIds: waiting });
  const twice = ids.filter((id) => back.has(id));
  if (twice.length) throw new HttpError(409, `Already back in stock: ${twice.join(', ')}`, { code: 'ALREADY_RESTOCKED', bookIds: twice });
  return ids;
}

/**
 * Before asking Stripe: the refund this key already made (replayed), or a check that the amount fits
 * what was paid and the lines can be restocked. Reads only; the refund is written by recordRefund.
 */
export async function checkRefund(ask: RefundAsk): Promise<{ replay: RefundAnswer } | { payment: StoredPayment; doc: OrderDoc }> {
  const doc = await readOrder(ask.orderId);
  if (!doc) throw new HttpError(404, 'Order not found');
  const payment = storedPaymentOf(doc);
  const existing = (payment.refunds ?? []).find((r) => r.id === ask.refundId);
  if (replayOrRefuse(existing, ask.requestHash) === 'replay') return { replay: refundAnswer(ask.orderId, doc, existing!, true) };
  const cents = Math.round(ask.request.amount * 100);
  if (!existing && refundedCentsOf(payment.refunds ?? []) + cents > (payment.paidCents ?? 0)) exceeds(payment);
  if ((payment.refunds ?? []).length >= MAX_REFUNDS_PER_ORDER && !existing) throw new HttpError(409, `An order can have at most ${MAX_REFUNDS_PER_ORDER} refunds`, { code: 'TOO_MANY_REFUNDS' });
  restockBookIds(doc, ask.request);
  return { payment, doc };
}

/**
 * Records a desk refund, in one transaction with its audit event, its counters, its mail and the
 * lines it puts back in stock. Cash: the refund is the record. Card: `stripe` is what Stripe's
 * Refunds API answered; if Stripe's own event recorded it first, this completes that record (its
 * reason, who asked, the restock) without counting it twice.
 */
export async function recordRefund(ask: RefundAsk, stripe?: { id: string; amountCents: number; status: StoredRefund['status'] }): Promise<RefundAnswer> {
  const ref = orders().doc(ask.orderId);
  let afterCommit = noAfterCommit;
  const answer = await db().runTransaction(async (tx) => {
    afterCommit = noAfterCommit;
    const snap = await tx.get(ref);
    countReads(1);
    const doc = snap.data() as OrderDoc | undefined;
    if (!doc) throw new HttpError(404, 'Order not found');
    const payment = storedPaymentOf(doc);
    const refunds = [...(payment.refunds ?? [])];
    const i = refunds.findIndex((r) => r.id === ask.refundId || (stripe && r.stripeRefundId === stripe.id));
    const existing = i >= 0 ? refunds[i] : undefined;
    if (replayOrRefuse(existing, ask.requestHash) === 'replay') return refundAnswer(ask.orderId, doc, existing!, true);
    const cents = stripe?.amountCents ?? Math.round(ask.request.amount * 100);
    // Cash: the shop's own check. Card: Stripe has refunded already (it refuses more than the charge).
    if (!stripe && refundedCentsOf(refunds) + cents > (payment.paidCents ?? 0)) exceeds(payment);
    const bookIds = restockBookIds(doc, ask.request);
    const restock = await readRestock(tx, bookIds, ref.path);
    const log = ask.actor ? await openAudit(tx) : null; // the audit chain's head, read before the writes
    const at = new Date().toISOString();
    const refund: StoredRefund = {
      ...(existing ?? {}),
      id: ask.refundId,
      amountCents: cents,
      status: stripe?.status ?? 'succeeded',
      source: 'desk',
      reason: ask.request.reason,
      at: existing?.at ?? at,
      ...(ask.actor ? { by: ask.actor.role } : {}),
      restock: bookIds,
      requestHash: ask.requestHash,
      ...(stripe ? { stripeRefundId: stripe.id } : {}),
    };
    const effects = settleEffects(existing, refund).refundEffects;
    const settled = effects[0]?.refund ?? refund;
    if (i >= 0) refunds[i] = settled;
    else refunds.push(settled);
    // A card payment's status follows from its facts; a cash one from the order's status (storedPaymentOf).
    const stored: StoredPayment = payment.method === 'card'
      ? { ...payment, refunds, refundedCents: refundedCentsOf(refunds), status: cardPaymentStatus({ ...payment, refunds }) }
      : storedPaymentOf({ status: doc.status, totalCents: doc.totalCents, payment: { method: 'cash', status: 'due', amountCents: doc.totalCents, refundedCents: 0, refunds } });
    const updated: OrderDoc = { ...doc, payment: stored, updatedAt: at, ...(bookIds.length ? { restocked: [...(doc.restocked ?? []), ...bookIds] } : {}) };
    updateOrder(tx, ref, { payment: stored, updatedAt: at, ...(bookIds.length ? { restocked: updated.restocked } : {}) });
    afterCommit = writeRestock(restock);
    const outcome: Outcome = { payment: stored, newlyPaid: false, cancel: false, refundEffects: effects };
    outcomeEffects(tx, ask.orderId, doc, outcome, updated);
    if (log && ask.actor) appendAudit(log, ask.actor, {
      action: 'order.refund',
      target: `orders/${ask.orderId}`,
      changes: {
        refunded: { before: fromCents(payment.refundedCents), after: fromCents(stored.refundedCents) },
        refund: { before: null, after: { id: ask.refundId, amount: fromCents(cents), reason: ask.request.reason, restock: bookIds, ...(stripe ? { stripeRefundId: stripe.id } : {}) } },
      },
    }, at);
    logger.info('Refund recorded', { orderId: ask.orderId, refundId: ask.refundId, cents, method: payment.method, stripeRefundId: stripe?.id });
    return refundAnswer(ask.orderId, updated, settled, false);
  }, TX_OPTIONS).catch(busy);
  await afterCommit();
  return answer;
}

