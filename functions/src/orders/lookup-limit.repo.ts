import { Timestamp } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { countReads } from '../lib/read-counter';

// A signed-in customer who asks for other addresses' orders (GET /api/orders/email/<someone else>)
// learns nothing (403 for every one), but asking is how an address list is tried out against the
// shop: each account gets FOREIGN_LOOKUPS such refusals per window, then 429 with Retry-After.
// One document per account, lookupLimits/<uid>, forgotten by Firestore's TTL (firestore.indexes.json).

export const FOREIGN_LOOKUPS = 5;
export const FOREIGN_LOOKUP_WINDOW_MS = 15 * 60 * 1000;

interface LookupDoc {
  count: number;
  windowStart: number;
  expireAt: Timestamp;
}

/** Counts one foreign lookup for `uid`; throws 429 once the window's budget is spent. */
export async function countForeignLookup(uid: string, now = Date.now()): Promise<void> {
  const ref = db().collection('lookupLimits').doc(uid);
  await db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    const stored = snap.exists ? (snap.data() as LookupDoc) : null;
    const current = stored && now - stored.windowStart < FOREIGN_LOOKUP_WINDOW_MS ? stored : null;
    const windowStart = current?.windowStart ?? now;
    if (current && current.count >= FOREIGN_LOOKUPS) {
      const retryAfter = Math.max(1, Math.ceil((windowStart + FOREIGN_LOOKUP_WINDOW_MS - now) / 1000));
      throw new HttpError(429, 'Too many lookups of other addresses. Try again later.', {}, { 'Retry-After': String(retryAfter) });
    }
    tx.set(ref, { count: (current?.count ?? 0) + 1, windowStart, expireAt: Timestamp.fromMillis(windowStart + FOREIGN_LOOKUP_WINDOW_MS) });
  });
  countReads(1);
}
