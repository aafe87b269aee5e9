import { isLoopbackHost, stripeSecretKey, stripeWebhookSecret } from '../config';

// Whether card payments are on, from the two Stripe secrets, without the Stripe SDK: functions/src/index.ts
// checks it as every instance starts, and the entry loads no function's code (issue 38, decision 038b).

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
