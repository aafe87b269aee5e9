import { createHash } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { db } from './firebase';
import { HttpError } from './http-error';
import { countReads } from './read-counter';

/**
 * "At most `limit` in any `windowMs`" for one key, kept as the times of the slots taken
 * (a sliding log, at most `limit` numbers) in `<collection>/<sha256(key)>`, which Firestore's TTL
 * policy forgets a window after its last slot (firestore.indexes.json). A slot is taken in a
 * transaction before the work it guards, so parallel requests cannot slip past the limit; work
 * that turns out not to count (a successful sign-in) gives its slot back.
 */
export interface WindowLimit {
  collection: string;
  limit: number;
  windowMs: number;
  /** The 429's message. */
  message: string;
}

interface WindowDoc {
  stamps: number[];
  expireAt: Timestamp;
}

/** How a limit stores its key (an address, a username): hashed, never in clear. */
export const limitKeyHash = (key: string) => createHash('sha256').update(key).digest('hex');

const refFor = (limit: WindowLimit, key: string) => db().collection(limit.collection).doc(limitKeyHash(key));

const live = (doc: WindowDoc | undefined, limit: WindowLimit, now: number) =>
  (doc?.stamps ?? []).filter((stamp) => typeof stamp === 'number' && now - stamp < limit.windowMs);

const stored = (stamps: number[], limit: WindowLimit) => ({
  stamps,
  expireAt: Timestamp.fromMillis(Math.max(...stamps) + limit.windowMs),
});

/** Takes one slot of `key`'s window, or throws 429 with Retry-After (when the oldest slot frees). Returns the slot. */
export async function takeSlot(limit: WindowLimit, key: string, now = Date.now()): Promise<number> {
  const ref = refFor(limit, key);
  await db().runTransaction(async (tx) => {
    const stamps = live((await tx.get(ref)).data() as WindowDoc | undefined, limit, now);
    if (stamps.length >= limit.limit) {
      const retryAfter = Math.max(1, Math.ceil((Math.min(...stamps) + limit.windowMs - now) / 1000));
      throw new HttpError(429, limit.message, {}, { 'Retry-After': String(retryAfter) });
    }
    tx.set(ref, stored([...stamps, now], limit));
  });
  countReads(1);
  return now;
}

/**
 * Without taking a slot: 0 when `key` has one left now, else the seconds until its oldest frees.
 * One read, no transaction (a budget of refusals checked before the work: lib/order-refusals.ts).
 */
export async function slotsSpent(limit: WindowLimit, key: string, now = Date.now()): Promise<number> {
  const stamps = live((await refFor(limit, key).get()).data() as WindowDoc | undefined, limit, now);
  countReads(1);
  if (stamps.length < limit.limit) return 0;
  return Math.max(1, Math.ceil((Math.min(...stamps) + limit.windowMs - now) / 1000));
}

/** Gives back a slot takeSlot returned (one of that time; the others stay). */
export async function giveBackSlot(limit: WindowLimit, key: string, slot: number, now = Date.now()): Promise<void> {
  const ref = refFor(limit, key);
  await db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    const stamps = live(snap.data() as WindowDoc | undefined, limit, now);
    const at = stamps.indexOf(slot);
    if (at < 0) return;
    stamps.splice(at, 1);
    if (stamps.length === 0) tx.delete(ref);
    else tx.set(ref, stored(stamps, limit));
  });
  countReads(1);
}
