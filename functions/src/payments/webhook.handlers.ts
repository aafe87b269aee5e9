import type { Request, Response } from 'express';
import { logger } from 'firebase-functions/logger';
import { HttpError } from '../lib/http-error';
import { providerError } from './stripe-client';
import { disputeFact, refundFact, paymentIntentOfEvent, sessionFact, sessionOrderId, type Fact } from './payment-facts';
import { applyAndSettle } from './cancel-refunds';
import { stripeFromEnv, WEBHOOK_TOLERANCE_SECONDS, type Stripe } from './stripe-client';
import { TERMINAL_EVENTS, terminalEvent } from '../sales/terminal';

// POST /api/stripe/webhook: what Stripe tells the shop about payments and refunds.
// The signature is checked on the request's raw bytes: both runtimes (functions-framework on Cloud
// Run, the Functions emulator) parse the body before our app and keep those bytes as req.rawBody
// (their body-parser `verify`, which lib/body-parse-errors.ts keeps). A re-serialised req.body
// would not match the signature; it is never used. docs/decisions/030-card-payments.md.

/** Every event the shop subscribes to (docs/operations.md lists the same, checked by a test). */
export const SUBSCRIBED_EVENTS = (): string[] => [...SESSION_EVENTS, ...REFUND_EVENTS, ...DISPUTE_EVENTS, ...TERMINAL_EVENTS];

const SESSION_EVENTS = new Set([
  'checkout.session.completed', 'checkout.session.async_payment_succeeded', 'checkout.session.async_payment_failed', 'checkout.session.expired',
]);
const REFUND_EVENTS = new Set(['charge.refunded', 'refund.created', 'refund.updated', 'refund.failed']);
/** Chargebacks (issue 54): the order carries the dispute from its opening to its close. */
const DISPUTE_EVENTS = new Set(['charge.dispute.created', 'charge.dispute.updated', 'charge.dispute.closed']);

/** The order a refund or dispute event is about: the desk's refunds carry it; any other, through its PaymentIntent's metadata. */
async function orderIdOfPayment(stripe: Stripe, event: Stripe.Event, paymentIntent: string): Promise<string | null> {
  const own = (event.data.object as { metadata?: Record<string, string> | null }).metadata?.orderId;
  if (own) return own;
  try {
    return (await stripe.paymentIntents.retrieve(paymentIntent)).metadata?.orderId ?? null;
  } catch (error) {
    throw providerError(error, 'reading a PaymentIntent'); // 502: Stripe retries the event
  }
}

/** The refunds a refund event is about: the one refund, or for charge.refunded every refund of the payment. */
async function refundsOf(stripe: Stripe, event: Stripe.Event, paymentIntent: string): Promise<Fact> {
  if (event.type !== 'charge.refunded') return { kind: 'refunds', refunds: [refundFact(event.data.object as Stripe.Refund)] };
  try {
    const list = await stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 });
    return { kind: 'refunds', refunds: list.data.map(refundFact) };
  } catch (error) {
    throw providerError(error, 'listing refunds');
  }
}

export async function stripeWebhook(req: Request, res: Response) {
  const s = stripeFromEnv();
  if (!s) throw new HttpError(404, 'Card payments are off');
  const raw = (req as Request & { rawBody?: Buffer }).rawBody;
  if (!Buffer.isBuffer(raw)) {
    // A runtime that does not keep the bytes: nothing can be verified. 500 so Stripe retries meanwhile.
    logger.error('Stripe webhook without req.rawBody: the signature cannot be checked');
    throw new Error('raw body unavailable');
  }
  const signature = req.headers['stripe-signature'];
  if (typeof signature !== 'string' || signature === '') throw new HttpError(400, 'Missing Stripe-Signature header');
  let event: Stripe.Event;
  try {
    event = s.stripe.webhooks.constructEvent(raw, signature, s.config.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
  } catch {
    logger.warn('Stripe webhook refused: bad signature', { bytes: raw.length });
    throw new HttpError(400, 'Invalid Stripe signature');
  }
  if (TERMINAL_EVENTS.has(event.type)) {
    // Issue 57: a counter sale paid on a Terminal reader (sales/terminal.ts), applied once.
    const { result, saleId } = await terminalEvent(s.stripe, event);
    logger.info('Stripe terminal event', { eventId: event.id, type: event.type, saleId, result });
    res.json({ received: true, result });
    return;
  }
  let orderId: string | null = null;
  let fact: Fact;
  if (SESSION_EVENTS.has(event.type)) {
    orderId = sessionOrderId(event.data.object as Stripe.Checkout.Session);
    fact = sessionFact(event);
  } else if (DISPUTE_EVENTS.has(event.type)) {
    const paymentIntent = paymentIntentOfEvent(event);
    orderId = paymentIntent ? await orderIdOfPayment(s.stripe, event, paymentIntent) : null;
    fact = orderId ? disputeFact(event.data.object as Stripe.Dispute) : { kind: 'none', why: 'a dispute of no order of ours' };
  } else if (REFUND_EVENTS.has(event.type)) {
    const paymentIntent = paymentIntentOfEvent(event);
    if (paymentIntent) {
      orderId = await orderIdOfPayment(s.stripe, event, paymentIntent);
      fact = orderId ? await refundsOf(s.stripe, event, paymentIntent) : { kind: 'none', why: 'no order' };
    } else {
      fact = { kind: 'none', why: 'a refund without a PaymentIntent' };
    }
  } else {
    // Not an event the shop subscribes to (the endpoint may be set up with more): acknowledged, not stored.
    res.json({ received: true, result: 'ignored' });
    return;
  }
  const { result, note } = await applyAndSettle(event.id, event.type, orderId, fact);
  const entry = { eventId: event.id, type: event.type, orderId, result, note };
  if (result === 'unknown-order') logger.warn('Stripe event for an unknown order', entry);
  else logger.info('Stripe event', entry);
  res.json({ received: true, result });
}
