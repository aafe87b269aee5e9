import { createHash } from 'node:crypto';
import type {
  AdminOrdersPage,
  Order,
  OrderEvent,
  OrderEventActor,
  OrdersPage,
  OrderStatus,
  OrderTab,
  ParsedOrderInput,
} from '@bookstore/contract';
import {
  canTransition, fromCents, fulfilmentKind, LATEST_ORDERS_SIZE, normaliseEmail, orderFromStored, priceOrder,
  RESTOCKING_STATUSES, sumCents, type DeliveryPlace, type FulfilmentSettings, type Priced, type StoredCharges, type StoredOrder, type StoredOrderLine,
} from '@bookstore/contract';
import { FieldPath, FieldValue, type DocumentSnapshot, type Query } from 'firebase-admin/firestore';
import { logger } from 'firebase-functions';
import type { BookDoc } from '../books/books.repo';
import { books, getBookDocs, stockFields } from '../books/books.repo';
import type { Customer } from '../lib/auth';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { appendAudit, type AuditActor } from '../admin/audit.repo';
import { drainAlerts, readAlertsToRelease, releaseAlerts } from '../subscriptions/stock-alerts.repo';
import { readFulfilment } from '../admin/settings.repo';
import { orderCounts, placementDelta, transitionDelta } from './counters';
import { addToCounters, readCounterTotals } from './counters.repo';
import { decodeCursor, encodeCursor } from './cursor';
import { queued } from '../lib/mail-queue';
import { MAIL_COLLECTION, mailId, orderMail, type MailOrder } from './mail';
import { CUSTOMERS_COLLECTION, type CustomerDoc, openOrderLimit, openOrdersDelta, openOrdersOf, requestHash } from './open-orders';

/** A line as stored: the book as it was sold, price in cents. */
/** A line as stored: the book as it was sold, price in cents (the contract's shape, shared with the live pages). */
export type OrderLineDoc = StoredOrderLine;

export interface OrderDoc extends StoredOrder {
  /** Orders stored before the key stopped being written may still carry it; never sent by the API. */
  idempotencyKey?: string;
  /** sha256 of the uid and the parsed body the key placed (open-orders.ts); never sent by the API. */
  requestHash?: string;
}

export const orders = () => db().collection('orders');
const mail = () => db().collection(MAIL_COLLECTION);
const customers = () => db().collection(CUSTOMERS_COLLECTION);

// Contention retries: 20 shoppers racing for a last copy all read that book, and each loser's
// transaction has to run again to see the new stock (and answer 409).
const TX_OPTIONS = { maxAttempts: 10 };

/**
 * Still contended after every retry (a stampede on one book: its stock is one document): a 503 the
 * client may retry (with the same Idempotency-Key), rather than a 500.
 */
function busy(error: unknown): never {
  if ((error as { code?: number }).code === 10 /* ABORTED */) {
    throw new HttpError(503, 'Too many orders for these books at once. Please try again.', {}, { 'Retry-After': '1' });
  }
  throw error;
}

/** The API's order: the contract's mapping, which leaves out the idempotency key and request hash. */
export const orderFromDoc = (id: string, doc: OrderDoc): Order => orderFromStored(id, doc);

const toOrder = (snap: DocumentSnapshot): Order => orderFromDoc(snap.id, snap.data() as OrderDoc);

const mailOrder = (doc: OrderDoc): MailOrder => ({
  name: doc.name,
  email: doc.email,
  totalCents: doc.totalCents,
  lines: (doc.items ?? []).map((l) => ({ title: l.title, unitPriceCents: l.unitPriceCents })),
  ...(doc.delivery ? { method: doc.delivery.method } : {}),
  ...(doc.charges ? { charges: doc.charges } : {}),
  ...(doc.pickup ? { pickup: doc.pickup } : {}),
});

/** Where an order's delivery is priced for: its address, or nowhere for a pickup. */
export function placeOf(input: Pick<ParsedOrderInput, 'address' | 'delivery'>): DeliveryPlace {
  if (input.delivery?.method === 'pickup' || !input.address) return {};
  return { country: input.address.country, region: input.address.state, zipcode: input.address.zipcode };
}

/** The books as the pricing sees them: price in cents and weight. */
export const pricedBooks = (docs: BookDoc[]) => docs.map((b) => ({ priceCents: b.newPriceCents, weightGrams: b.weightGrams ?? null }));

/** THE price of an order (contract/src/pricing.ts priceOrder), as the quote computes it too. */
export function priceFor(settings: FulfilmentSettings, docs: BookDoc[], input: Pick<ParsedOrderInput, 'address' | 'delivery'>): Priced {
  return priceOrder(settings, pricedBooks(docs), input.delivery?.method, placeOf(input));
}

const storedCharges = (p: Extract<Priced, { ok: true }>): StoredCharges => ({
  subtotalCents: p.subtotalCents, shippingCents: p.shippingCents, taxCents: p.taxCents, shippingTaxCents: p.shippingTaxCents,
  taxRateBp: p.taxRateBp, taxIncluded: p.taxIncluded, taxLabel: p.taxLabel,
});

/** A retry with the same key maps to the same document id, so it can never be stored twice. */
function orderIdFor(uid: string, idempotencyKey: string): string {
  return createHash('sha256').update(`${uid}\n${idempotencyKey}`).digest('hex').slice(0, 28);
}

export interface PlacedOrder {
  order: Order;
  replayed: boolean;
}

/**
 * The order a key already placed, answered again; but a key sent with a different body is a client
 * bug (or a reused key), and silently answering with the first order would let the client believe
 * the new cart was ordered. Orders stored before the hash existed simply replay.
 */
function replay(existing: DocumentSnapshot, hash: string): PlacedOrder {
  const stored = existing.data() as OrderDoc;
  if (stored.requestHash !== undefined && stored.requestHash !== hash) {
    throw new HttpError(422, 'This Idempotency-Key was used for a different order', { code: 'IDEMPOTENCY_KEY_REUSED' });
  }
  return { order: toOrder(existing), replayed: true };
}

/**
 * Prices the cart from the current books and, in one transaction, stores the order with its lines,
 * takes one copy of each book from stock, counts it (in the shop's counters and the account's open
 * orders) and queues its mail: either all of it happened or none. A book without a copy left
 * refuses the whole order (409 OUT_OF_STOCK), and so does an account at its open-order limit (409
 * TOO_MANY_OPEN_ORDERS).
 */
export async function placeOrder(customer: Customer, input: ParsedOrderInput, idempotencyKey?: string): Promise<PlacedOrder> {
  const ref = idempotencyKey ? orders().doc(orderIdFor(customer.uid, idempotencyKey)) : orders().doc();
  const accountRef = customers().doc(customer.uid);
  const hash = requestHash(customer.uid, input);
  let tries = 0;
  const attempt = () =>
    db().runTransaction(async (tx): Promise<PlacedOrder> => {
      tries += 1;
      // Contention made Firestore run it again: one entry per retry, for the operator's dashboards.
      if (tries > 1) logger.info('Order transaction retried', { attempt: tries, maxAttempts: TX_OPTIONS.maxAttempts, uid: customer.uid });
      const [account, existing] = idempotencyKey ? await tx.getAll(accountRef, ref) : [await tx.get(accountRef)];
      countReads(idempotencyKey ? 2 : 1);
      // A retry of a placed order replays even at the limit: it is not a new order.
      if (existing?.exists) return replay(existing, hash);
      // Read in this transaction: two racing placements cannot both take the last open slot.
      const accountDoc = account!.data() as CustomerDoc | undefined;
      const open = openOrdersOf(accountDoc);
      const limit = openOrderLimit(accountDoc);
      if (open >= limit) {
        throw new HttpError(409, `You already have ${open} open orders. Wait until one is shipped, or cancel one, to place another.`, {
          code: 'TOO_MANY_OPEN_ORDERS',
          limit,
        });
      }
      const snaps = await getBookDocs(tx, input.productIDs);
      const unknown = input.productIDs.filter((_, i) => !snaps[i]!.exists);
      if (unknown.length > 0) {
        throw new HttpError(400, `Unknown book ids: ${unknown.join(', ')}`, {
          code: 'UNKNOWN_BOOKS',
          productIDs: unknown,
          details: { productIDs: unknown },
        });
      }
      const bookDocs = snaps.map((s) => s.data() as BookDoc);
      const soldOut = input.productIDs.filter((_, i) => !((bookDocs[i]!.stock ?? 0) >= 1));
      if (soldOut.length > 0) {
        throw new HttpError(409, 'Some books are out of stock', { code: 'OUT_OF_STOCK', productIDs: soldOut });
      }
      // Priced with the settings this transaction read: a settings change commits before or after it.
      // An order without a method reads none (its price is the books' alone, as before issue 27).
      const settings = input.delivery ? await readFulfilment(tx) : undefined;
      const priced = settings ? priceFor(settings, bookDocs, input) : undefined;
      if (priced && !priced.ok) throw new HttpError(422, priced.reason, { code: 'DELIVERY_UNAVAILABLE' });
      const totalCents = priced?.ok ? priced.totalCents : sumCents(bookDocs.map((b) => b.newPriceCents));
      if (Math.round(input.totalPrice * 100) !== totalCents) {
        throw new HttpError(409, 'Prices have changed since you opened your cart', {
          code: 'PRICE_CHANGED',
          totalPrice: fromCents(totalCents),
        });
      }
      const now = new Date().toISOString();
      const doc: OrderDoc = {
        uid: customer.uid,
        name: input.name,
        email: normaliseEmail(customer.email), // the verified address, not the typed one
        phone: input.phone,
        ...(input.address ? { address: input.address } : {}),
        ...(input.delivery && priced?.ok
          ? {
              delivery: { method: input.delivery.method, weightGrams: priced.weightGrams, ...(priced.zone ? { zone: priced.zone } : {}) },
              charges: storedCharges(priced),
            }
          : {}),
        ...(input.delivery?.method === 'pickup' && settings
          ? { pickup: { address: settings.pickup.address, hours: settings.pickup.hours, holdDays: settings.pickup.holdDays } }
          : {}),
        productIDs: input.productIDs,
        items: input.productIDs.map((bookId, i) => ({
          bookId,
          title: bookDocs[i]!.title,
          unitPriceCents: bookDocs[i]!.newPriceCents,
          coverImage: bookDocs[i]!.coverImage,
        })),
        totalCents,
        status: 'pending',
        events: [],
        createdAt: now,
        updatedAt: now,
        // No idempotencyKey: the id is derived from it, and the customer reads this document (rules).
        ...(idempotencyKey ? { requestHash: hash } : {}),
      };
      tx.create(ref, doc); // first: where a commit is applied write by write (the stand-in), a duplicate stops here
      // The stock read above is this transaction's: a concurrent order for the last copy makes one
      // of the two commits fail and run again, and then it sees 0.
      // Browse's 'in stock only' filter reads inStock, so it moves with stock (stockFields).
      snaps.forEach((snap, i) => tx.update(snap.ref, { ...stockFields(bookDocs[i]!.stock - 1) }));
      addToCounters(tx, placementDelta(doc));
      tx.set(accountRef, { openOrders: open + 1 }, { merge: true });
      tx.create(mail().doc(mailId(ref.id, 'placed')), queued(orderMail(ref.id, mailOrder(doc), 'placed')));
      return { order: orderFromDoc(ref.id, doc), replayed: false };
    }, TX_OPTIONS);
  try {
    return await attempt();
  } catch (error) {
    // Two requests with one key raced: the loser's create failed, so answer with the winner's order.
    if (idempotencyKey && (error as { code?: number }).code === 6 /* ALREADY_EXISTS */) {
      const existing = await ref.get();
      countReads(1);
      if (existing.exists) return replay(existing, hash);
    }
    return busy(error);
  }
}

export async function getOrder(id: string): Promise<Order | null> {
  const snap = await orders().doc(id).get();
  countReads(1);
  return snap.exists ? toOrder(snap) : null;
}

export interface TransitionRequest {
  orderId: string;
  to: OrderStatus;
  by: OrderEventActor;
  note?: string;
  /** Set for a customer: an order of anyone else is answered 404, as if it did not exist. */
  ownerUid?: string;
  /** Set for staff: the audit event written in the same transaction. */
  actor?: AuditActor;
}

const DAY_MS = 24 * 60 * 60 * 1000;


/**
 * Moves an order to `to` if its lifecycle (delivered or picked up) allows it from the status read in
 * this transaction, and in the same transaction appends the event, moves the counters, queues the
 * mail and, for cancelled and refused, puts each line's copy back. Two racing requests: the second
 * re-reads the new status and gets 409, so stock comes back exactly once. Marking a pickup order
 * ready starts its hold (the shop's current hold days) and mails where and when to collect it.
 * `onlyIf` (the scheduled release): when it is false of the order as read here, nothing is written
 * and the answer is null.
 */
async function applyTransition(request: TransitionRequest, onlyIf?: (doc: OrderDoc) => boolean): Promise<Order | null> {
  const { orderId, to, by, note, ownerUid, actor } = request;
  const ref = orders().doc(orderId);
  let fullBatches: string[] = [];
  const order = await db().runTransaction(async (tx) => {
    fullBatches = [];
    const snap = await tx.get(ref);
    countReads(1);
    const doc = snap.data() as OrderDoc | undefined;
    if (!doc || (ownerUid !== undefined && doc.uid !== ownerUid)) throw new HttpError(404, 'Order not found');
    if (onlyIf && !onlyIf(doc)) return null;
    const from = doc.status;
    // A pickup order is never shipped, delivered or refused; only a pickup order is ready or collected.
    if (!canTransition(from, to, by.kind, fulfilmentKind(doc))) {
      throw new HttpError(409, `An order that is ${from} cannot be ${to}`, { code: 'INVALID_TRANSITION', status: from });
    }
    const lines = doc.items ?? [];
    const restock = RESTOCKING_STATUSES.includes(to) && lines.length > 0;
    const bookSnaps = restock ? await tx.getAll(...lines.map((l) => books().doc(l.bookId))) : [];
    countReads(bookSnaps.length);
    // A copy back on a sold-out book: its back-in-stock alerts go out in this transaction (issue 28).
    const waiting = await Promise.all(
      bookSnaps.map((book) => (book.exists ? readAlertsToRelease(tx, book.id, (book.data() as BookDoc).stock ?? 0, ((book.data() as BookDoc).stock ?? 0) + 1) : [])),
    );
    const settings = to === 'ready_for_pickup' ? await readFulfilment(tx) : undefined;

    const at = new Date().toISOString();
    const event: OrderEvent = { from, to, by, at, ...(note ? { note } : {}) };
    const change: Partial<OrderDoc> = { status: to, updatedAt: at, events: [...(doc.events ?? []), event] };
    if (settings) {
      // The hold starts now, for the shop's current number of days; the mail says where and until when.
      const holdUntil = new Date(Date.parse(at) + settings.pickup.holdDays * DAY_MS).toISOString();
      change.holdUntil = holdUntil;
      change.pickup = { address: settings.pickup.address, hours: settings.pickup.hours, holdDays: settings.pickup.holdDays, holdUntil };
    }
    const updated: OrderDoc = { ...doc, ...change };
    if (from === 'ready_for_pickup') delete updated.holdUntil;
    // Leaving ready_for_pickup takes the order out of the release's query (status, holdUntil) for good.
    tx.update(ref, from === 'ready_for_pickup' ? { ...change, holdUntil: FieldValue.delete() } : change);
    // A book deleted since the order has no stock to return to.
    for (const book of bookSnaps) if (book.exists) tx.update(book.ref, { ...stockFields(((book.data() as BookDoc).stock ?? 0) + 1) });
    fullBatches = bookSnaps.filter((book, i) => releaseAlerts(tx, { id: book.id, title: (book.data() as BookDoc | undefined)?.title ?? '' }, waiting[i]!)).map((book) => book.id);
    addToCounters(tx, transitionDelta(doc, from, to));
    // increment() needs no read, and conflicts with a placement that read the count: it stays exact.
    const openDelta = openOrdersDelta(from, to);
    if (openDelta !== 0) tx.set(customers().doc(doc.uid), { openOrders: FieldValue.increment(openDelta) }, { merge: true });
    tx.create(mail().doc(mailId(orderId, to)), queued(orderMail(orderId, mailOrder(updated), to, note)));
    if (actor) {
      const changes = { status: { before: from, after: to }, ...(note ? { note: { before: null, after: note } } : {}) };
      appendAudit(tx, actor, { action: 'order.status', target: `orders/${orderId}`, changes }, at);
    }
    return orderFromDoc(orderId, updated);
  }, TX_OPTIONS).catch(busy);
  for (const bookId of fullBatches) await drainAlerts(bookId);
  return order;
}

export async function transitionOrder(request: TransitionRequest): Promise<Order> {
  return (await applyTransition(request))!;
}

// --- Pickup holds (issue 27) ---------------------------------------------------------------------

/** Orders released per run: the job runs hourly, so a backlog clears over a few runs. */
export const RELEASE_BATCH = 200;

export interface ReleaseReport {
  cancelled: string[];
  /** Found by the query but no longer due when their transaction read them (collected, cancelled, released by another run). */
  skipped: string[];
}

/**
 * Cancels every pickup order whose hold ran out (ready_for_pickup, holdUntil <= now) and restocks
 * its books, each in its own order transaction: a second run, even at the same moment, reads the
 * order as cancelled and writes nothing, so each hold is released (cancelled, restocked, mailed) once.
 */
export async function releaseExpiredHolds(now = new Date()): Promise<ReleaseReport> {
  const cutoff = now.toISOString();
  const due = await runQuery(orders().where('status', '==', 'ready_for_pickup').where('holdUntil', '<=', cutoff).orderBy('holdUntil').limit(RELEASE_BATCH));
  const report: ReleaseReport = { cancelled: [], skipped: [] };
  for (const snap of due.docs) {
    const stillDue = (doc: OrderDoc) => doc.status === 'ready_for_pickup' && typeof doc.holdUntil === 'string' && doc.holdUntil <= cutoff;
    const days = (snap.data() as OrderDoc).pickup?.holdDays;
    const released = await applyTransition(
      { orderId: snap.id, to: 'cancelled', by: { kind: 'system', id: 'shop' }, note: `Not collected within ${days ?? 'the'} days` },
      stillDue,
    );
    (released ? report.cancelled : report.skipped).push(snap.id);
  }
  return report;
}

// --- Lists: newest first, (createdAt, id) cursors, each page one query -----------------------------

async function pageOf(base: Query, limit: number, cursor?: string): Promise<OrdersPage> {
  let query = base.orderBy('createdAt', 'desc').orderBy(FieldPath.documentId(), 'desc');
  const after = cursor ? decodeCursor(cursor) : undefined;
  if (after) {
    // startAfter is the real cursor. The npm Firestore stand-in ignores cursors, so the
    // range filter (served by the same index) and the filter below keep its pages right too;
    // where cursors work they change nothing, and the extra document says whether more follow.
    query = query.where('createdAt', '<=', after.createdAt).startAfter(after.createdAt, after.id).limit(limit + 1);
  } else {
    query = query.limit(limit);
  }
  const snap = await runQuery(query);
  const docs = after ? snap.docs.filter((d) => d.data().createdAt < after.createdAt || d.id < after.id) : snap.docs;
  const list = docs.slice(0, limit).map(toOrder);
  const last = list[list.length - 1];
  return { orders: list, nextCursor: last && docs.length >= limit ? encodeCursor({ createdAt: last.createdAt, id: last._id }) : null };
}

export interface PageRequest {
  limit: number;
  cursor?: string;
}

export const ordersOfUser = (uid: string, page: PageRequest) => pageOf(orders().where('uid', '==', uid), page.limit, page.cursor);

export const ordersByEmail = (email: string, page: PageRequest) =>
  pageOf(orders().where('email', '==', normaliseEmail(email)), page.limit, page.cursor);

export async function latestOrders(limit = LATEST_ORDERS_SIZE): Promise<Order[]> {
  return (await runQuery(orders().orderBy('createdAt', 'desc').limit(limit))).docs.map(toOrder);
}

export interface DeskRequest extends PageRequest {
  status: OrderTab;
  email?: string;
  orderId?: string;
}

/** The admin's desk: one page of one tab (optionally one customer's or one order), and every tab's count. */
export async function deskPage(request: DeskRequest): Promise<AdminOrdersPage> {
  const [page, totals] = await Promise.all([deskList(request), readCounterTotals()]);
  return { ...page, counts: orderCounts(totals) };
}

async function deskList(request: DeskRequest): Promise<OrdersPage> {
  if (request.orderId) {
    const inTab = (order: Order) => request.status === 'all' || order.status === request.status;
    const order = await getOrder(request.orderId);
    if (order) return { orders: inTab(order) ? [order] : [], nextCursor: null };
    // The desk shows ids by their first 8 characters: a shorter id is a prefix, one page of matches.
    const prefix = await runQuery(
      orders().where(FieldPath.documentId(), '>=', request.orderId).where(FieldPath.documentId(), '<', `${request.orderId}\uf8ff`).limit(request.limit),
    );
    return { orders: prefix.docs.map(toOrder).filter(inTab), nextCursor: null };
  }
  let base: Query = orders();
  if (request.email) base = base.where('email', '==', normaliseEmail(request.email));
  if (request.status !== 'all') base = base.where('status', '==', request.status);
  return pageOf(base, request.limit, request.cursor);
}
