import {
  READER_OF_ANOTHER_TILL, READER_REQUIRED, SALE_NOT_CANCELLABLE, TERMINAL_OFFLINE, TERMINAL_SOLD_AT_MAX_AGE_MS, UNKNOWN_READER,
  type FieldChange, type ParsedSaleInput, type Sale, type SaleReturn,
} from '@bookstore/contract';
import { logger } from 'firebase-functions/logger';
import { appendAudit, openAudit, type AuditActor } from '../admin/audit.repo';
import { books } from '../books/book-doc';
import { noAfterCommit, stageBookWrites } from '../books/book-writes';
import { addToCounters } from '../counters/counters.repo';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { countReads } from '../lib/read-counter';
import { busy, TX_OPTIONS } from '../lib/transactions';
import { CURRENCY } from '../payments/checkout-session';
import { PAYMENT_EVENTS_COLLECTION } from '../payments/payments.repo';
import { providerError, requireStripe, type Stripe } from '../payments/stripe-client';
import { readerDoc } from './readers.repo';
import { voidGiftCard } from '../promotions/gift-cards.repo';
import { giftCardCentsOf, isBookLine, type StoredSaleLine } from './sale-lines';
import { addTakings, sales, saleReturns, toSale, type SaleDoc } from './sales.repo';
import { saleCounterDelta, saleTakings } from './takings';
import { saleTenders, stageTillPaymentRelease } from './till-payment';
import { isAlreadyExists } from '../lib/errors';

/** What the reader takes: the sale's total less a gift card's part. */
const dueOf = (doc: SaleDoc) => doc.totalCents - (doc.payment.giftCard?.cents ?? 0);

// Stripe Terminal at the till, server-driven (issue 57; docs/decisions/043-stripe-terminal.md).
// POST /api/admin/sales with payment {method: 'card_terminal', readerId} stores the sale as
// `awaiting_payment` with its copies taken (placeSale, as any sale) but no takings; then this module
// makes a card_present PaymentIntent (the saleId its idempotency key and metadata) and hands it to
// the till's reader. Stripe's webhook says how it ended: payment_intent.succeeded completes the sale
// (takings counted), payment_intent.payment_failed or terminal.reader.action_failed fail it, and the
// till's Cancel cancels it; both give the copies back. Each change happens once: a sale leaves
// `awaiting_payment` in one transaction that also records the Stripe event (paymentEvents/<id>, as
// the web payments do), so five deliveries at once complete it once.

/** What Stripe tells the shop about a terminal sale (webhook.handlers.ts sends these here). */
export const TERMINAL_EVENTS = new Set(['payment_intent.succeeded', 'payment_intent.payment_failed', 'terminal.reader.action_failed']);

/** Who gives copies back when Stripe reports a failed payment (the audit's actor; no staff member acted). */
const STRIPE_ACTOR: AuditActor = { username: 'stripe', role: 'owner' };

const idempotency = (saleId: string, what: string) => ({ idempotencyKey: `sale-${saleId}-${what}` });

/**
 * A card-terminal sale's checks before anything is stored: its reader named, known and the till's,
 * and the till online (a sale from the offline queue cannot have been paid on a reader: the customer
 * has gone). Each refusal is a 4xx naming it, with nothing changed.
 */
export async function checkTerminalSale(input: ParsedSaleInput, now = new Date()): Promise<void> {
  if (input.payment.method !== 'card_terminal') return;
  const readerId = input.payment.readerId;
  if (!readerId) {
    throw new HttpError(400, "payment.readerId is required: choose the till's card reader", { code: READER_REQUIRED, details: { 'payment.readerId': ["Choose the till's card reader"] } });
  }
  const old = input.soldAt !== undefined && Date.parse(input.soldAt) < now.getTime() - TERMINAL_SOLD_AT_MAX_AGE_MS;
  if (input.queued || old) {
    throw new HttpError(409, 'A card-terminal sale cannot be sent from the offline queue: the card is taken on the reader while the till is online', { code: TERMINAL_OFFLINE });
  }
  const reader = await readerDoc(readerId);
  if (!reader) throw new HttpError(400, `No card reader ${readerId}: choose one of the till's readers`, { code: UNKNOWN_READER, readerId });
  if (input.tillId && reader.tillId !== input.tillId) {
    throw new HttpError(409, `Reader ${reader.label} belongs to till ${reader.tillId}, not ${input.tillId}`, { code: READER_OF_ANOTHER_TILL, readerId, tillId: reader.tillId });
  }
  requireStripe(); // 422 when card payments are off
}

async function saleDoc(saleId: string): Promise<SaleDoc | null> {
  const snap = await sales().doc(saleId).get();
  countReads(1);
  return snap.exists ? (snap.data() as SaleDoc) : null;
}

/**
 * Makes the sale's PaymentIntent and hands it to its reader. Sent again (the till's POST after a lost
 * answer) it asks Stripe the same under the same keys. Stripe refusing (a busy reader) or not
 * answering fails the sale at once, copies back: the till shows why and can try again as a new sale.
 */
export async function startTerminalPayment(saleId: string, actor: AuditActor): Promise<Sale> {
  const doc = await saleDoc(saleId);
  if (!doc?.terminal || doc.status !== 'awaiting_payment') return toSale(saleId, doc!);
  const { stripe } = requireStripe();
  let intent: Stripe.PaymentIntent | null = null;
  try {
    const reader = await readerDoc(doc.terminal.readerId);
    if (!reader) throw new HttpError(409, `Card reader ${doc.terminal.readerId} was removed`, { code: UNKNOWN_READER });
    intent = await stripe.paymentIntents.create({
      // What a gift card left to pay (issue 57).
      amount: dueOf(doc), currency: CURRENCY, allowed_payment_method_types: ['card_present'], capture_method: 'automatic',
      metadata: { saleId }, description: `Counter sale ${saleId}`,
    }, idempotency(saleId, 'intent'));
    if (doc.terminal.paymentIntentId !== intent.id) await sales().doc(saleId).update({ 'terminal.paymentIntentId': intent.id });
    await stripe.terminal.readers.processPaymentIntent(reader.stripeReaderId, { payment_intent: intent.id }, idempotency(saleId, 'process'));
  } catch (error) {
    const e = error as { code?: string; message?: string };
    const busyReader = e.code === 'terminal_reader_busy';
    const why = error instanceof HttpError ? error.message : busyReader ? 'The card reader is busy with another payment' : 'The card reader could not start the payment';
    await settle(saleId, { kind: 'failed', why }, actor);
    if (intent) await stripe.paymentIntents.cancel(intent.id).catch(() => undefined);
    if (error instanceof HttpError) throw error;
    if (busyReader) throw new HttpError(409, `${why}: finish or cancel it on the reader, then sell again`, { code: 'READER_BUSY' });
    throw providerError(error, 'starting a Terminal payment');
  }
  return toSale(saleId, (await saleDoc(saleId))!);
}

type Outcome = { kind: 'paid'; paymentIntentId: string; amountCents: number } | { kind: 'failed' | 'cancelled'; why: string };

interface Settled {
  result: 'applied' | 'duplicate' | 'unknown-sale' | 'no-change';
  sale: SaleDoc | null;
}

/**
 * Moves an awaiting sale to its end, once: paid -> complete with its takings and counters; failed or
 * cancelled -> its copies back through the book write path. `eventId` (a Stripe event) is recorded
 * in the same transaction, so a redelivery reads it and changes nothing.
 */
async function settle(saleId: string, outcome: Outcome, actor: AuditActor, event?: { id: string; type: string }): Promise<Settled> {
  const ref = sales().doc(saleId);
  const eventRef = event ? db().collection(PAYMENT_EVENTS_COLLECTION).doc(event.id) : null;
  let afterCommit = noAfterCommit;
  let settled: Settled;
  try {
    settled = await db().runTransaction(async (tx): Promise<Settled> => {
      afterCommit = noAfterCommit;
      const snaps = await tx.getAll(...(eventRef ? [eventRef, ref] : [ref]));
      countReads(snaps.length);
      const eventSnap = eventRef ? snaps[0] : null;
      const snap = snaps[snaps.length - 1];
      if (eventSnap?.exists) return { result: 'duplicate', sale: snap!.exists ? (snap!.data() as SaleDoc) : null };
      const now = new Date().toISOString();
      const record = (result: Settled['result']) => eventRef && tx.create(eventRef, { type: event!.type, orderId: null, saleId, result, at: now });
      if (!snap!.exists) {
        record('unknown-sale');
        return { result: 'unknown-sale', sale: null };
      }
      const doc = snap!.data() as SaleDoc;
      if (doc.status !== 'awaiting_payment' || !doc.terminal) {
        record('no-change');
        return { result: 'no-change', sale: doc };
      }
      if (outcome.kind === 'paid') {
        const terminal = { ...doc.terminal, paymentIntentId: outcome.paymentIntentId };
        tx.update(ref, { status: 'complete', terminal });
        const counted = { totalCents: doc.totalCents, giftCardCents: giftCardCentsOf(doc.lines), giftCards: doc.lines.length - doc.lines.filter(isBookLine).length, tenders: saleTenders(doc), by: doc.by, priceDiffers: doc.priceDiffers ?? false };
        addToCounters(tx, saleCounterDelta(counted));
        addTakings(tx, doc.day, saleTakings(counted));
        if (outcome.amountCents !== dueOf(doc)) logger.error('Terminal payment of another amount than the sale', { saleId, paidCents: outcome.amountCents, dueCents: dueOf(doc) });
        record('applied');
        return { result: 'applied', sale: { ...doc, status: 'complete', terminal } };
      }
      // The copies back (a book deleted since has no stock to return to), and one audit event.
      const bookLines = doc.lines.filter(isBookLine);
      const bookSnaps = bookLines.length ? await tx.getAll(...bookLines.map((l) => books().doc(l.bookId))) : [];
      countReads(bookSnaps.length);
      const changes: Record<string, FieldChange> = { status: { before: 'awaiting_payment', after: outcome.kind }, why: { before: null, after: outcome.why } };
      const restock = bookSnaps.filter((b) => b.exists).map((book) => ({ book, stockDelta: bookLines.find((l) => l.bookId === book.id)!.quantity }));
      // Issue 57: what a gift card paid goes back on it, and the discount code's use is given back.
      const release = await stageTillPaymentRelease(tx, saleId, doc.payment, doc.discount);
      const staged = await stageBookWrites(tx, restock, { sale: ref.path, staff: actor, action: 'sale.cancel', changes }, now);
      const log = restock.length === 0 ? await openAudit(tx) : null;
      const terminal = { ...doc.terminal, failure: outcome.why };
      tx.update(ref, { status: outcome.kind, terminal });
      release.write(now);
      afterCommit = staged.write();
      if (log) appendAudit(log, actor, { action: 'sale.cancel', target: ref.path, changes }, now);
      record('applied');
      return { result: 'applied', sale: { ...doc, status: outcome.kind, terminal } };
    }, TX_OPTIONS);
  } catch (error) {
    // Two deliveries of one event at once: the loser's create failed; the winner applied it.
    if (eventRef && isAlreadyExists(error)) return { result: 'duplicate', sale: await saleDoc(saleId) };
    return busy(error);
  }
  await afterCommit();
  if (settled.result === 'applied' && outcome.kind !== 'paid' && settled.sale) await voidUnpaidCards(saleId, settled.sale.lines, actor);
  return settled;
}

/**
 * A gift card sold on a sale that was never paid is voided (issue 57: no card for money not taken).
 * After the sale's own transaction, each card in its own (the gift cards' void path); a card voided
 * already is fine, and one that cannot be voided now is logged for a manager to void.
 */
async function voidUnpaidCards(saleId: string, lines: StoredSaleLine[], actor: AuditActor): Promise<void> {
  for (const line of lines) {
    if (line.kind !== 'gift_card') continue;
    await voidGiftCard(actor, line.giftCardId).catch((error: unknown) => {
      if (!(error instanceof HttpError && error.status === 409)) logger.error('Gift card of an unpaid terminal sale not voided', { saleId, giftCardId: line.giftCardId, message: (error as Error).message });
    });
  }
}

/** The sale a Stripe event is about (its PaymentIntent's metadata.saleId), or null. */
async function saleOfEvent(stripe: Stripe, event: Stripe.Event): Promise<{ saleId: string; intent: Stripe.PaymentIntent } | null> {
  if (event.type.startsWith('payment_intent.')) {
    const intent = event.data.object as Stripe.PaymentIntent;
    return intent.metadata?.saleId ? { saleId: intent.metadata.saleId, intent } : null;
  }
  const reader = event.data.object as Stripe.Terminal.Reader;
  const pi = reader.action?.process_payment_intent?.payment_intent;
  const intentId = typeof pi === 'string' ? pi : pi?.id;
  if (!intentId) return null;
  try {
    const intent = await stripe.paymentIntents.retrieve(intentId);
    return intent.metadata?.saleId ? { saleId: intent.metadata.saleId, intent } : null;
  } catch (error) {
    throw providerError(error, 'reading a PaymentIntent'); // 502: Stripe sends the event again
  }
}

/** A Stripe event about a terminal sale: applied once; the answer the webhook logs. */
export async function terminalEvent(stripe: Stripe, event: Stripe.Event): Promise<{ result: string; saleId: string | null }> {
  const found = await saleOfEvent(stripe, event);
  if (!found) return { result: 'ignored', saleId: null };
  const { saleId, intent } = found;
  let outcome: Outcome;
  if (event.type === 'payment_intent.succeeded') outcome = { kind: 'paid', paymentIntentId: intent.id, amountCents: intent.amount_received };
  else if (event.type === 'terminal.reader.action_failed') {
    const action = (event.data.object as Stripe.Terminal.Reader).action;
    outcome = { kind: 'failed', why: action?.failure_message ?? 'The card reader could not take the payment' };
  } else outcome = { kind: 'failed', why: intent.last_payment_error?.message ?? 'The card was declined' };
  const { result, sale } = await settle(saleId, outcome, STRIPE_ACTOR, { id: event.id, type: event.type });
  if (result === 'applied' && outcome.kind === 'failed') {
    // A declined card leaves the PaymentIntent payable: closed, so the sale that gave its copies back cannot be paid later.
    await stripe.paymentIntents.cancel(intent.id).catch((error: unknown) => logger.warn('Could not cancel a failed terminal PaymentIntent', { saleId, message: (error as Error).message }));
  }
  if (outcome.kind === 'paid' && result === 'no-change' && sale && sale.status !== 'complete') {
    // Paid after the sale failed or was cancelled (a race with Cancel): the money goes back, once (its key is the sale's).
    await stripe.refunds.create({ payment_intent: intent.id, reason: 'requested_by_customer', metadata: { saleId } }, idempotency(saleId, 'late-refund'))
      .catch((error: unknown) => logger.error('Refund of a terminal payment after its sale ended not made', { saleId, message: (error as Error).message }));
  }
  return { result, saleId };
}

/**
 * The till's Cancel: the reader stops, the PaymentIntent is cancelled at Stripe, then the sale gives
 * its copies back. A sale Stripe already took the money for cannot be cancelled (409): a return
 * refunds it. A sale already failed or cancelled is answered as it is.
 */
export async function cancelTerminalSale(actor: AuditActor, saleId: string): Promise<Sale> {
  const doc = await saleDoc(saleId);
  if (!doc) throw new HttpError(404, 'Sale not found');
  const complete = () => new HttpError(409, 'This sale is paid: take its books back as a return instead', { code: SALE_NOT_CANCELLABLE, status: 'complete' });
  if (!doc.terminal) throw new HttpError(409, 'Only a card-terminal sale waiting for its payment can be cancelled', { code: SALE_NOT_CANCELLABLE });
  if ((doc.status ?? 'complete') === 'complete') throw complete();
  if (doc.status !== 'awaiting_payment') return toSale(saleId, doc);
  const { stripe } = requireStripe();
  const reader = await readerDoc(doc.terminal.readerId);
  if (reader) {
    // Nothing in progress on the reader (never started, or already ended) is no obstacle to cancelling.
    await stripe.terminal.readers.cancelAction(reader.stripeReaderId).catch((error: unknown) => logger.info('Reader had no action to cancel', { saleId, message: (error as Error).message }));
  }
  const intentId = doc.terminal.paymentIntentId;
  if (intentId) {
    try {
      await stripe.paymentIntents.cancel(intentId, { cancellation_reason: 'requested_by_customer' });
    } catch (error) {
      let intent: Stripe.PaymentIntent;
      try {
        intent = await stripe.paymentIntents.retrieve(intentId);
      } catch (readError) {
        throw providerError(readError, 'reading a PaymentIntent');
      }
      if (intent.status === 'succeeded') {
        // Paid just before Cancel: the sale completes (its event may be on the way) and stays sold.
        await settle(saleId, { kind: 'paid', paymentIntentId: intent.id, amountCents: intent.amount_received }, actor);
        throw complete();
      }
      if (intent.status !== 'canceled') throw providerError(error, 'cancelling a Terminal payment');
    }
  }
  await settle(saleId, { kind: 'cancelled', why: 'Cancelled at the till' }, actor);
  const after = (await saleDoc(saleId))!;
  if (after.status === 'complete') throw complete();
  return toSale(saleId, after);
}

/**
 * A return of a card-terminal sale paid back to the card (refundMethod card_terminal): a Stripe
 * refund of the return's amount, keyed by the return's id, so the return sent again asks for the
 * same refund. Recorded on the return; Stripe failing leaves the return made and the refund marked
 * failed for the manager (the return's own POST sent again tries once more).
 */
export async function refundTerminalReturn(saleId: string, ret: SaleReturn): Promise<Sale> {
  const doc = await saleDoc(saleId);
  const intentId = doc?.terminal?.paymentIntentId;
  const stored = doc?.returns.find((r) => r.id === ret._id);
  if (!doc || !intentId || !stored || ret.refundMethod !== 'card_terminal') return toSale(saleId, doc!);
  if (stored.cardRefund && stored.cardRefund.status !== 'failed') return toSale(saleId, doc);
  const amount = stored.totalCents - (stored.giftCardBack?.cents ?? 0); // a gift card's part went back on it
  if (amount <= 0) return toSale(saleId, doc);
  const { stripe } = requireStripe();
  let cardRefund: NonNullable<typeof stored.cardRefund>;
  try {
    const refund = await stripe.refunds.create({ payment_intent: intentId, amount, reason: 'requested_by_customer', metadata: { saleId, returnId: ret._id } }, idempotency(saleId, `return-${ret._id}`));
    cardRefund = { id: refund.id, status: refund.status === 'succeeded' ? 'succeeded' : refund.status === 'failed' || refund.status === 'canceled' ? 'failed' : 'pending' };
  } catch (error) {
    logger.error('Card refund of a counter return not made', { saleId, returnId: ret._id, message: (error as Error).message });
    cardRefund = { id: null, status: 'failed' };
  }
  const ref = sales().doc(saleId);
  const updated = await db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    const current = snap.data() as SaleDoc;
    const returns = current.returns.map((r) => (r.id === ret._id ? { ...r, cardRefund } : r));
    tx.update(ref, { returns });
    tx.update(saleReturns().doc(ret._id), { cardRefund });
    return { ...current, returns };
  }, TX_OPTIONS);
  return toSale(saleId, updated);
}
