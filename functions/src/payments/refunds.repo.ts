import {
  cardPaymentStatus, disputeOpen, formatGiftCardCode, fromCents, MAX_REFUNDS_PER_ORDER, refundableCents, refundedCentsOf, storedPaymentOf,
  type Order, type ParsedRefundRequest, type Refund, type StoredPayment, type StoredRefund,
} from '@bookstore/contract';
import { FieldValue } from 'firebase-admin/firestore';
import { logger } from 'firebase-functions/logger';
import { appendAudit, openAudit, type AuditActor } from '../admin/audit.repo';
import { noAfterCommit } from '../books/book-writes';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { queued } from '../lib/mail-queue';
import { countReads } from '../lib/read-counter';
import { mergeDeltas, refundDelta, type CounterDelta } from '../counters/counters';
import { addToCounters } from '../counters/counters.repo';
import { refundMail, refundMailId } from '../orders/mail';
import { updateOrder, type OrderChange } from '../orders/order-writes';
import { mail, mailOrder, orderFromDoc, orders, readRestock, writeRestock, type OrderDoc } from '../orders/orders.repo';
import { busy, TX_OPTIONS } from '../lib/transactions';
import { giveBackToCard, readCardForReturn, stageGiftCardIssue } from '../promotions/gift-cards.repo';
import { settleEffects, withAutoRefundSettled } from './payment-facts';

// A refund is one outcome (issue 54): what a gift card paid goes back on it first (decision 040),
// the rest in money (through Stripe for a card payment, or cash), and either all of it happens or
// none does. beginRefund reads, checks and splits before any money moves, and takes the order's
// refund lock (one refund at a time: a second desk is answered 409 REFUND_IN_PROGRESS); Stripe is
// asked next; recordRefund then writes both parts, the restock, the counters, one mail to the
// customer and one audit event in one transaction, and lets the lock go. Stripe refusing leaves
// the gift card, the stock and the order as they were.

/** How long a refund holds its order: Stripe's calls time out well within it (stripe-client.ts). */
export const REFUND_LOCK_MS = 60_000;

export interface RefundAsk {
  orderId: string;
  refundId: string;
  requestHash: string;
  request: ParsedRefundRequest;
  /** Staff who asked (audited); absent for the refund a customer's cancel made (issue 41: customers are not in the staff log). */
  actor?: AuditActor;
  /** What of the refund goes back on the gift card that paid the order (beginRefund's split). */
  giftCardCents?: number;
  /** The new gift card's code when the money part is given as store credit (made by the server, mailed to the customer). */
  creditCode?: string;
}

export interface RefundAnswer {
  order: Order;
  /** The money part's record (absent when all of it went back on the gift card). */
  refund?: Refund;
  giftCardCents: number;
  replayed: boolean;
  /** The store credit's new gift card (its code only in the answer that made it). */
  storeCredit?: { code?: string; amount: number; last4: string };
}

/** What Stripe made for the money part. */
export interface StripeRefundMade {
  id: string;
  amountCents: number;
  status: StoredRefund['status'];
}

export type RefundPlan =
  | { replay: RefundAnswer }
  | { giftCardCents: number; moneyCents: number; payment: StoredPayment; madeAtStripe?: StripeRefundMade };

type GiftRefund = NonNullable<NonNullable<OrderDoc['giftCard']>['refunds']>[number];

function answerOf(orderId: string, doc: OrderDoc, refundId: string, replayed: boolean, creditCode?: string): RefundAnswer {
  const order = orderFromDoc(orderId, doc, 'staff'); // the desk's answer (owner, manager)
  const gift = (doc.giftCard?.refunds ?? []).find((r) => r.id === refundId);
  const refund = order.payment.refunds.find((r) => r.id === refundId);
  const stored = (doc.payment?.refunds ?? []).find((r) => r.id === refundId);
  const credit = stored?.storeCredit ? { storeCredit: { ...(creditCode ? { code: formatGiftCardCode(creditCode) } : {}), amount: fromCents(stored.amountCents), last4: stored.storeCredit.last4 } } : {};
  return { order, ...(refund ? { refund } : {}), giftCardCents: gift?.cents ?? 0, replayed, ...credit };
}

function replayOrRefuse(existing: { requestHash?: string } | undefined, hash: string): 'replay' | 'new' | 'upgrade' {
  if (!existing) return 'new';
  // Recorded by Stripe's event before the desk's own answer came back: the desk completes it.
  if (existing.requestHash === undefined) return 'upgrade';
  if (existing.requestHash !== hash) throw new HttpError(422, 'This Idempotency-Key was used for a different refund', { code: 'IDEMPOTENCY_KEY_REUSED' });
  return 'replay';
}

function exceeds(payment: StoredPayment, giftCardLeftCents: number): never {
  const refundable = fromCents(refundableCents(payment) + giftCardLeftCents);
  const message = (payment.paidCents ?? 0) === 0 && giftCardLeftCents === 0 ? 'Nothing has been paid for this order yet' : `At most $${refundable.toFixed(2)} can still be refunded`;
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
 * Before any money moves: the refund this key already made (replayed), or the checks (amount,
 * restock lines, a dispute, the gift card still there), the split between the gift card and money,
 * and the order's refund lock. A refund Stripe already made under this key (its event recorded it)
 * is not asked for again, even after Stripe forgot the key (24 hours): our record is the key's.
 */
export async function beginRefund(ask: RefundAsk): Promise<RefundPlan> {
  const ref = orders().doc(ask.orderId);
  return db().runTransaction(async (tx): Promise<RefundPlan> => {
    const snap = await tx.get(ref);
    countReads(1);
    const doc = snap.data() as OrderDoc | undefined;
    if (!doc) throw new HttpError(404, 'Order not found');
    const payment = storedPaymentOf(doc);
    const existing = (payment.refunds ?? []).find((r) => r.id === ask.refundId);
    const giftDone = (doc.giftCard?.refunds ?? []).find((r) => r.id === ask.refundId) as GiftRefund | undefined;
    const mode = replayOrRefuse(existing ?? giftDone, ask.requestHash);
    if (mode === 'replay') return { replay: answerOf(ask.orderId, doc, ask.refundId, true) };
    const now = Date.now();
    if (doc.refundLock && doc.refundLock.id !== ask.refundId && Date.parse(doc.refundLock.until) > now) {
      throw new HttpError(409, 'Another refund of this order is being made. Wait a moment, then look at the order again.', { code: 'REFUND_IN_PROGRESS' }, { 'Retry-After': '5' });
    }
    const requested = Math.round(ask.request.amount * 100);
    const gift = doc.giftCard;
    const giftLeft = gift ? Math.max(0, gift.cents - gift.returnedCents) : 0;
    const giftCardCents = giftDone ? giftDone.cents : Math.min(giftLeft, requested);
    const moneyCents = requested - giftCardCents;
    if (moneyCents > 0 && !existing) {
      if (refundedCentsOf(payment.refunds ?? []) + moneyCents > (payment.paidCents ?? 0)) exceeds(payment, giftLeft);
      if ((payment.refunds ?? []).length >= MAX_REFUNDS_PER_ORDER) throw new HttpError(409, `An order can have at most ${MAX_REFUNDS_PER_ORDER} refunds`, { code: 'TOO_MANY_REFUNDS' });
      if (payment.method === 'card' && disputeOpen(payment.dispute)) {
        throw new HttpError(409, 'This payment is disputed: Stripe cannot refund it while the dispute is open. Answer the dispute in Stripe; a dispute the customer wins returns the money to them.', { code: 'CHARGE_DISPUTED' });
      }
      if (payment.method === 'card' && !payment.paymentIntentId) throw new HttpError(409, 'This order has no card payment to refund', { code: 'REFUND_EXCEEDS_PAYMENT', refundable: 0 });
    }
    restockBookIds(doc, ask.request);
    if (giftCardCents > 0 && !giftDone && !(await readCardForReturn(tx, gift!.id))) {
      throw new HttpError(409, 'The gift card that paid this order no longer exists', { code: 'GIFT_CARD_GONE' });
    }
    updateOrder(tx, ref, { refundLock: { id: ask.refundId, until: new Date(now + REFUND_LOCK_MS).toISOString() } });
    const madeAtStripe = existing?.stripeRefundId ? { id: existing.stripeRefundId, amountCents: existing.amountCents, status: existing.status } : undefined;
    return { giftCardCents, moneyCents, payment, ...(madeAtStripe ? { madeAtStripe } : {}) };
  }, TX_OPTIONS).catch(busy);
}

/** Lets the order's refund lock go when the refund `refundId` could not be made (Stripe refused): nothing else changed. */
export async function releaseRefundLock(orderId: string, refundId: string): Promise<void> {
  const ref = orders().doc(orderId);
  await db().runTransaction(async (tx) => {
    const doc = (await tx.get(ref)).data() as OrderDoc | undefined;
    countReads(1);
    if (doc?.refundLock?.id === refundId) updateOrder(tx, ref, { refundLock: FieldValue.delete() });
  }, TX_OPTIONS);
}

/**
 * Records a refund, in one transaction: the gift card's part back on the card, the money part
 * (cash: the record; card: what Stripe's Refunds API answered, `stripe`), the lines it puts back in
 * stock, the counters, one mail to the customer naming where each part went, one audit event, and
 * the refund lock let go. If Stripe's own event recorded the money part first, this completes that
 * record (its reason, who asked, the restock) without counting it twice.
 */
export async function recordRefund(ask: RefundAsk, stripe?: StripeRefundMade): Promise<RefundAnswer> {
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
    const giftDone = (doc.giftCard?.refunds ?? []).find((r) => r.id === ask.refundId) as GiftRefund | undefined;
    if (replayOrRefuse(existing ?? giftDone, ask.requestHash) === 'replay') return answerOf(ask.orderId, doc, ask.refundId, true);
    const giftCents = giftDone ? 0 : (ask.giftCardCents ?? 0);
    const moneyCents = stripe?.amountCents ?? Math.round(ask.request.amount * 100) - (ask.giftCardCents ?? 0);
    // Cash: the shop's own check. Card: Stripe has refunded already (it refuses more than the charge).
    if (!stripe && moneyCents > 0 && refundedCentsOf(refunds) + moneyCents > (payment.paidCents ?? 0)) exceeds(payment, 0);
    const bookIds = restockBookIds(doc, ask.request);
    const restock = await readRestock(tx, bookIds, ref.path);
    const card = giftCents > 0 ? await readCardForReturn(tx, doc.giftCard!.id) : undefined;
    if (giftCents > 0 && !card) throw new HttpError(409, 'The gift card that paid this order no longer exists', { code: 'GIFT_CARD_GONE' });
    // Store credit (issue 54): the money part becomes a new gift card, issued in this transaction.
    const credit = ask.creditCode && moneyCents > 0 && !existing
      ? await stageGiftCardIssue(tx, ask.creditCode, { amountCents: moneyCents, kind: 'store-credit', by: ask.actor?.username ?? 'shop', saleId: `refund-${ask.refundId}` })
      : undefined;
    const log = ask.actor ? await openAudit(tx) : null; // the audit chain's head, read before the writes
    const at = new Date().toISOString();
    const change: OrderChange = { updatedAt: at };
    const deltas: CounterDelta[] = [];
    let moneyMailCents = 0;
    if (moneyCents > 0) {
      const refund: StoredRefund = {
        ...(existing ?? {}),
        id: ask.refundId,
        amountCents: moneyCents,
        status: stripe?.status ?? 'succeeded',
        source: 'desk',
        reason: ask.request.reason,
        ...(ask.request.staffNote ? { staffNote: ask.request.staffNote } : {}),
        at: existing?.at ?? at,
        ...(ask.actor ? { by: ask.actor.role } : {}),
        restock: bookIds,
        requestHash: ask.requestHash,
        ...(stripe ? { stripeRefundId: stripe.id } : {}),
        ...(giftCents > 0 ? { giftCardCents: giftCents } : {}),
        ...(credit ? { storeCredit: { giftCardId: credit.id, last4: credit.last4 } } : {}),
      };
      const effects = settleEffects(existing, refund).refundEffects;
      const settled = effects[0]?.refund ?? refund;
      for (const { refund: r, sign } of effects) deltas.push(refundDelta(r.amountCents, sign));
      // Mailed once: here, unless Stripe's event told the customer first (it does not while this desk holds the lock).
      if (!settled.mailed && settled.status !== 'failed') {
        settled.mailed = true;
        moneyMailCents = moneyCents;
      }
      if (i >= 0) refunds[i] = settled;
      else refunds.push(settled);
      // A card payment's status follows from its facts; a cash one from the order's status (storedPaymentOf).
      const stored: StoredPayment = payment.method === 'card'
        ? { ...payment, refunds, refundedCents: refundedCentsOf(refunds), status: cardPaymentStatus({ ...payment, refunds }) }
        : storedPaymentOf({ status: doc.status, totalCents: doc.totalCents, payment: { method: 'cash', status: 'due', amountCents: doc.totalCents, refundedCents: 0, refunds } });
      // The automatic refund of a payment after cancel (issue 54) settles its problem, or says it failed.
      const settledProblem = withAutoRefundSettled(stored, doc.refundDue?.refundId, at).problem;
      if (settledProblem) stored.problem = settledProblem;
      // A refund made again after one failed at the bank settles that problem (issue 54).
      if (stored.problem?.code === 'REFUND_FAILED' && !stored.problem.resolvedAt && settled.status !== 'failed') {
        stored.problem = { ...stored.problem, done: `Refunded $${fromCents(moneyCents).toFixed(2)} again.`, resolvedAt: at };
      }
      change.payment = stored;
    }
    if (giftCents > 0 && card && doc.giftCard) {
      giveBackToCard(tx, card, giftCents, ask.orderId, at, ask.actor?.username);
      const back: GiftRefund = { id: ask.refundId, cents: giftCents, at, restocked: moneyCents === 0, requestHash: ask.requestHash };
      change.giftCard = { ...doc.giftCard, returnedCents: doc.giftCard.returnedCents + giftCents, refunds: [...(doc.giftCard.refunds ?? []), back] };
      deltas.push(refundDelta(giftCents));
    }
    credit?.write(at);
    if (bookIds.length) change.restocked = [...(doc.restocked ?? []), ...bookIds];
    if (doc.refundLock?.id === ask.refundId) change.refundLock = FieldValue.delete();
    const updated = { ...doc, ...change } as OrderDoc;
    delete (updated as Partial<OrderDoc>).refundLock;
    updateOrder(tx, ref, change);
    afterCommit = writeRestock(restock);
    addToCounters(tx, mergeDeltas(...deltas));
    // One mail per refund, whatever its destination (issue 54): the money part when its effects apply
    // now, the gift card's part when it went back now. A money part Stripe's event mailed already
    // leaves only the card's part to say, under an id of its own.
    if (moneyMailCents > 0 || giftCents > 0) {
      const id = moneyMailCents === 0 && moneyCents > 0 ? `${refundMailId(ask.orderId, ask.refundId)}-gift` : refundMailId(ask.orderId, ask.refundId);
      const giftPart = giftCents > 0 ? { cents: giftCents, last4: doc.giftCard!.last4 } : undefined;
      const creditPart = credit && ask.creditCode ? { code: formatGiftCardCode(ask.creditCode) } : undefined;
      tx.create(mail().doc(id), queued(refundMail(ask.orderId, mailOrder(updated), moneyMailCents, payment.method === 'card', giftPart, creditPart)));
    }
    if (log && ask.actor) appendAudit(log, ask.actor, {
      action: 'order.refund',
      target: `orders/${ask.orderId}`,
      changes: {
        refunded: { before: fromCents(payment.refundedCents), after: fromCents((change.payment as StoredPayment | undefined)?.refundedCents ?? payment.refundedCents) },
        refund: { before: null, after: { id: ask.refundId, amount: fromCents(moneyCents + giftCents), reason: ask.request.reason, ...(ask.request.staffNote ? { staffNote: ask.request.staffNote } : {}), restock: bookIds, ...(giftCents ? { toGiftCard: doc.giftCard!.last4, giftCardAmount: fromCents(giftCents) } : {}), ...(credit ? { storeCreditCard: credit.last4 } : {}), ...(stripe ? { stripeRefundId: stripe.id } : {}) } },
      },
    }, at);
    logger.info('Refund recorded', { orderId: ask.orderId, refundId: ask.refundId, moneyCents, giftCents, method: payment.method, stripeRefundId: stripe?.id });
    return answerOf(ask.orderId, updated, ask.refundId, false, credit ? ask.creditCode : undefined);
  }, TX_OPTIONS).catch(busy);
  await afterCommit();
  return answer;
}
