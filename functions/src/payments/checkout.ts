import type { Order } from '@bookstore/contract';
import { logger } from 'firebase-functions/logger';
import { HttpError } from '../lib/http-error';
import { siteOrigin } from '../pages/site-origin';
import { sessionClock, sessionIdempotencyKey, sessionParams } from './checkout-session';
import { orderFromDoc, type OrderDoc } from '../orders/orders.repo';
import { attachSession, beginAttempt, openingFailed, readOrder } from './payments.repo';
import { closeSession } from './sessions';
import { providerError, requireStripe, type Stripe } from './stripe-client';

// Opening a Stripe Checkout session for a card order: the one call to Stripe at checkout. The card
// number is typed on Stripe's page, never on ours.

export interface OpenedSession {
  order: Order;
  checkoutUrl: string;
  sessionId: string;
}

/** Attempt `attempt`'s session at Stripe, under the attempt's idempotency key (a retry gets the same session). */
function createSession(stripe: Stripe, orderId: string, doc: OrderDoc, attempt: number): Promise<Stripe.Checkout.Session> {
  const params = sessionParams({ orderId, order: doc, origin: siteOrigin(), attempt, now: sessionClock(doc, attempt) });
  return stripe.checkout.sessions.create(params, { idempotencyKey: sessionIdempotencyKey(orderId, attempt) });
}

/** Stripe refused a key it had seen with other parameters. */
const keyUsedOtherwise = (error: unknown) => (error as { type?: string } | null)?.type === 'StripeIdempotencyError';

/**
 * Opens attempt `attempt`'s session and stores it as the order's current one. For the first
 * attempt, `uid` (the shopper sending the order again) lets a refused key move the order on: Stripe
 * keeps a key's first request for a day, so a checkout sent again after sessionClock's minute, when
 * Stripe had opened the first session but its answer was lost, is refused for its new expiry. That
 * session's page reached nobody; the order goes on to its second attempt, as 'Pay Now' would,
 * instead of answering 502 to every retry.
 */
export async function openSession(orderId: string, doc: OrderDoc, attempt: number, uid?: string): Promise<OpenedSession> {
  const { stripe } = requireStripe();
  let session: Stripe.Checkout.Session;
  try {
    session = await createSession(stripe, orderId, doc, attempt);
  } catch (error) {
    if (!(attempt === 1 && uid && keyUsedOtherwise(error))) throw await failed(orderId, attempt, error);
    logger.warn('Checkout: the first session key was used with other parameters; opening the second', { orderId });
    return secondAttempt(stripe, orderId, uid);
  }
  return attached(stripe, orderId, attempt, session);
}

/** The first attempt's key is spent: a session another request attached meanwhile, else attempt two. */
async function secondAttempt(stripe: Stripe, orderId: string, uid: string): Promise<OpenedSession> {
  const current = currentSession(orderId, await readOrder(orderId));
  if (current) return current;
  const next = await beginAttempt(orderId, uid, 1);
  let session: Stripe.Checkout.Session;
  try {
    session = await createSession(stripe, orderId, next.doc, next.attempt);
  } catch (error) {
    throw await failed(orderId, next.attempt, error);
  }
  // One attached between that read and beginAttempt is replaced: closed at Stripe, as 'Pay Now' does.
  return retirePrevious(stripe, orderId, next.previous, await attached(stripe, orderId, next.attempt, session));
}

/**
 * Once the new session is the order's (issue 54: never before), the one it replaced is closed at
 * Stripe. Paid meanwhile: recorded, the new one closed too, and 409 ORDER_PAID. Stripe not
 * answering: the old one ends by itself (a retired session's end does not end the order).
 */
export async function retirePrevious(stripe: Stripe, orderId: string, previous: string | undefined, opened: OpenedSession): Promise<OpenedSession> {
  if (!previous || previous === opened.sessionId) return opened;
  const closed = await closeSession(stripe, orderId, previous).catch((error: unknown) => {
    logger.warn('Pay Now: the previous session could not be closed; it ends by itself', { orderId, sessionId: previous, message: (error as Error).message });
    return 'open' as const;
  });
  if (closed !== 'paid') return opened;
  await closeSession(stripe, orderId, opened.sessionId).catch(() => 'open' as const);
  throw new HttpError(409, 'This order is already paid', { code: 'ORDER_PAID' });
}

/** Stripe did not open the session: a 502 to send again, and the attempt's hold on 'Pay Now' let go. */
export async function failed(orderId: string, attempt: number, error: unknown): Promise<HttpError> {
  await openingFailed(orderId, attempt).catch(() => {}); // else it lapses within a minute
  return providerError(error, 'creating a Checkout session');
}

/** The order's open session, unless another request has just retired it and is opening the next. */
function currentSession(orderId: string, doc: OrderDoc | null): OpenedSession | null {
  const p = doc?.payment;
  if (!doc || !p?.sessionId || !p.checkoutUrl || p.status !== 'awaiting' || p.retiredSessions?.includes(p.sessionId)) return null;
  return { order: orderFromDoc(orderId, doc), checkoutUrl: p.checkoutUrl, sessionId: p.sessionId };
}

/**
 * Stores `session` as the order's current one. When another request moved the order on meanwhile
 * (a later attempt, or paid or cancelled), this session is closed at Stripe, never left payable,
 * and the answer is the order's current session if it has one ready; else 409.
 */
async function attached(stripe: Stripe, orderId: string, attempt: number, session: Stripe.Checkout.Session): Promise<OpenedSession> {
  if (!session.url) throw providerError(new Error('session without url'), 'creating a Checkout session');
  const order = await attachSession(orderId, attempt, { id: session.id, url: session.url, expiresAt: session.expires_at });
  if (order.payment.sessionId === session.id) return { order, checkoutUrl: session.url, sessionId: session.id };
  await closeSession(stripe, orderId, session.id).catch((error: unknown) => logger.warn('Checkout: could not close a session left behind', { orderId, sessionId: session.id, message: (error as Error).message }));
  const doc = await readOrder(orderId);
  const p = doc?.payment;
  const current = currentSession(orderId, doc);
  if (current) return current;
  if (doc?.status === 'pending' && p?.status === 'awaiting') {
    throw new HttpError(409, 'Another payment page is being opened for this order. Open the order to pay.', { code: 'PAYMENT_IN_PROGRESS' }, { 'Retry-After': '2' });
  }
  throw new HttpError(409, 'This order cannot be paid any more', { code: 'NOT_PAYABLE', status: doc?.status ?? null, payment: p?.status ?? null });
}
