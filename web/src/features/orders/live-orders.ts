import { OrderIdSchema, orderFromStored, type Order, type OrderStatus, type StoredOrder } from '@bookstore/contract';
import { collection, doc, limit, orderBy, query, where } from 'firebase/firestore';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useFirestore, useFirestoreCollectionData, useFirestoreDocData } from 'reactfire';

// The customer's own orders, followed live from Firestore (the rules let a customer read only
// orders whose uid is theirs, and only with that filter). Stored in cents: mapped with the
// contract's orderFromStored, exactly as the API maps them.

type StoredWithId = StoredOrder & { _id: string };

export interface LiveOrders {
  status: 'loading' | 'error' | 'success';
  orders: Order[];
  hasMore: boolean;
}

/** Newest first, `count` of them (plus one to know whether more follow). */
export function useLiveOrders(uid: string, count: number): LiveOrders {
  const firestore = useFirestore();
  const q = useMemo(
    () => query(collection(firestore, 'orders'), where('uid', '==', uid), orderBy('createdAt', 'desc'), limit(count + 1)),
    [firestore, uid, count],
  );
  const { status, data } = useFirestoreCollectionData(q, { idField: '_id' });
  const all = ((data ?? []) as StoredWithId[]).map((d) => orderFromStored(d._id, d));
  return { status, orders: all.slice(0, count), hasMore: all.length > count };
}

export interface LiveOrder {
  status: 'loading' | 'error' | 'success';
  order: Order | null;
  /** Refused by the rules (someone else's order) or no such order: both read 'Order not found.' */
  missing: boolean;
}

export function useLiveOrder(id: string): LiveOrder {
  const firestore = useFirestore();
  const valid = OrderIdSchema.safeParse(id).success;
  const ref = useMemo(() => doc(firestore, 'orders', valid ? id : 'invalid-id'), [firestore, id, valid]);
  const { status, data, error } = useFirestoreDocData(ref, { idField: '_id' });
  const stored = data as StoredWithId | undefined;
  const denied = (error as { code?: string } | undefined)?.code === 'permission-denied';
  if (!valid) return { status: 'success', order: null, missing: true };
  if (status === 'error') return { status: denied ? 'success' : 'error', order: null, missing: denied };
  if (status === 'loading') return { status, order: null, missing: false };
  return { status, order: stored ? orderFromStored(stored._id, stored) : null, missing: !stored };
}

/** What a customer is told when one of their orders moves while the page is open. */
export const STATUS_NOTICE: Record<OrderStatus, string> = {
  pending: 'Your order has been placed',
  confirmed: 'Your order has been confirmed',
  shipped: 'Your order is on its way',
  delivered: 'Your order has been delivered',
  cancelled: 'Your order has been cancelled',
  refused: 'Your order was refused at delivery',
  ready_for_pickup: 'Your order is ready for pickup',
  collected: 'Your order has been collected',
};

export interface StatusNotice {
  key: number;
  orderId: string;
  text: string;
}

/**
 * Watches the orders on screen and returns a short notice when one changes status after it was
 * first shown (not for what the page found on opening). The notice clears itself after 8 s.
 */
export function useStatusNotice(orders: Order[]): StatusNotice | null {
  const seen = useRef(new Map<string, OrderStatus>());
  const [notice, setNotice] = useState<StatusNotice | null>(null);
  const signature = orders.map((o) => `${o._id}:${o.status}`).join();
  useEffect(() => {
    for (const order of orders) {
      const before = seen.current.get(order._id);
      if (before && before !== order.status) {
        setNotice({ key: Date.now(), orderId: order._id, text: STATUS_NOTICE[order.status] });
      }
      seen.current.set(order._id, order.status);
    }
  }, [signature]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), 8000);
    return () => clearTimeout(timer);
  }, [notice]);
  return notice;
}
