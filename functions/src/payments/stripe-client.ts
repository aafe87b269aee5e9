import Stripe from 'stripe';
import { isLoopbackHost, stripeSecretKey, stripeWebhookSecret } from '../config';

// Card payments through the official `stripe` SDK, pinned to one API version (the SDK's own, checked
// by the compiler: a new SDK with another version does not build until this line is changed on
// purpose, after reading Stripe's changelog for the objects the shop reads).
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;

/** Seconds a webhook's signed timestamp may differ from our clock (Stripe's default, and the issue's). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface CardConfig {
  secretKey: string;
  webhookSecret: string;
  /** The local stand-in (STRIPE_API_BASE, loopback only); unset: Stripe's own api.stripe.com. */
  apiBase?: URL;
}

const KEY_SHAPE = /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/;
const WEBHOOK_SECRET_SHAPE = /^whsec_[A-Za-z0-9+/=]{8,}$/;
/** A secret that exists (every declared secret must, to deploy) but turns card payments off. */
export const OFF = 'off';

const blank = (value: string | undefined) => !value || value.trim() === '' || value.trim().toLowerCase() === OFF;

/**
 * Card payments are on when both secrets hold Stripe values; off (cash only) when both are unset or
 * `off`. One without the other, or a value of the wrong shape, is a configuration mistake: thrown,
 * so `api` refuses to start with it on Cloud Run (assertStripeConfig) rather than take orders it
 * cannot be paid for.
 */
export function cardConfig(env: NodeJS.ProcessEnv = process.env): CardConfig | null {
  const key = env[stripeSecretKey.name]?.trim();
  const secret = env[stripeWebhookSecret.name]?.trim();
  if (blank(key) && blank(secret)) return null;
  if (blank(key) || blank(secret)) {
    throw new Error(`Card payments need both ${stripeSecretKey.name} and ${stripeWebhookSecret.name} (or both set to "${OFF}")`);
  }
  if (!KEY_SHAPE.test(key!)) throw new Error(`${stripeSecretKey.name} is not a Stripe secret key (sk_test_..., sk_live_... or a restricted rk_... key)`);
  if (!WEBHOOK_SECRET_SHAPE.test(secret!)) throw new Error(`${stripeWebhookSecret.name} is not a webhook signing secret (whsec_...)`);
  const base = env.STRIPE_API_BASE?.trim();
  if (base && !isLoopbackHost(base)) throw new Error('STRIPE_API_BASE may only name this machine (the local stand-in for Stripe)');
  return { secretKey: key!, webhookSecret: secret!, ...(base ? { apiBase: new URL(base) } : {}) };
}

/** Whether card payments are on; a broken configuration reads as off here (the start-up check names it). */
export function cardPaymentsOn(env: NodeJS.ProcessEnv = process.env): boolean {
  try {
    return cardConfig(env) !== null;
  } catch {
    return false;
  }
}

/**
 * On Cloud Run (and the emulator, which sets K_SERVICE too) the function that declares the Stripe
 * secrets refuses to start with a half or malformed configuration. Skipped while firebase-tools reads
 * the triggers (no secret exists then) and for functions that do not declare them.
 */
export function assertStripeConfig(env: NodeJS.ProcessEnv = process.env, declared: string[] | null = null): void {
  if (env.FUNCTIONS_CONTROL_API === 'true' || !env.K_SERVICE) return;
  if (declared && !declared.includes(stripeSecretKey.name)) return;
  cardConfig(env);
}

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

export type { Stripe };
