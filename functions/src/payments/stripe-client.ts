import { logger } from 'firebase-functions/logger';
import Stripe from 'stripe';
import { HttpError } from '../lib/http-error';
import { cardConfig, type CardConfig } from './card-config';

// Card payments through the official `stripe` SDK, pinned to one API version (the SDK's own, checked
// by the compiler: a new SDK with another version does not build until this line is changed on
// purpose, after reading Stripe's changelog for the objects the shop reads).
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;

/** Seconds a webhook's signed timestamp may differ from our clock (Stripe's default, and the issue's). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export { assertStripeConfig, cardConfig, cardPaymentsOn, OFF, type CardConfig } from './card-config';

let cached: { key: string; client: Stripe } | undefined;

/** The SDK for `config`: its host, port and protocol are the stand-in's when STRIPE_API_BASE is set. */
export function stripeFor(config: CardConfig): Stripe {
  const cacheKey = `${config.secretKey}|${config.apiBase?.href ?? ''}`;
  if (cached?.key === cacheKey) return cached.client;
  const base = config.apiBase;
  const client = new Stripe(config.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    // Stripe's idempotency keys make the SDK's own retries safe; each request waits at most 10 s.
    maxNetworkRetries: 2,
    timeout: 10_000,
    appInfo: { name: 'bookstore' },
    ...(base ? { host: base.hostname, port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)), protocol: base.protocol === 'https:' ? 'https' : 'http' } : {}),
  });
  cached = { key: cacheKey, client };
  return client;
}

/** Builds the SDK from the environment, or null when card payments are off. */
export function stripeFromEnv(env: NodeJS.ProcessEnv = process.env): { stripe: Stripe; config: CardConfig } | null {
  const config = cardConfig(env);
  return config ? { stripe: stripeFor(config), config } : null;
}

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

export type { Stripe };
