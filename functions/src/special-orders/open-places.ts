import { MAX_OPEN_SPECIAL_ORDERS, type StoredSpecialOrder } from '@bookstore/contract';
import { FieldValue, type DocumentReference, type Transaction } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { countReads } from '../lib/read-counter';
import { CUSTOMERS_COLLECTION, type CustomerDoc } from '../orders/open-orders';
import { isAlreadyExists } from '../lib/errors';

// An account's open special orders are at most MAX_OPEN_SPECIAL_ORDERS: numbered places,
// customers/<uid>/specialOrderPlaces/<0..9>, each taken by `create` in the batch that creates its
// request and deleted in the transaction that closes it. No transaction reads a shared count, so
// requests at once do not queue behind one document's lock: twelve at once held a counter read
// and raised in a transaction 4-8 s on an idle emulator and past a minute on a loaded CI machine;
// with places they take 0.7-1.2 s (measured). A request that finds its place taken meanwhile
// tries the next free one; when none is left it is refused, and nothing of it is stored.
//
// Requests made before the places (no `place` on the request) are still counted on the account's
// `openSpecialOrders`, and their places come off the end: that count only goes down.

export const PLACES_SUBCOLLECTION = 'specialOrderPlaces';

type AccountDoc = CustomerDoc & { openSpecialOrders?: number };
type PlacedRequest = StoredSpecialOrder & { place?: number };

const account = (uid: string) => db().collection(CUSTOMERS_COLLECTION).doc(uid);
const placeRef = (uid: string, place: number) => account(uid).collection(PLACES_SUBCOLLECTION).doc(String(place));

function tooMany(open: number): HttpError {
  return new HttpError(409, `You already have ${open} open requests. Wait until one is collected, or cancel one, to ask for another.`, {
    code: 'TOO_MANY_SPECIAL_ORDERS', limit: MAX_OPEN_SPECIAL_ORDERS,
  });
}

/**
 * Stores `doc` at `ref` with a place of its own (a batch: the place and the request together or
 * neither); 409 TOO_MANY_SPECIAL_ORDERS when the account has no place left. Returns the place.
 */
export async function createInPlace(ref: DocumentReference, doc: StoredSpecialOrder): Promise<number> {
  const places = account(doc.uid).collection(PLACES_SUBCOLLECTION);
  const [accountSnap, taken] = await Promise.all([account(doc.uid).get(), places.get()]);
  countReads(1 + Math.max(1, taken.size));
  const legacy = Math.max(0, (accountSnap.data() as AccountDoc | undefined)?.openSpecialOrders ?? 0);
  const limit = MAX_OPEN_SPECIAL_ORDERS - legacy;
  const held = new Set(taken.docs.map((d) => Number(d.id)));
  const free = Array.from({ length: Math.max(0, limit) }, (_, i) => i).filter((i) => !held.has(i));
  if (free.length === 0) throw tooMany(legacy + held.size);
  // From a random free place on, so requests at once mostly try different places first.
  const start = Math.floor(Math.random() * free.length);
  for (const place of [...free.slice(start), ...free.slice(0, start)]) {
    try {
      await db().batch()
        .create(placeRef(doc.uid, place), { requestId: ref.id, at: doc.createdAt })
        .create(ref, { ...doc, place } satisfies PlacedRequest)
        .commit();
      return place;
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
    }
  }
  throw tooMany(MAX_OPEN_SPECIAL_ORDERS);
}

/** Gives the account its place back, in the transaction that closes the request (once: it was open). */
export function releasePlace(tx: Transaction, doc: StoredSpecialOrder): void {
  const { place } = doc as PlacedRequest;
  if (place === undefined) tx.set(account(doc.uid), { openSpecialOrders: FieldValue.increment(-1) }, { merge: true });
  else tx.delete(placeRef(doc.uid, place));
}
