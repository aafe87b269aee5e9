import { FieldValue, type DocumentReference, type Transaction } from 'firebase-admin/firestore';
import type { StoredOrder, StoredPayment } from '@bookstore/contract';
import { db } from '../lib/firebase';

// The one door through which an order document is written (issue 54; STYLE.md section 13). Every
// module that changes an order (placing, status moves, payment facts, refunds, part shipments,
// pre-order lines, special orders) hands its change to these functions, which keep what is derived
// from the order in one place: the payment problems queue's field (`problemOpenAt`) follows the
// payment's problem on every write, so no path can flag a problem the queue does not list, or
// settle one it keeps listing. `npm run lint` (eslint-rules/aggregate-writes.js) fails on any other
// module that writes an order document.

export const ORDERS_COLLECTION = 'orders';
export const orders = () => db().collection(ORDERS_COLLECTION);

/** Fields kept for the queries, derived here from the order itself; never sent by the API. */
export interface OrderIndexFields {
  /** When the payment's open problem was raised: GET /api/admin/payment-problems pages on it, newest first. */
  problemOpenAt?: string;
}

/** A change of an order: its fields, or FieldValue.delete() for a field it removes. */
export type OrderChange<T extends StoredOrder = StoredOrder> = { [K in keyof T]?: T[K] | FieldValue } & Record<string, unknown>;

/** The queue's field for `payment`: the open problem's time, or removed once settled (or none). */
export function problemIndex(payment: StoredPayment | undefined): string | FieldValue {
  const problem = payment?.problem;
  return problem && !problem.resolvedAt ? problem.at : FieldValue.delete();
}

const withIndexes = <T extends Record<string, unknown>>(change: T): T => {
  if (!('payment' in change)) return change;
  return { ...change, problemOpenAt: problemIndex(change.payment as StoredPayment | undefined) };
};

/** A new order, in `tx` (placing an order, a special order accepted). */
export function createOrder<T extends StoredOrder>(tx: Transaction, ref: DocumentReference, doc: T): void {
  const index = doc.payment?.problem && !doc.payment.problem.resolvedAt ? { problemOpenAt: doc.payment.problem.at } : {};
  tx.create(ref, { ...doc, ...index });
}

/** A change of the order at `ref`, in `tx`, with the fields derived from it. */
export function updateOrder(tx: Transaction, ref: DocumentReference, change: OrderChange): void {
  tx.update(ref, withIndexes(change));
}

/** The same outside a transaction: for bookkeeping fields only (a deadline moved, a retry mark removed). */
export async function updateOrderNow(ref: DocumentReference, change: OrderChange): Promise<void> {
  await ref.update(withIndexes(change));
}

/** The order `id`'s reference (reads anywhere; writes only through the functions above). */
export const orderRef = (id: string) => orders().doc(id);
