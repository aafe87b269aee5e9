import type { Order, SpecialOrder, SpecialOrderRequest, SpecialOrdersPage, SpecialOrderStatus, SpecialOrderStatusChange, StoredSpecialOrder } from '@bookstore/contract';
import { canMoveSpecial, formatCents, formatDate, normaliseEmail, OPEN_SPECIAL_STATUSES, priceOrder, specialOrderFromStored, specialOrderOrderId } from '@bookstore/contract';
import { FieldPath, type Query, type Transaction } from 'firebase-admin/firestore';
import { appendAudit, openAudit, type AuditActor, type AuditLog } from '../admin/audit.repo';
import { noAfterCommit } from '../books/book-writes';
import { SPECIAL_ORDERS_COLLECTION } from './order-link';
import { createInPlace, releasePlace } from './open-places';
import { readFulfilment } from '../admin/settings.repo';
import type { Customer } from '../lib/auth';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { placementDelta } from '../counters/counters';
import { addToCounters } from '../counters/counters.repo';
import { decodeCursor, encodeCursor } from '../lib/created-cursor';
import { queued } from '../lib/mail-queue';
import { MAIL_COLLECTION, mailId, orderMail, shortId, type MailDoc } from '../orders/mail';
import { CUSTOMERS_COLLECTION, openOrderLimit, openOrdersOf, type CustomerDoc } from '../orders/open-orders';
import { countedOrder, mailOrder, orderFromDoc, orders, planTransition, TX_OPTIONS, busy, type OrderDoc, type TransitionWrite } from '../orders/orders.repo';
import { createOrder } from '../orders/order-writes';
import { paragraphsHtml } from '../lib/html';

// Special orders (issue 41; docs/decisions/041-preorders.md): specialOrders/<id>, the shopper's
// request and its lifecycle. The account's open requests each hold a numbered place
// (open-places.ts), so 12 requests at once leave exactly 10 open. Each mail is queued in the
// transaction of the move it announces, under an id derived from (request, move).

const specialOrders = () => db().collection(SPECIAL_ORDERS_COLLECTION);
const customers = () => db().collection(CUSTOMERS_COLLECTION);
const mail = () => db().collection(MAIL_COLLECTION);

const isOpen = (status: SpecialOrderStatus) => OPEN_SPECIAL_STATUSES.includes(status);

export async function createSpecialOrder(customer: Customer, input: SpecialOrderRequest, title: string): Promise<SpecialOrder> {
  const ref = specialOrders().doc();
  const now = new Date().toISOString();
  const doc: StoredSpecialOrder = {
    uid: customer.uid, email: normaliseEmail(customer.email), isbn: input.isbn, title, quantity: input.quantity,
    ...(input.note ? { note: input.note } : {}),
    status: 'requested', history: [{ status: 'requested', at: now, by: 'customer' }], createdAt: now, updatedAt: now,
  };
  await createInPlace(ref, doc); // 409 TOO_MANY_SPECIAL_ORDERS past the account's open requests
  return specialOrderFromStored(ref.id, doc);
}

/** A page of requests, newest first: the shopper's own (uid) or the desk's (optionally one status). */
export async function pageOfSpecialOrders(filter: { uid?: string; status?: SpecialOrderStatus }, limit: number, cursor?: string, forStaff = false): Promise<SpecialOrdersPage> {
  let query: Query = specialOrders();
  if (filter.uid) query = query.where('uid', '==', filter.uid);
  if (filter.status) query = query.where('status', '==', filter.status);
  query = query.orderBy('createdAt', 'desc').orderBy(FieldPath.documentId(), 'desc');
  const after = cursor ? decodeCursor(cursor) : undefined;
  if (after) query = query.startAfter(after.createdAt, after.id);
  const snap = await runQuery(query.limit(limit));
  const list = snap.docs.map((d) => specialOrderFromStored(d.id, d.data() as StoredSpecialOrder, forStaff));
  const last = list[list.length - 1];
  return { specialOrders: list, nextCursor: last && list.length === limit ? encodeCursor({ createdAt: last.createdAt, id: last._id }) : null };
}

const $ = (cents: number) => `$${formatCents(cents)}`;

function specialMail(id: string, doc: StoredSpecialOrder, headline: string, lines: string[]): MailDoc {
  const text = ['Hello,', '', `${headline}. Request ${shortId(id)}: ${doc.title} (ISBN ${doc.isbn}), ${doc.quantity} ${doc.quantity === 1 ? 'copy' : 'copies'}.`, '', ...lines].join('\n');
  const html = paragraphsHtml(text);
  return { to: doc.email, message: { subject: `${headline} (request ${shortId(id)})`, text, html } };
}

/** The mail a staff move sends: the quote (price and date), the arrival; other moves send none. */
function mailFor(id: string, doc: StoredSpecialOrder): MailDoc | null {
  if (doc.status === 'quoted') {
    return specialMail(id, doc, 'We can order your book', [
      `Price: ${$(doc.priceCents!)} a copy, ${$(doc.priceCents! * doc.quantity)} in all.`,
      `Expected in the shop: ${formatDate(`${doc.expectedOn}T12:00:00Z`)}.`,
      'Accept or decline the quote under Special orders in your account.',
    ]);
  }
  if (doc.status === 'arrived') return specialMail(id, doc, 'Your special order has arrived', ['It is waiting for you at the counter.']);
  return null;
}

/**
 * Copies a delivery brings for an ordered request (issue 56: purchasing/receipts.repo.ts), in the
 * receipt's transaction after its reads: counted on the request; when they reach its quantity it
 * is 'arrived' (set aside for the shopper, never shelf stock) and the shopper is mailed, under the
 * same id a desk's 'arrived' move uses. Returns the request as stored.
 */
export function receiveForRequest(tx: Transaction, id: string, doc: StoredSpecialOrder, copies: number, at: string): StoredSpecialOrder {
  const copiesReceived = (doc.copiesReceived ?? 0) + copies;
  if (copiesReceived < doc.quantity) {
    const next: StoredSpecialOrder = { ...doc, copiesReceived, updatedAt: at };
    tx.set(specialOrders().doc(id), next);
    return next;
  }
  const next: StoredSpecialOrder = { ...doc, copiesReceived, status: 'arrived', updatedAt: at, history: [...doc.history, { status: 'arrived', at, by: 'staff' }] };
  tx.set(specialOrders().doc(id), next);
  const nth = next.history.filter((h) => h.status === 'arrived').length;
  tx.create(mail().doc(`special-${id}-arrived-${nth}`), queued(mailFor(id, next)!));
  return next;
}

/**
 * What a move does to the request's order (`special-<id>`, placed when the shopper accepted): collected
 * with it (as the desk collects a pickup order: counters, the customer's open orders, mail, audit),
 * or cancelled with it while unpaid. Reads in `tx` (call before any write); null when nothing moves.
 */
async function planOrderMove(tx: Transaction, doc: StoredSpecialOrder, to: SpecialOrderStatus, actor: AuditActor, log: AuditLog): Promise<TransitionWrite | null> {
  if (!doc.orderId || (to !== 'collected' && to !== 'cancelled')) return null;
  const snap = await tx.get(orders().doc(doc.orderId));
  countReads(1);
  const order = snap.data() as OrderDoc | undefined;
  if (!order || order.status === to) return null;
  if (to === 'collected' && order.status === 'cancelled') {
    throw new HttpError(409, 'The order of this request was cancelled: cancel the request instead', { code: 'ORDER_CANCELLED', orderId: doc.orderId });
  }
  // A final order (cancelled by the shopper, or collected at the desk) stays as it is.
  if (['cancelled', 'refused', 'collected', 'delivered'].includes(order.status)) return null;
  if (to === 'cancelled' && (order.payment?.paidCents ?? 0) > 0) {
    throw new HttpError(409, 'The order of this request is paid: refund and cancel it on the order desk first', { code: 'ORDER_PAID', orderId: doc.orderId });
  }
  const note = to === 'collected' ? 'Special order collected' : 'Special order cancelled';
  return planTransition(tx, doc.orderId, order, { to, by: { kind: 'admin', id: actor.role }, actor, log, note, handover: to === 'collected', fromSpecialOrder: true });
}

/** Staff move a request on (the allowed moves only: 409 otherwise); a quote mails its price and date, an arrival mails too. */
export async function moveSpecialOrder(id: string, change: SpecialOrderStatusChange, actor: AuditActor): Promise<SpecialOrder> {
  const ref = specialOrders().doc(id);
  let afterCommit = noAfterCommit;
  const moved = await db().runTransaction(async (tx) => {
    afterCommit = noAfterCommit;
    const snap = await tx.get(ref);
    countReads(1);
    const doc = snap.data() as StoredSpecialOrder | undefined;
    if (!doc) throw new HttpError(404, 'Special order not found');
    if (!canMoveSpecial(doc.status, change.status)) {
      throw new HttpError(409, `A request that is ${doc.status} cannot be ${change.status}`, { code: 'INVALID_TRANSITION', status: doc.status });
    }
    const log = await openAudit(tx); // a link of the audit chain: its head is read with the other reads
    const orderMove = await planOrderMove(tx, doc, change.status, actor, log);
    const at = new Date().toISOString();
    const next: StoredSpecialOrder = {
      ...doc, status: change.status, updatedAt: at, history: [...doc.history, { status: change.status, at, by: 'staff' }],
      ...('priceCents' in change ? { priceCents: change.priceCents, expectedOn: change.expectedOn } : {}),
    };
    tx.set(ref, next);
    if (isOpen(doc.status) && !isOpen(next.status)) releasePlace(tx, doc);
    const message = mailFor(id, next);
    // A second quote (the first unanswered) is a mail of its own: the id counts the quotes.
    const nth = next.history.filter((h) => h.status === change.status).length;
    if (message) tx.create(mail().doc(`special-${id}-${change.status}-${nth}`), queued(message));
    const changes = { status: { before: doc.status, after: next.status }, ...('priceCents' in change ? { price: { before: doc.priceCents ?? null, after: change.priceCents } } : {}) };
    appendAudit(log, actor, { action: 'special-order.status', target: `specialOrders/${id}`, changes }, at);
    if (orderMove) {
      orderMove.write();
      afterCommit = orderMove.afterCommit();
    }
    return specialOrderFromStored(id, next, true);
  }, TX_OPTIONS).catch(busy);
  await afterCommit();
  return moved;
}

/** The shopper declines a quote, or cancels a request the shop has not ordered yet. */
export async function answerSpecialOrder(customer: Customer, id: string, to: 'declined' | 'cancelled'): Promise<SpecialOrder> {
  const ref = specialOrders().doc(id);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    const doc = snap.data() as StoredSpecialOrder | undefined;
    if (!doc || doc.uid !== customer.uid) throw new HttpError(404, 'Special order not found');
    const allowed = to === 'declined' ? doc.status === 'quoted' : doc.status === 'requested' || doc.status === 'quoted';
    if (!allowed) throw new HttpError(409, `A request that is ${doc.status} cannot be ${to}`, { code: 'INVALID_TRANSITION', status: doc.status });
    const at = new Date().toISOString();
    const next: StoredSpecialOrder = { ...doc, status: to, updatedAt: at, history: [...doc.history, { status: to, at, by: 'customer' }] };
    tx.set(ref, next);
    releasePlace(tx, doc);
    return specialOrderFromStored(id, next);
  }, TX_OPTIONS).catch(busy);
}

/**
 * The shopper accepts a quote: in one transaction the request becomes a pickup order of `quantity`
 * lines at the quoted price (tax as the shop's settings say; collected and paid at the counter like
 * any pickup order), counted and mailed as any order; the request records the order's id.
 */
export async function acceptSpecialOrder(customer: Customer, id: string, contact: { name?: string; phone: string }): Promise<{ specialOrder: SpecialOrder; order: Order }> {
  const ref = specialOrders().doc(id);
  const orderRef = orders().doc(specialOrderOrderId(id)); // one order per request, whatever retries
  const accountRef = customers().doc(customer.uid);
  return db().runTransaction(async (tx) => {
    const [snap, account] = await tx.getAll(ref, accountRef);
    countReads(2);
    const doc = snap!.data() as StoredSpecialOrder | undefined;
    if (!doc || doc.uid !== customer.uid) throw new HttpError(404, 'Special order not found');
    if (doc.status !== 'quoted') throw new HttpError(409, `A request that is ${doc.status} cannot be accepted`, { code: 'INVALID_TRANSITION', status: doc.status });
    const accountDoc = account!.data() as CustomerDoc | undefined;
    const open = openOrdersOf(accountDoc);
    if (open >= openOrderLimit(accountDoc)) {
      throw new HttpError(409, `You already have ${open} open orders. Wait until one is shipped, or cancel one, to place another.`, { code: 'TOO_MANY_OPEN_ORDERS', limit: openOrderLimit(accountDoc) });
    }
    const settings = await readFulfilment(tx);
    const lines = Array.from({ length: doc.quantity }, () => ({ priceCents: doc.priceCents!, weightGrams: null }));
    // Collected at the counter: priced as a pickup order even when the shop's pickup is off for the web checkout.
    const priced = priceOrder({ ...settings, pickup: { ...settings.pickup, enabled: true } }, lines, 'pickup', {});
    if (!priced.ok) throw new HttpError(422, priced.reason, { code: 'DELIVERY_UNAVAILABLE' });
    const now = new Date().toISOString();
    const bookId = `special-${id}`;
    const order: OrderDoc = {
      uid: customer.uid, name: contact.name || doc.email, email: doc.email, phone: contact.phone,
      delivery: { method: 'pickup', weightGrams: priced.weightGrams },
      charges: {
        subtotalCents: priced.subtotalCents, shippingCents: priced.shippingCents, taxCents: priced.taxCents, shippingTaxCents: priced.shippingTaxCents,
        taxRateBp: priced.taxRateBp, taxIncluded: priced.taxIncluded, taxLabel: priced.taxLabel,
      },
      pickup: { address: settings.pickup.address, hours: settings.pickup.hours, holdDays: settings.pickup.holdDays },
      productIDs: lines.map(() => bookId),
      items: lines.map(() => ({ bookId, title: doc.title, unitPriceCents: doc.priceCents!, coverImage: '' })),
      totalCents: priced.totalCents, status: 'pending', events: [], createdAt: now, updatedAt: now,
    };
    createOrder(tx, orderRef, order);
    addToCounters(tx, placementDelta(countedOrder(order)));
    tx.set(accountRef, { openOrders: open + 1 }, { merge: true });
    tx.create(mail().doc(mailId(orderRef.id, 'placed')), queued(orderMail(orderRef.id, mailOrder(order), 'placed')));
    const next: StoredSpecialOrder = { ...doc, status: 'accepted', orderId: orderRef.id, updatedAt: now, history: [...doc.history, { status: 'accepted', at: now, by: 'customer' }] };
    tx.set(ref, next);
    return { specialOrder: specialOrderFromStored(id, next), order: orderFromDoc(orderRef.id, order) };
  }, TX_OPTIONS).catch(busy);
}
