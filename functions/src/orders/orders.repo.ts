import { createHash } from 'node:crypto';
import type { Order, ParsedOrderInput } from '@bookstore/contract';
import { fromCents, sumCents } from '@bookstore/contract';
import { FieldValue, type DocumentSnapshot } from 'firebase-admin/firestore';
import type { BookDoc } from '../books/books.repo';
import { getBookDocs } from '../books/books.repo';
import { db } from '../lib/firebase';
import { countReads } from '../lib/read-counter';
import { runQuery } from '../lib/queries';
import { HttpError } from '../lib/http-error';
import type { Customer } from '../lib/auth';
import { monthKey, statsTotalsRef, statsMonthRef } from '../admin/stats.repo';

interface OrderDoc extends Omit<Order, '_id' | 'totalPrice'> {
  totalCents: number;
  idempotencyKey?: string;
}

export const orders = () => db().collection('orders');

/** The API's order: dollars instead of stored cents, without the idempotency key. */
function orderFromDoc(id: string, doc: OrderDoc): Order {
  const { totalCents, idempotencyKey: _key, ...rest } = doc;
  return { _id: id, ...rest, totalPrice: fromCents(totalCents) };
}

const toOrder = (snap: DocumentSnapshot): Order => orderFromDoc(snap.id, snap.data() as OrderDoc);

/** A retry with the same key maps to the same document id, so it can never be stored twice. */
function orderIdFor(uid: string, idempotencyKey: string): string {
  return createHash('sha256').update(`${uid}\n${idempotencyKey}`).digest('hex').slice(0, 28);
}

export interface PlacedOrder {
  order: Order;
  replayed: boolean;
}

/**
 * Prices the cart from the current books and stores the order with the shop's counters, all in one
 * transaction: either the order and its counters exist, or nothing was written.
 */
export async function placeOrder(customer: Customer, input: ParsedOrderInput, idempotencyKey?: string): Promise<PlacedOrder> {
  const ref = idempotencyKey ? orders().doc(orderIdFor(customer.uid, idempotencyKey)) : orders().doc();
  const attempt = () =>
    db().runTransaction(async (tx): Promise<PlacedOrder> => {
      if (idempotencyKey) {
        const existing = await tx.get(ref);
        countReads(1);
        if (existing.exists) return { order: toOrder(existing), replayed: true };
      }
      const snaps = await getBookDocs(tx, input.productIDs);
      const unknown = input.productIDs.filter((_, i) => !snaps[i]!.exists);
      if (unknown.length > 0) {
        throw new HttpError(400, `Unknown book ids: ${unknown.join(', ')}`, { details: { productIDs: unknown } });
      }
      const totalCents = sumCents(snaps.map((s) => (s.data() as BookDoc).newPriceCents));
      if (Math.round(input.totalPrice * 100) !== totalCents) {
        throw new HttpError(409, 'Prices have changed since you opened your cart', {
          code: 'PRICE_CHANGED',
          totalPrice: fromCents(totalCents),
        });
      }
      const now = new Date();
      const doc: OrderDoc = {
        uid: customer.uid,
        name: input.name,
        email: customer.email.toLowerCase(), // the verified address, not the typed one
        phone: input.phone,
        address: input.address,
        productIDs: input.productIDs,
        totalCents,
        status: 'pending',
        createdAt: now.toISOString(),
        ...(idempotencyKey ? { idempotencyKey } : {}),
      };
      tx.create(ref, doc);
      const inc = { totalOrders: FieldValue.increment(1), totalSalesCents: FieldValue.increment(totalCents) };
      tx.set(statsTotalsRef(), inc, { merge: true });
      tx.set(statsMonthRef(monthKey(now)), { month: monthKey(now), ...inc }, { merge: true });
      return { order: orderFromDoc(ref.id, doc), replayed: false };
    });
  try {
    return await attempt();
  } catch (error) {
    // Two requests with one key raced: the loser's create failed, so answer with the winner's order.
    if (idempotencyKey && (error as { code?: number }).code === 6 /* ALREADY_EXISTS */) {
      const existing = await ref.get();
      if (existing.exists) return { order: toOrder(existing), replayed: true };
    }
    throw error;
  }
}

/** Newest first; each order read is counted. */
async function listOrders(field: 'uid' | 'email', value: string): Promise<Order[]> {
  const snap = await runQuery(orders().where(field, '==', value).orderBy('createdAt', 'desc'));
  return snap.docs.map(toOrder);
}

export const ordersOfUser = (uid: string) => listOrders('uid', uid);
export const ordersByEmail = (email: string) => listOrders('email', email);
