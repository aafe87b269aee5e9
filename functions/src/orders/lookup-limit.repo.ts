import { takeSlot, type WindowLimit } from '../lib/window-limit';

// A signed-in customer who asks for other addresses' orders (GET /api/orders/email/<someone else>)
// learns nothing (403 for every one), but asking is how an address list is tried out against the
// shop: each account gets FOREIGN_LOOKUPS such refusals per window, then 429 with Retry-After.
// One document per account in lookupLimits, forgotten by Firestore's TTL (firestore.indexes.json).

export const FOREIGN_LOOKUPS = 5;
export const FOREIGN_LOOKUP_WINDOW_MS = 15 * 60 * 1000;

const FOREIGN_LOOKUP_LIMIT: WindowLimit = {
  collection: 'lookupLimits',
  limit: FOREIGN_LOOKUPS,
  windowMs: FOREIGN_LOOKUP_WINDOW_MS,
  message: 'Too many lookups of other addresses. Try again later.',
};

/** Counts one foreign lookup for `uid`; throws 429 once the window's budget is spent. */
export async function countForeignLookup(uid: string, now = Date.now()): Promise<void> {
  await takeSlot(FOREIGN_LOOKUP_LIMIT, uid, now);
}
