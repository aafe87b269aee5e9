import { createHash } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { countReads } from '../lib/read-counter';

// Windowed limits for the public sign-up routes (newsletter, back-in-stock alerts), in the manner of
// orders/lookup-limit.repo.ts: one document per key and window, rateLimits/<sha256 of the key>, so
// no address or IP is stored in the clear; Firestore's TTL policy on `expireAt` forgets it
// (firestore.indexes.json).

export const RATE_LIMITS_COLLECTION = 'rateLimits';

interface WindowDoc {
  count: number;
  windowStart: number;
  expireAt: Timestamp;
}

export interface WindowAnswer {
  allowed: boolean;
  /** Seconds until the window ends (for Retry-After), when refused. */
  retryAfter: number;
}

/** Counts one use of `key`; `allowed` is false (and nothing is counted) once `limit` uses were made in the window. */
export async function takeFromWindow(key: string, limit: number, windowMs: number, now = Date.now()): Promise<WindowAnswer> {
  const ref = db().collection(RATE_LIMITS_COLLECTION).doc(createHash('sha256').update(key).digest('hex').slice(0, 40));
  const answer = await db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    const stored = snap.exists ? (snap.data() as WindowDoc) : null;
    const current = stored && now - stored.windowStart < windowMs ? stored : null;
    const windowStart = current?.windowStart ?? now;
    if (current && current.count >= limit) {
      return { allowed: false, retryAfter: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)) };
    }
    tx.set(ref, { count: (current?.count ?? 0) + 1, windowStart, expireAt: Timestamp.fromMillis(windowStart + windowMs) });
    return { allowed: true, retryAfter: 0 };
  });
  countReads(1);
  return answer;
}
