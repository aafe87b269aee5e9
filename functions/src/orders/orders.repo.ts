import { createHash } from 'node:crypto';
import type {
  AdminOrdersPage,
  Order,
  OrderEvent,
  OrderEventActor,
  OrdersPage,
  OrderStatus,
  OrderTab,
  OrderView,
  ParsedOrderInput,
} from '@bookstore/contract';
import {
  addressPlace, canTransition, CARD_MINIMUM_CENTS, cardMinimumReason, disputeOpen, CHECKOUT_SESSION_MINUTES, fromCents, fulfilmentKind, LATEST_ORDERS_SIZE, normaliseEmail, orderFromStored, priceOrder,
  isForthcoming, refundableCents, refundsWhenCancelled, RESTOCKING_STATUSES, shopToday, type DeliveryPlace, type PreorderState, type FulfilmentSettings, type Priced, type StoredCharges, type StoredOrder, type StoredOrderLine,
} from '@bookstore/contract';
import { FieldPath, FieldValue, type DocumentSnapshot, type Query, type Transaction } from 'firebase-admin/firestore';
import { logger } from 'firebase-functions/logger';
import type { BookDoc } from '../books/books.repo';
import { books, getBookDocs } from '../books/books.repo';
import { noAfterCommit, stageBookWrites, type AfterCommit, type StagedBookWrites } from '../books/book-writes';
import type { Customer } from '../lib/auth';
import { db } from '../lib/firebase';
import { isAlreadyExists, retryContended } from '../lib/errors';
import { HttpError } from '../lib/http-error';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { appendAudit, openAudit, type AuditActor, type AuditLog } from '../admin/audit.repo';
import { readFulfilment } from '../admin/settings.repo';
import { orderCounts, placementDelta, transitionDelta, type CountedOrder } from '../counters/counters';
import { addToCounters, readCounterTotals } from '../counters/counters.repo';
import { decodeCursor, encodeCursor } from '../lib/created-cursor';
import { queued } from '../lib/mail-queue';
import { giveBackRedemption, stageRedemption } from '../promotions/discounts.repo';
import { giveBackToCard, readCardForReturn, stageGiftCardSpend } from '../promotions/gift-cards.repo';
import { MAIL_COLLECTION, mailId, orderMail, type MailOrder } from './mail';
import { closeRequest, readOpenRequestOf } from '../special-orders/order-link';
import { cancelPreorderLines, newPreorder, preorderId, preorders, shipPreorderLines } from '../preorders/preorders.repo';
import { createOrder, orders, updateOrder } from './order-writes';
import { CUSTOMERS_COLLECTION, type CustomerDoc, openOrderLimit, openOrdersDelta, openOrdersOf, requestHash } from './open-orders';

/** A line as stored: the book as it was sold, price in cents. */
/** A line as stored: the book as it was sold, price in cents (the contract's shape, shared with the live pages). */
export type OrderLineDoc = StoredOrderLine;

export interface OrderDoc extends StoredOrder {
  /** Orders stored before the key stopped being written may still carry it; never sent by the API. */
  idempotencyKey?: string;
  /** sha256 of the uid and the parsed body the key placed (open-orders.ts); never sent by the API. */
  requestHash?: string;
  /**
   * Issue 41: the money refund a cancel owes (a paid card order with a waiting pre-order), written
   * in the cancel's transaction and made after it (payments/cancel-refunds.ts) under `refundId`.
   */
  refundDue?: { refundId: string; cents: number; at: string; reason?: string };
  /** Set with `refundDue`, removed once that refund is made or owed no more: the hourly job's query (payments/cancel-refunds.ts). */
  refundRetryAt?: string;
  /** Issue 54: the desk refund being made (payments/refunds.repo.ts): one at a time per order, until it is recorded or `until`. */
  refundLock?: { id: string; until: string };
}

/** The id of the refund a cancel owes: one per order, so every attempt at it is the same refund. */
export const cancelRefundId = (orderId: string) => createHash('sha256').update(`${orderId}\ncancel`).digest('hex').slice(0, 20);

export { orders } from './order-writes';
export const mail = () => db().collection(MAIL_COLLECTION);
const customers = () => db().collection(CUSTOMERS_COLLECTION);

// The transaction options and the 503 for contention live with the other transaction helpers (issue 54).
import { busy, TX_OPTIONS } from '../lib/transactions';
export { busy, TX_OPTIONS };

/** The API's order: the contract's mapping, which leaves out the idempotency key and request hash. */
/** `view`: 'staff' only for answers that go to staff alone (a refund's staff note, issue 55). */
export const orderFromDoc = (id: string, doc: OrderDoc, view: OrderView = 'customer'): Order => orderFromStored(id, doc, view);

const toOrder = (snap: DocumentSnapshot, view: OrderView = 'customer'): Order => orderFromDoc(snap.id, snap.data() as OrderDoc, view);
const toStaffOrder = (snap: DocumentSnapshot): Order => toOrder(snap, 'staff');

export const mailOrder = (doc: OrderDoc): MailOrder => ({
  name: doc.name,
  email: doc.email,
  totalCents: doc.totalCents,
  lines: (doc.items ?? []).map((l) => ({ title: l.title, unitPriceCents: l.unitPriceCents })),
  ...(doc.delivery ? { method: doc.delivery.method } : {}),
  ...(doc.charges ? { charges: doc.charges } : {}),
  ...(doc.pickup ? { pickup: doc.pickup } : {}),
  ...(doc.payment?.method === 'card' ? { paidBy: 'card' as const, paidCents: doc.payment.paidCents ?? 0 } : {}),
});

/** What the counters know of an order: its status, money, and (issue 35) how and whether it was paid. */
export const countedOrder = (doc: OrderDoc): CountedOrder => ({
  status: doc.status,
  totalCents: doc.totalCents,
  createdAt: doc.createdAt,
  ...(doc.charges ? { charges: doc.charges } : {}),
  ...(doc.payment ? { payment: doc.payment } : {}),
  ...(doc.giftCard ? { giftCardCents: doc.giftCard.cents, giftCardRefundCents: (doc.giftCard.refunds ?? []).map((r) => r.cents) } : {}),
});

/** Where an order's delivery is priced for: its address (codes, contract/src/order.ts addressPlace), or nowhere for a pickup. */
export function placeOf(input: Pick<ParsedOrderInput, 'address' | 'delivery'>): DeliveryPlace {
  if (input.delivery?.method === 'pickup' || !input.address) return {};
  return addressPlace(input.address);
}

/** The books as the pricing sees them: price in cents and weight. */
export const pricedBooks = (docs: BookDoc[]) => docs.map((b) => ({ priceCents: b.newPriceCents, weightGrams: b.weightGrams ?? null }));

/** THE price of an order (contract/src/pricing.ts priceOrder), as the quote computes it too; without a method, the default for its address. */
export function priceFor(settings: FulfilmentSettings, docs: BookDoc[], input: Pick<ParsedOrderInput, 'address' | 'delivery'>, discountCents = 0): Priced {
  return priceOrder(settings, pricedBooks(docs), input.delivery?.method, placeOf(input), discountCents);
}

/** The books as a discount code sees them (issue 40): price and category. */
export const discountedBooks = (docs: BookDoc[]) => docs.map((b) => ({ priceCents: b.newPriceCents, category: b.category }));

const storedCharges = (p: Extract<Priced, { ok: true }>): StoredCharges => ({
  subtotalCents: p.subtotalCents, ...(p.discountCents ? { discountCents: p.discountCents } : {}), shippingCents: p.shippingCents, taxCents: p.taxCents, shippingTaxCents: p.shippingTaxCents,
  taxRateBp: p.taxRateBp, taxIncluded: p.taxIncluded, taxLabel: p.taxLabel,
});

/**
 * How a line of `book` is ordered (issue 41): from the shelf, or as a pre-order (a forthcoming book,
 * or any book with a queue of waiting pre-orders: copies go to the queue first), given a copy at
 * once only when copies are on hand and nobody waits before it.
 */
export function lineKind(book: BookDoc, today: string): 'shelf' | PreorderState {
  const waiting = book.preorderWaiting ?? 0;
  if (!isForthcoming(book.publishedOn, today) && waiting === 0) return 'shelf';
  return waiting === 0 && (book.stock ?? 0) >= 1 ? 'allocated' : 'waiting';
}

/** A retry with the same key maps to the same document id, so it can never be stored twice. */
function orderIdFor(uid: string, idempotencyKey: string): string {
  return createHash('sha256').update(`${uid}\n${idempotencyKey}`).digest('hex').slice(0, 28);
}

/**
 * How long an unpaid card order holds its stock before the payment job looks at it, until its
 * Checkout session's own end replaces it: the session's 30 minutes and a margin for the call.
 */
export const UNPAID_GRACE_MS = (CHECKOUT_SESSION_MINUTES + 5) * 60 * 1000;

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
      const kinds = bookDocs.map((b) => lineKind(b, shopToday()));
      // A pre-order waits at stock 0, up to the book's optional limit of waiting copies.
      const full = (b: BookDoc) => b.preorderLimit !== undefined && (b.preorderWaiting ?? 0) + 1 > b.preorderLimit;
      const soldOut = input.productIDs.filter((_, i) => (kinds[i] === 'shelf' ? !((bookDocs[i]!.stock ?? 0) >= 1) : kinds[i] === 'waiting' && full(bookDocs[i]!)));
      if (soldOut.length > 0) {
        throw new HttpError(409, 'Some books are out of stock', { code: 'OUT_OF_STOCK', productIDs: soldOut });
      }
      // Priced with the settings this transaction read: a settings change commits before or after it.
      // An order without a method is priced as the shop's default delivery to its address (issue 36),
      // postage and tax included, and stored with that method: never the books alone.
      const settings = await readFulfilment(tx);
      const now = new Date().toISOString();
      // Issue 40: the code read in this transaction (a limit holds under any concurrency), refused before anything is written.
      const redemption = input.discountCode ? await stageRedemption(tx, input.discountCode, customer.uid, discountedBooks(bookDocs), now) : undefined;
      const priced = priceFor(settings, bookDocs, input, redemption?.cents);
      if (!priced.ok) throw new HttpError(422, priced.reason, { code: 'DELIVERY_UNAVAILABLE' });
      // Issue 40: a gift card pays min(balance, total), read and spent in this transaction; the order's total is what remains due.
      const spend = input.giftCardCode ? await stageGiftCardSpend(tx, input.giftCardCode, priced.totalCents) : undefined;
      const totalCents = priced.totalCents - (spend?.cents ?? 0);
      if (Math.round(input.totalPrice * 100) !== totalCents) {
        throw new HttpError(409, 'Prices have changed since you opened your cart', {
          code: 'PRICE_CHANGED',
          totalPrice: fromCents(totalCents),
        });
      }
      // One copy of each book, through the book write path (its reads happen here, before this transaction's writes).
      // A waiting pre-order takes no copy: it joins the book's queue (the book's count, written here,
      // makes a save that brings copies and this placement run one after the other).
      const stock = await stageBookWrites(
        tx,
        snaps.map((book, i) => (kinds[i] === 'waiting' ? { book, stockDelta: 0, waitingDelta: 1 } : { book, stockDelta: -1 })),
        { order: ref.path },
      );
      // A card order waits for its payment (issue 35): stock held, no placement mail (the payment's
      // confirmation is the one), and the payment job's deadline until a session says otherwise.
      // Nothing left to pay (a gift card paid it all): no payment step, whatever the shopper chose.
      const card = input.payment?.method === 'card' && totalCents > 0;
      // Stripe refuses a charge below its minimum on every try: refused here, before anything is written (issue 54).
      const belowMinimum = card ? cardMinimumReason(totalCents) : null;
      if (belowMinimum) throw new HttpError(422, belowMinimum, { code: 'BELOW_CARD_MINIMUM', due: fromCents(totalCents), minimum: fromCents(CARD_MINIMUM_CENTS) });
      const doc: OrderDoc = {
        uid: customer.uid,
        name: input.name,
        email: normaliseEmail(customer.email), // the verified address, not the typed one
        phone: input.phone,
        ...(input.address ? { address: input.address } : {}),
        delivery: { method: priced.method, weightGrams: priced.weightGrams, ...(priced.zone ? { zone: priced.zone } : {}) },
        charges: storedCharges(priced),
        ...(priced.method === 'pickup' ? { pickup: { address: settings.pickup.address, hours: settings.pickup.hours, holdDays: settings.pickup.holdDays } } : {}),
        ...(redemption ? { discount: { code: redemption.code, cents: priced.discountCents, ...(redemption.shard !== undefined ? { shard: redemption.shard } : {}) } } : {}),
        ...(spend ? { giftCard: { id: spend.id, last4: spend.last4, cents: spend.cents, returnedCents: 0 } } : {}),
        productIDs: input.productIDs,
        items: input.productIDs.map((bookId, i) => ({
          bookId,
          title: bookDocs[i]!.title,
          unitPriceCents: bookDocs[i]!.newPriceCents,
          coverImage: bookDocs[i]!.coverImage,
          ...(kinds[i] !== 'shelf' ? { preorder: kinds[i] as PreorderState, ...(bookDocs[i]!.publishedOn ? { publishedOn: bookDocs[i]!.publishedOn } : {}) } : {}),
        })),
        totalCents,
        status: 'pending',
        events: [],
        createdAt: now,
        updatedAt: now,
        ...(card
          ? {
              payment: { method: 'card', status: 'awaiting', amountCents: totalCents, refundedCents: 0, attempts: 0, refunds: [] },
              payBy: new Date(Date.parse(now) + UNPAID_GRACE_MS).toISOString(),
            }
          : {}),
        // No idempotencyKey: the id is derived from it, and the customer reads this document (rules).
        ...(idempotencyKey ? { requestHash: hash } : {}),
      };
      createOrder(tx, ref, doc); // first: where a commit is applied write by write (the stand-in), a duplicate stops here
      // The stock read above is this transaction's: a concurrent order for the last copy makes one
      // of the two commits fail and run again, and then it sees 0. (Taking copies releases no alerts: nothing runs after the commit.)
      stock.write();
      redemption?.write(ref.id, doc.email, now);
      spend?.write(ref.id, now);
      for (const line of doc.items) if (line.preorder) tx.create(preorders().doc(preorderId(ref.id, line.bookId)), newPreorder(ref.id, { uid: customer.uid, name: doc.name, email: doc.email }, now, line));
      addToCounters(tx, placementDelta(countedOrder(doc)));
      tx.set(accountRef, { openOrders: open + 1 }, { merge: true });
      if (!card) tx.create(mail().doc(mailId(ref.id, 'placed')), queued(orderMail(ref.id, mailOrder(doc), 'placed')));
      return { order: orderFromDoc(ref.id, doc), replayed: false };
    }, TX_OPTIONS);
  try {
    return await attempt();
  } catch (error) {
    // Two requests with one key raced: the loser's create failed, so answer with the winner's order.
    if (idempotencyKey && isAlreadyExists(error)) {
      const existing = await ref.get();
      countReads(1);
      if (existing.exists) return replay(existing, hash);
    }
    return busy(error);
  }
}

export async function getOrder(id: string, view: OrderView = 'customer'): Promise<Order | null> {
  const snap = await orders().doc(id).get();
  countReads(1);
  return snap.exists ? toOrder(snap, view) : null;
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
  /** The caller's own audit log of this transaction (a special order's move audits both on one chain head). */
  log?: AuditLog;
  /**
   * A special order collected at the counter (issue 41): its pickup order goes to collected from
   * any open status, since the request's own lifecycle (ordered, arrived) stood in for the order's.
   */
  handover?: boolean;
  /** The move comes from the order's special order request, which writes the request itself (order-link.ts). */
  fromSpecialOrder?: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** The statuses a special order's pickup order is collected from with its request (TransitionRequest.handover). */
const HANDOVER_FROM: readonly OrderStatus[] = ['pending', 'confirmed', 'ready_for_pickup'];


/** The copies a change puts back, staged in the book write path (issue 37: stock flags, alerts, catalogue version). */
export interface RestockPlan {
  staged: StagedBookWrites;
}

/**
 * Reads what putting one copy of each of `bookIds` back needs, inside `tx` (reads first: Firestore
 * refuses a read after a write), through the book write path (functions/src/books/book-writes.ts):
 * a sold-out book's back-in-stock alerts go out with its copy (issue 28). The one place besides
 * placement that touches stock for an order: cancelling, refusing, and a refund that restocks (issue 35).
 */
export async function readRestock(tx: Transaction, bookIds: readonly string[], orderPath: string, waitingBookIds: readonly string[] = []): Promise<RestockPlan> {
  const ids = [...new Set([...bookIds, ...waitingBookIds])];
  const snaps = ids.length ? await tx.getAll(...ids.map((id) => books().doc(id))) : [];
  countReads(snaps.length);
  const copies = (id: string) => bookIds.filter((b) => b === id).length;
  // A waiting pre-order (issue 41) took no copy: it leaves its book's queue instead.
  const leaving = (id: string) => waitingBookIds.filter((b) => b === id).length;
  // A book deleted since the order has no stock to return to.
  const staged = await stageBookWrites(
    tx,
    snaps.filter((book) => book.exists).map((book) => ({ book, stockDelta: copies(book.id), ...(leaving(book.id) ? { waitingDelta: -leaving(book.id) } : {}) })),
    { order: orderPath },
  );
  return { staged };
}

/** Writes the restock `plan` read; what it returns runs after the commit (alerts beyond the transaction's share). */
export function writeRestock(plan: RestockPlan): AfterCommit {
  return plan.staged.write();
}

/** A card order's money must be in before the shop moves it on (issue 35); only cancelling is open before. */
function assertPaymentAllows(doc: OrderDoc, to: OrderStatus, by: OrderEventActor): void {
  const payment = doc.payment;
  if (payment?.method !== 'card') return;
  // A flagged amount (AMOUNT_MISMATCH) is money in, but not the order's payment: the desk settles it first.
  const received = (payment.paidCents ?? 0) > 0 && payment.problem?.code !== 'AMOUNT_MISMATCH';
  if (to !== 'cancelled' && !received) {
    throw new HttpError(409, 'This order has not been paid yet', { code: 'PAYMENT_NOT_RECEIVED', status: doc.status });
  }
  // A chargeback is open (issue 54): books handed over now may never be paid for.
  if (disputeOpen(payment.dispute) && ['shipped', 'ready_for_pickup', 'delivered', 'collected'].includes(to)) {
    throw new HttpError(409, 'This payment is disputed: do not send the books until the dispute is settled (see Payment problems)', { code: 'PAYMENT_DISPUTED', status: doc.status });
  }
  if (to === 'cancelled' && (payment.paidCents ?? 0) > 0 && by.kind === 'customer' && !refundsWhenCancelled(doc)) {
    throw new HttpError(409, 'This order is paid: ask the shop to cancel and refund it', { code: 'ORDER_PAID', status: doc.status });
  }
}

/** An order goes out whole only when every pre-order line has its copy (issue 41; a split sends the rest first). */
function assertNothingWaits(doc: OrderDoc, to: OrderStatus): void {
  if (!['shipped', 'ready_for_pickup', 'delivered', 'collected'].includes(to)) return;
  const waiting = (doc.items ?? []).filter((l) => l.preorder === 'waiting');
  if (waiting.length > 0) {
    throw new HttpError(409, 'Some books of this order are pre-orders still waiting for copies', { code: 'PREORDER_WAITING', bookIds: waiting.map((l) => l.bookId) });
  }
}

/** What a planned transition writes, once every read is done. */
export interface TransitionWrite {
  /** Writes the move, merged with `extra` fields of the order (a payment change), and returns the order as written. */
  write(extra?: Partial<OrderDoc>): Order;
  /** What runs after the commit (the restock's alerts beyond the transaction's share). */
  afterCommit(): AfterCommit;
}

/**
 * Checks and reads for moving the order `doc` (read in `tx`) to `to`: the lifecycle (delivered or
 * picked up) must allow it from its status, a card order must be paid first (only cancelling is
 * open before). `write()` then appends the event, moves the counters, queues the mail and, for
 * cancelled and refused, puts back each line's copy (not those a refund already put back). Two
 * racing requests: the second re-reads the new status and gets 409, so stock comes back exactly
 * once. Marking a pickup order ready starts its hold and mails where and when to collect it.
 * Used by applyTransition and by a payment's expiry (payments.repo.ts), in their own transactions.
 */
export async function planTransition(tx: Transaction, orderId: string, doc: OrderDoc, request: Omit<TransitionRequest, 'orderId' | 'ownerUid'>): Promise<TransitionWrite> {
  const { to, by, note, actor } = request;
  const ref = orders().doc(orderId);
  const from = doc.status;
  const handedOver = request.handover === true && to === 'collected' && fulfilmentKind(doc) === 'pickup' && HANDOVER_FROM.includes(from);
  // A pickup order is never shipped, delivered or refused; only a pickup order is ready or collected.
  if (!handedOver && !canTransition(from, to, by.kind, fulfilmentKind(doc))) {
    throw new HttpError(409, `An order that is ${from} cannot be ${to}`, { code: 'INVALID_TRANSITION', status: from });
  }
  assertPaymentAllows(doc, to, by);
  assertNothingWaits(doc, to);
  // A part already left (issue 41): cancelling would put back and refund books the customer has.
  if (to === 'cancelled' && doc.shipments?.length) {
    throw new HttpError(409, 'Part of this order has shipped: refund what is not sent from the desk', { code: 'PART_SHIPPED', status: from });
  }
  const already = new Set(doc.restocked ?? []);
  const lines = RESTOCKING_STATUSES.includes(to) ? (doc.items ?? []).filter((l) => !already.has(l.bookId)) : [];
  const waiting = lines.filter((l) => l.preorder === 'waiting');
  const restock = await readRestock(tx, lines.filter((l) => l.preorder !== 'waiting').map((l) => l.bookId), ref.path, waiting.map((l) => l.bookId));
  const settings = to === 'ready_for_pickup' ? await readFulfilment(tx) : undefined;
  // Staff moves are audited: the audit chain's head is read with the other reads (only then).
  const log = actor ? (request.log ?? (await openAudit(tx))) : null;
  // Issue 40: a cancelled or refused order puts what its gift card paid (and no refund gave back yet) back on the card.
  const cardOwed = doc.giftCard && RESTOCKING_STATUSES.includes(to) ? doc.giftCard.cents - doc.giftCard.returnedCents : 0;
  const card = cardOwed > 0 ? await readCardForReturn(tx, doc.giftCard!.id) : undefined;
  // A special order's order that ends closes its request (special-orders/order-link.ts).
  const specialRequest = RESTOCKING_STATUSES.includes(to) && !request.fromSpecialOrder ? await readOpenRequestOf(tx, orderId) : null;
  let afterCommit = noAfterCommit;
  return {
    afterCommit: () => afterCommit,
    write(extra = {}) {
      const at = new Date().toISOString();
      const event: OrderEvent = { from, to, by, at, ...(note ? { note } : {}) };
      // An unpaid card order that ends closes its payment too (its session was closed at Stripe first).
      const unpaidCard = doc.payment?.method === 'card' && !(doc.payment.paidCents ?? 0) && RESTOCKING_STATUSES.includes(to);
      const closed = unpaidCard && !extra.payment ? { payment: { ...doc.payment!, expired: true, status: 'expired' as const } } : {};
      const change: Partial<OrderDoc> = { status: to, updatedAt: at, events: [...(doc.events ?? []), event], ...closed, ...extra };
      // The last part of an order shipped in parts (issue 41): what the first parts left.
      if (to === 'shipped' && doc.shipments?.length) {
        const sent = new Set(doc.shipments.flatMap((s) => s.bookIds));
        change.shipments = [...doc.shipments, { at, bookIds: (doc.items ?? []).map((l) => l.bookId).filter((id) => !sent.has(id)) }];
      }
      if (settings) {
        // The hold starts now, for the shop's current number of days; the mail says where and until when.
        const holdUntil = new Date(Date.parse(at) + settings.pickup.holdDays * DAY_MS).toISOString();
        change.holdUntil = holdUntil;
        change.pickup = { address: settings.pickup.address, hours: settings.pickup.hours, holdDays: settings.pickup.holdDays, holdUntil };
      }
      // Issue 40: a cancelled or refused order gives its discount code's redemption back (once: its status was read here).
      if (doc.discount && !doc.discount.returnedAt && RESTOCKING_STATUSES.includes(to)) {
        giveBackRedemption(tx, doc.discount.code, orderId, doc.uid, at, doc.discount.shard);
        change.discount = { ...doc.discount, returnedAt: at };
      }
      if (specialRequest) {
        closeRequest(tx, specialRequest, by.kind === 'customer' ? 'customer' : 'staff', at);
        const changes = { status: { before: specialRequest.doc.status, after: 'cancelled' } };
        if (actor && log) appendAudit(log, actor, { action: 'special-order.status', target: specialRequest.ref.path, changes }, at);
      }
      if (card && doc.giftCard) {
        giveBackToCard(tx, card, cardOwed, orderId, at, actor?.username);
        change.giftCard = { ...doc.giftCard, returnedCents: doc.giftCard.cents };
      }
      // Issue 41: a paid card pre-order cancelled owes its money back (the gift card's part went back
      // just above). Recorded here, once with the cancel; made through Stripe after the commit.
      const owed = to === 'cancelled' && doc.payment?.method === 'card' && refundsWhenCancelled(doc) ? refundableCents(doc.payment) : 0;
      if (owed > 0 && !doc.refundDue) {
        change.refundDue = { refundId: cancelRefundId(orderId), cents: owed, at };
        change.refundRetryAt = at; // until the refund is made: Stripe may not answer the cancel's own try
      }
      const updated: OrderDoc = { ...doc, ...change };
      // Leaving ready_for_pickup takes the order out of the release's query (status, holdUntil) for
      // good; a final status takes an unpaid card order out of the payment job's (payBy).
      const deletes: Record<string, FieldValue> = {};
      if (from === 'ready_for_pickup') deletes.holdUntil = FieldValue.delete();
      if (doc.payBy && RESTOCKING_STATUSES.includes(to)) deletes.payBy = FieldValue.delete();
      for (const key of Object.keys(deletes)) delete (updated as unknown as Record<string, unknown>)[key];
      updateOrder(tx, ref, { ...change, ...deletes });
      afterCommit = writeRestock(restock);
      if (RESTOCKING_STATUSES.includes(to)) cancelPreorderLines(tx, orderId, doc.items ?? []);
      if (to === 'shipped' || to === 'collected') {
        const sent = new Set((doc.shipments ?? []).flatMap((s) => s.bookIds));
        shipPreorderLines(tx, orderId, (doc.items ?? []).filter((l) => !sent.has(l.bookId)));
      }
      addToCounters(tx, transitionDelta(countedOrder(doc), from, to));
      // increment() needs no read, and conflicts with a placement that read the count: it stays exact.
      const openDelta = openOrdersDelta(from, to);
      if (openDelta !== 0) tx.set(customers().doc(doc.uid), { openOrders: FieldValue.increment(openDelta) }, { merge: true });
      tx.create(mail().doc(mailId(orderId, to)), queued(orderMail(orderId, mailOrder(updated), to, note)));
      if (actor && log) {
        const changes = { status: { before: from, after: to }, ...(note ? { note: { before: null, after: note } } : {}) };
        appendAudit(log, actor, { action: 'order.status', target: `orders/${orderId}`, changes }, at);
      }
      return orderFromDoc(orderId, updated);
    },
  };
}

/**
 * Moves an order to `to` in its own transaction (planTransition). `onlyIf` (the scheduled
 * release): when it is false of the order as read here, nothing is written and the answer is null.
 */
async function applyTransition(request: TransitionRequest, onlyIf?: (doc: OrderDoc) => boolean): Promise<Order | null> {
  const { orderId, ownerUid } = request;
  const ref = orders().doc(orderId);
  let afterCommit = noAfterCommit;
  const order = await db().runTransaction(async (tx) => {
    afterCommit = noAfterCommit;
    const snap = await tx.get(ref);
    countReads(1);
    const doc = snap.data() as OrderDoc | undefined;
    if (!doc || (ownerUid !== undefined && doc.uid !== ownerUid)) throw new HttpError(404, 'Order not found');
    if (onlyIf && !onlyIf(doc)) return null;
    const plan = await planTransition(tx, orderId, doc, request);
    const written = plan.write();
    afterCommit = plan.afterCommit();
    return written;
  }, TX_OPTIONS).catch(busy);
  await afterCommit();
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
  /** Found by the query but no longer due when their transaction read them (collected, cancelled, released by another run), or not released this run (an error, logged). */
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
    // Two runs at once contend on the order: the loser tries again and reads it released.
    const released = await retryContended(() => applyTransition(
      { orderId: snap.id, to: 'cancelled', by: { kind: 'system', id: 'shop' }, note: `Not collected within ${days ?? 'the'} days` },
      stillDue,
    )).catch((error: unknown) => {
      // One order's failure must not stop the others: it stays due for the next run.
      logger.error('Pickup hold not released this run', { orderId: snap.id, message: (error as Error).message });
      return null;
    });
    (released ? report.cancelled : report.skipped).push(snap.id);
  }
  return report;
}

// --- Lists: newest first, (createdAt, id) cursors, each page one query -----------------------------

async function pageOf(base: Query, limit: number, cursor?: string, view: OrderView = 'customer'): Promise<OrdersPage> {
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
  const list = docs.slice(0, limit).map((d) => toOrder(d, view));
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
  return (await runQuery(orders().orderBy('createdAt', 'desc').limit(limit))).docs.map((d) => toOrder(d));
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
    const order = await getOrder(request.orderId, 'staff');
    if (order) return { orders: inTab(order) ? [order] : [], nextCursor: null };
    // The desk shows ids by their first 8 characters: a shorter id is a prefix, one page of matches.
    const prefix = await runQuery(
      orders().where(FieldPath.documentId(), '>=', request.orderId).where(FieldPath.documentId(), '<', `${request.orderId}\uf8ff`).limit(request.limit),
    );
    return { orders: prefix.docs.map(toStaffOrder).filter(inTab), nextCursor: null };
  }
  let base: Query = orders();
  if (request.email) base = base.where('email', '==', normaliseEmail(request.email));
  if (request.status !== 'all') base = base.where('status', '==', request.status);
  return pageOf(base, request.limit, request.cursor, 'staff');
}

// --- Shipping in parts (issue 41) ------------------------------------------------------------------

/**
 * 'Ship available items': a confirmed delivery order with pre-order lines still waiting sends the
 * lines it has (on the shelf, or pre-orders given their copy) now, as a part; the order stays
 * confirmed, and its usual 'shipped' later sends the rest (planTransition records that last part).
 * One mail per part (its id counts the parts); the money and counters are the order's, unchanged.
 */
export async function shipAvailable(orderId: string, actor: AuditActor): Promise<Order> {
  const ref = orders().doc(orderId);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    const doc = snap.data() as OrderDoc | undefined;
    if (!doc) throw new HttpError(404, 'Order not found');
    if (doc.status !== 'confirmed' || fulfilmentKind(doc) === 'pickup') {
      throw new HttpError(409, 'Only a confirmed order for delivery can be shipped in parts', { code: 'INVALID_TRANSITION', status: doc.status });
    }
    assertPaymentAllows(doc, 'shipped', { kind: 'admin', id: actor.role });
    const sent = new Set((doc.shipments ?? []).flatMap((s) => s.bookIds));
    const items = doc.items ?? [];
    const waiting = items.filter((l) => l.preorder === 'waiting');
    const ready = items.filter((l) => l.preorder !== 'waiting' && !sent.has(l.bookId));
    if (waiting.length === 0) throw new HttpError(409, 'Nothing of this order waits: ship it whole', { code: 'NOTHING_WAITS' });
    if (ready.length === 0) throw new HttpError(409, 'Every book of this order still waits for copies', { code: 'NOTHING_TO_SHIP' });
    const log = await openAudit(tx); // a link of the audit chain: its head is read with the other reads
    const at = new Date().toISOString();
    const shipments = [...(doc.shipments ?? []), { at, bookIds: ready.map((l) => l.bookId) }];
    const note = `Shipped ${ready.length} of ${items.length} items; waiting: ${waiting.map((l) => l.title).join(', ')}`;
    const event: OrderEvent = { from: doc.status, to: doc.status, by: { kind: 'admin', id: actor.role }, at, note };
    const updated: OrderDoc = { ...doc, shipments, events: [...(doc.events ?? []), event], updatedAt: at };
    updateOrder(tx, ref, { shipments, events: updated.events, updatedAt: at });
    shipPreorderLines(tx, orderId, ready);
    const part = { ...mailOrder(updated), lines: ready.map((l) => ({ title: l.title, unitPriceCents: l.unitPriceCents })) };
    tx.create(mail().doc(`${orderId}-part-${shipments.length}`), queued(orderMail(orderId, part, 'shipped', note, 'Part of your order is on its way')));
    appendAudit(log, actor, { action: 'order.status', target: `orders/${orderId}`, changes: { shipment: { before: null, after: ready.map((l) => l.bookId) } } }, at);
    return orderFromDoc(orderId, updated);
  }, TX_OPTIONS).catch(busy);
}
