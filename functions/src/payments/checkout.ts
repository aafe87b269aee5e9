import type { Order } from '@bookstore/contract';
import { logger } from 'firebase-functions/logger';
import { HttpError } from '../lib/http-error';
import type { OrderDoc } from '../orders/orders.repo';
import { siteOrigin } from '../pages/site-origin';
import { sessionClock, sessionIdempotencyKey, sessionParams } from './checkout-session';
import { attachSession, beginAttempt } from './payments.repo';
import { stripeFromEnv, type Stripe } from './stripe-client';

// Opening a Stripe Checkout session for a card order: the one call to Stripe at checkout. The card
// number is typed on Stripe's page, never on ours.

/** Stripe (or the network to it) failed: the order stays awaiting and the same request can be sent again. */
export function providerError(error: unknown, what: string): HttpError {
  const e = error as { type?: string; code?: string; statusCode?: number; message?: string };
  logger.error(`Stripe: ${what} failed`, { type: e.type, code: e.code, statusCode: e.statusCode, message: e.message });
  return new HttpError(502, 'The card payment service did not answer. Please try again.', { code: 'PAYMENT_PROVIDER_ERROR' }, { 'Retry-After': '5' });
}

export function requireStripe(): { stripe: Stripe; webhookSecret: string } {
  const s = stripeFromEnv();
  if (!s) throw new HttpError(422, 'Card payments are not available: choose cash on delivery', { code: 'CARD_PAYMENTS_OFF' });
  return { stripe: s.stripe, webhookSecret: s.config.webhookSecret };
}

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
    try {
      session = await createSession(stripe, orderId, doc, attempt);
    } catch (error) {
      if (!(attempt === 1 && uid && keyUsedOtherwise(error))) throw error;
      logger.warn('Checkout: the first session key was used with other parameters; opening the second', { orderId });
      const next = await beginAttempt(orderId, uid, attempt);
      ({ doc, attempt } = next);
      session = await createSession(stripe, orderId, doc, attempt);
    }
  } catch (error) {
    if (error instanceof HttpError) throw error; // the order can no longer be paid (beginAttempt)
    throw providerError(error, 'creating a Checkout session');
  }
  if (!session.url) throw providerError(new Error('session without url'), 'creating a Checkout session');
  const order = await attachSession(orderId, attempt, { id: session.id, url: session.url, expiresAt: session.expires_at });
  return { order, checkoutUrl: session.url, sessionId: session.id };
}
