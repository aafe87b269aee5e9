import { Timestamp } from 'firebase-admin/firestore';
import { db } from './firebase';
import { HttpError } from './http-error';
import { runCount, runQuery } from './queries';
import { limitKeyHash, type WindowLimit } from './window-limit';

/**
 * "At most `limit` in any `windowMs`" for one key, without a transaction: each call writes a slot
 * document of its own in `<collection>` (forgotten by Firestore's TTL a window later), then counts
 * the key's slots in the window (one aggregation read). Nothing is contended. window-limit.ts reads
 * and writes one document per key in a transaction, so parallel calls of one key queue behind its
 * lock: four quotes at once from one address took 2-3.5 s each on the emulator instead of 0.1 s
 * (measured), and a browser test's quote waited more than 15 s under load. Parallel calls count each
 * other's slots, so the count errs strict, never loose; a refused call's slot counts too, so a
 * flood keeps itself out. For a budget that guards cost (a read), not a secret (sign-ins keep the
 * transaction: exact, and a slot given back).
 */
export async function takeCountedSlot(limit: WindowLimit, key: string, now = Date.now()): Promise<void> {
  const slots = db().collection(limit.collection);
  const hashed = limitKeyHash(key);
  await slots.add({ key: hashed, at: now, expireAt: Timestamp.fromMillis(now + limit.windowMs) });
  const inWindow = slots.where('key', '==', hashed).where('at', '>', now - limit.windowMs);
  const taken = await runCount(inWindow);
  if (taken <= limit.limit) return;
  // When the oldest slot leaves the window (a hint: the others may still be over the limit then).
  const oldest = (await runQuery(inWindow.orderBy('at').limit(1))).docs[0]?.get('at') as number | undefined;
  const retryAfter = Math.max(1, Math.ceil(((oldest ?? now) + limit.windowMs - now) / 1000));
  throw new HttpError(429, limit.message, {}, { 'Retry-After': String(retryAfter) });
}
