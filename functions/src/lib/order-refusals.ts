import type { Request } from 'express';
import { logger } from 'firebase-functions/logger';
import { clientAddress } from '../admin/client-address';
import { HttpError } from './http-error';
import { slotsSpent, takeSlot, type WindowLimit } from './window-limit';

// Refused orders are budgeted (issue 55). A refusal about a secret (a discount code or a gift card
// that does not exist, is paused, used up or empty) tells the caller something a script could keep
// asking about; so each such refusal takes a slot of the account's budget and of the client
// address's, and once either is spent POST /api/orders answers 429 with Retry-After before it reads
// anything. Refusals about what the shop shows anyway (stock, a changed price, a delivery that does
// not reach the address, too many open orders) and those decided from the request alone (400, 401,
// 403, 413, 415) are not counted: a shopper correcting an address or a cart is never locked out.
// One document per key in orderRefusals (lib/window-limit.ts), forgotten by Firestore's TTL.

export const ORDER_REFUSALS_PER_ACCOUNT = 20;
export const ORDER_REFUSALS_PER_ADDRESS = 60;
export const ORDER_REFUSAL_WINDOW_MS = 15 * 60 * 1000;
const COUNTED = new Set([404, 409, 422]);
/** The refusals that probe a secret: discount codes and gift cards. */
const probes = (error: HttpError) => /^(DISCOUNT|GIFT_CARD)_/.test(String(error.extra.code ?? ''));

const MESSAGE = 'Too many refused orders. Try again later.';
const ACCOUNT: WindowLimit = { collection: 'orderRefusals', limit: ORDER_REFUSALS_PER_ACCOUNT, windowMs: ORDER_REFUSAL_WINDOW_MS, message: MESSAGE };
const ADDRESS: WindowLimit = { ...ACCOUNT, limit: ORDER_REFUSALS_PER_ADDRESS };

/**
 * The account a Firebase ID token names, read without checking it: enough to look its budget up
 * before the (costlier) verification. A refusal is counted only against a verified account.
 */
function claimedUid(req: Request): string | undefined {
  const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { user_id?: unknown; sub?: unknown };
    const uid = claims.user_id ?? claims.sub;
    return typeof uid === 'string' && uid.length > 0 && uid.length <= 128 ? uid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The address key; none for the loopback or no address at all: only a local caller (the emulators'
 * tests and browser, all one address) comes so, as Cloud Run always reports the client's address.
 */
function addressOf(req: Request): string | undefined {
  const address = clientAddress(req);
  return ['127.0.0.1', '0000:0000:0000:0000::/64', 'other:unknown'].includes(address) ? undefined : address;
}

/** 429 with Retry-After when the account's or the address's budget of refusals is spent. Two reads at most. */
export async function checkOrderRefusals(req: Request, now = Date.now()): Promise<void> {
  const uid = claimedUid(req);
  const address = addressOf(req);
  const waits = await Promise.all([uid ? slotsSpent(ACCOUNT, `account:${uid}`, now) : 0, address ? slotsSpent(ADDRESS, `address:${address}`, now) : 0]);
  const wait = Math.max(...waits);
  if (wait > 0) throw new HttpError(429, MESSAGE, { code: 'TOO_MANY_REFUSED_ORDERS' }, { 'Retry-After': String(wait) });
}

/**
 * Counts a refusal (see above) against the address and the account. Only POST /api/orders' answers
 * after its token was verified are 404, 409 or 422 (an unverified or unknown token is 401 or 403
 * first), so the account the token names is then the verified one. Never fails the request: the
 * refusal is the answer either way.
 */
export async function countOrderRefusal(req: Request, error: unknown, now = Date.now()): Promise<void> {
  if (!(error instanceof HttpError) || !COUNTED.has(error.status) || !probes(error)) return;
  const uid = claimedUid(req);
  const address = addressOf(req);
  const take = (limit: WindowLimit, key: string) => takeSlot(limit, key, now).catch((e: unknown) => {
    if (!(e instanceof HttpError && e.status === 429)) logger.warn('Order refusal not counted', { message: String((e as Error)?.message ?? e) });
  });
  await Promise.all([uid ? take(ACCOUNT, `account:${uid}`) : undefined, address ? take(ADDRESS, `address:${address}`) : undefined]);
}
