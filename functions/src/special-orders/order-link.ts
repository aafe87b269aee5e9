import { OPEN_SPECIAL_STATUSES, type StoredSpecialOrder } from '@bookstore/contract';
import type { DocumentReference, Transaction } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { countReads } from '../lib/read-counter';
import { releasePlace } from './open-places';

// A special order's request and the order it placed (`special-<id>`, when its shopper accepted the
// quote) end together: an order cancelled or refused by anyone (the shopper, the desk, a hold that
// ran out) closes the request in the same transaction, so the shopper's list and the desk's never
// show an open request for an order that is gone, and the account gets its place back. (The
// request's own 'cancelled' move cancels the order itself: special-orders.repo.ts.)

export const SPECIAL_ORDERS_COLLECTION = 'specialOrders';
const ORDER_PREFIX = 'special-';

export interface OpenRequest {
  ref: DocumentReference;
  doc: StoredSpecialOrder;
}

/** The open request behind order `orderId`, read in `tx` (before any write); null for any other order. */
export async function readOpenRequestOf(tx: Transaction, orderId: string): Promise<OpenRequest | null> {
  if (!orderId.startsWith(ORDER_PREFIX)) return null;
  const ref = db().collection(SPECIAL_ORDERS_COLLECTION).doc(orderId.slice(ORDER_PREFIX.length));
  const snap = await tx.get(ref);
  countReads(1);
  const doc = snap.data() as StoredSpecialOrder | undefined;
  return doc && doc.orderId === orderId && OPEN_SPECIAL_STATUSES.includes(doc.status) ? { ref, doc } : null;
}

/** Closes the request with its order: cancelled, by whoever ended the order, and off the account's open count. */
export function closeRequest(tx: Transaction, { ref, doc }: OpenRequest, by: 'customer' | 'staff', at: string): void {
  tx.set(ref, { ...doc, status: 'cancelled', updatedAt: at, history: [...doc.history, { status: 'cancelled', at, by }] } satisfies StoredSpecialOrder);
  releasePlace(tx, doc);
}
