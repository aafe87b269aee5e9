import type { Order } from '@bookstore/contract';
import { logger } from 'firebase-functions/logger';
import { HttpError } from '../lib/http-error';
import type { OrderDoc } from '../orders/orders.repo';
import { siteOrigin } from '../pages/site-origin';
import { sessionClock, sessionIdempotencyKey, sessionParams } from './checkout-session';
import { attachSession } from './payments.repo';
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

/**
 * Opens attempt `attempt`'s session (an idempotency key per order attempt: a retry, ours or the
 * SDK's, gets the same session) and stores it as the order's current one.
 */
export async function openSession(orderId: string, doc: OrderDoc, attempt: number): Promise<OpenedSession> {
  const { stripe } = requireStripe();
  let session: Stripe.Checkout.Session;
  try {
    const params = sessionParams({ orderId, order: doc, origin: siteOrigin(), attempt, now: sessionClock(doc, attempt) });
    session = await stripe.checkout.sessions.create(params, { idempotencyKey: sessionIdempotencyKey(orderId, attempt) });
  } catch (error) {
    throw providerError(error, 'creating a Checkout session');
  }
  if (!session.url) throw providerError(new Error('session without url'), 'creating a Checkout session');
  const order = await attachSession(orderId, attempt, { id: session.id, url: session.url, expiresAt: session.expires_at });
  return { order, checkoutUrl: session.url, sessionId: session.id };
}
