import type { Request, Response } from 'express';
import {
  CustomerOrdersQuerySchema,
  EMAIL_NOT_VERIFIED_MESSAGE,
  NEXT_CURSOR_HEADER,
  OrderCancelSchema,
  OrderIdSchema,
  OrderInputSchema,
  QuoteRequestSchema,
  cardMinimumReason,
  normaliseEmail,
  type Quote,
  type Order,
  type OrderMutationResponse,
  type OrdersPage,
  type PlacedOrderResponse,
} from '@bookstore/contract';
import { logger } from 'firebase-functions/logger';
import { z } from 'zod';
import { requireCustomer, requireCustomerOrAdmin } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { jsonBody, parseWith } from '../lib/validate';
import { clientAddress } from '../admin/client-address';
import { checkOrderRefusals, countOrderRefusal } from '../lib/order-refusals';
import { bookDocsByIds } from '../books/books.repo';
import * as repo from './orders.repo';
import { buildQuote } from './quote';
import { promotionQuote } from '../promotions/quote-promotions';
import { QuoteCache, quoteKey } from './quote-cache';
import { countQuote, readPricingInputs } from './quote.repo';
import { countForeignLookup } from './lookup-limit.repo';
import { openSession } from '../payments/checkout';
import { requireStripe } from '../payments/stripe-client';
import { needsFirstSession, readOrder } from '../payments/payments.repo';
import { cancelWithRefund } from '../payments/cancel-refunds';

const IdempotencyKeySchema = z.string().regex(/^[A-Za-z0-9_.:-]{8,128}$/);

export function idempotencyKey(req: Request): string | undefined {
  const value = req.headers['idempotency-key'];
  if (value === undefined) return undefined;
  const parsed = IdempotencyKeySchema.safeParse(value);
  if (!parsed.success) throw new HttpError(400, 'Idempotency-Key must be 8 to 128 letters, digits or -_.:');
  return parsed.data;
}

const sameEmail = (a: string, b: string) => normaliseEmail(a) === normaliseEmail(b);

/** An order id from the path; a malformed one cannot name an order, so it is simply not found. */
export function orderIdParam(req: Request): string {
  const parsed = OrderIdSchema.safeParse(req.params.id);
  if (!parsed.success) throw new HttpError(404, 'Order not found');
  return parsed.data;
}

/** A JSON body, or `{}` when none was sent at all (a bare POST to cancel). */
export function optionalJsonBody(req: Request): Record<string, unknown> {
  const raw = (req as Request & { rawBody?: Buffer }).rawBody;
  const sentNothing = !req.headers['content-type'] && (!raw || raw.length === 0);
  return sentNothing ? {} : jsonBody(req);
}

// POST /api/orders
export async function createOrder(req: Request, res: Response) {
  await checkOrderRefusals(req); // issue 55: refused orders are budgeted per account and address (lib/order-refusals.ts)
  try {
    await placeOrderFor(req, res);
  } catch (error) {
    // One structured entry per refused order (Cloud Logging: jsonPayload.code), so an operator can
    // count OUT_OF_STOCK, PRICE_CHANGED, TOO_MANY_OPEN_ORDERS... without reading request logs.
    if (error instanceof HttpError && error.status < 500) {
      logger.warn('Order refused', { status: error.status, code: error.extra.code ?? `HTTP_${error.status}`, message: error.message });
    }
    await countOrderRefusal(req, error);
    throw error;
  }
}

async function placeOrderFor(req: Request, res: Response) {
  const customer = await requireCustomer(req);
  // Anyone can open an email/password account with someone else's address: only a proven address
  // may order (cash on delivery to it, in its name). Cancelling and reading stay open to every account.
  if (!customer.emailVerified) throw new HttpError(403, EMAIL_NOT_VERIFIED_MESSAGE, { code: 'EMAIL_NOT_VERIFIED' });
  const key = idempotencyKey(req);
  const input = parseWith(OrderInputSchema, jsonBody(req));
  if (!sameEmail(input.email, customer.email)) {
    throw new HttpError(403, 'The order email must be the email you signed in with');
  }
  // Card (issue 35): refused before anything is stored when Stripe is not configured.
  if (input.payment?.method === 'card') requireStripe();
  const placed = await repo.placeOrder(customer, input, key);
  const { replayed } = placed;
  let order: PlacedOrderResponse = placed.order;
  if (order.payment.method === 'card') order = await withCheckout(order, customer.uid);
  noStore(res);
  if (replayed) {
    logger.info('Order retry replayed', { orderId: order._id, uid: customer.uid }); // a client retry with the same Idempotency-Key
    res.set('Idempotent-Replayed', 'true');
  }
  res.status(replayed ? 200 : 201).json(order satisfies Order);
}

/**
 * A card order answers with the Checkout page to go to: its session, opened now (first placement,
 * or a retry after Stripe did not answer: the same attempt's key opens the same session), or the
 * one already open (a replay). A Stripe failure is 502; the order waits, held, for that retry.
 */
async function withCheckout(order: Order, uid: string): Promise<PlacedOrderResponse> {
  const doc = await readOrder(order._id);
  if (doc && needsFirstSession(doc)) {
    const opened = await openSession(order._id, doc, 1, uid);
    return { ...opened.order, checkoutUrl: opened.checkoutUrl };
  }
  return order.payment.checkoutUrl ? { ...order, checkoutUrl: order.payment.checkoutUrl } : order;
}

// GET /api/orders?cursor=&limit=
export async function myOrders(req: Request, res: Response) {
  const customer = await requireCustomer(req);
  const page = parseWith(CustomerOrdersQuerySchema, req.query);
  const result = await repo.ordersOfUser(customer.uid, page);
  noStore(res);
  res.json(result satisfies OrdersPage);
}

// GET /api/orders/email/:email?cursor=&limit=
export async function ordersByEmail(req: Request, res: Response) {
  const email = String(req.params.email ?? '');
  if (!z.email().max(254).safeParse(email).success) throw new HttpError(400, 'Email is not valid');
  const caller = await requireCustomerOrAdmin(req, 'orders.desk');
  const page = parseWith(CustomerOrdersQuerySchema, req.query);
  let result;
  if ('admin' in caller) {
    result = await repo.ordersByEmail(email, page);
  } else {
    if (!sameEmail(email, caller.customer.email)) {
      await countForeignLookup(caller.customer.uid); // 429 past the account's budget
      throw new HttpError(403, 'You can only see your own orders');
    }
    // By uid, never by email alone: anyone can open an unverified account with someone else's address.
    result = await repo.ordersOfUser(caller.customer.uid, page);
  }
  noStore(res);
  // The spec's answer is a plain list; the next page's cursor travels in a header.
  if (result.nextCursor) res.set(NEXT_CURSOR_HEADER, result.nextCursor);
  res.json(result.orders satisfies Order[]);
}

// GET /api/orders/:id
export async function getOrder(req: Request, res: Response) {
  const caller = await requireCustomerOrAdmin(req, 'orders.desk');
  const id = orderIdParam(req);
  // A customer's answer never carries a refund's staff note (issue 55).
  const order = await repo.getOrder(id, 'admin' in caller ? 'staff' : 'customer');
  // Someone else's order answers exactly like a missing one: ids are not confirmed to strangers.
  if (!order || ('customer' in caller && order.uid !== caller.customer.uid)) throw new HttpError(404, 'Order not found');
  noStore(res);
  res.json(order satisfies Order);
}

// POST /api/orders/:id/cancel
export async function cancelOrder(req: Request, res: Response) {
  const caller = await requireCustomerOrAdmin(req, 'orders.status');
  const orderId = orderIdParam(req);
  const { note } = parseWith(OrderCancelSchema, optionalJsonBody(req));
  // An unpaid card order's session is closed at Stripe first (cancelWithRefund), so it cannot be paid
  // once cancelled; issue 41: a paid card pre-order is refunded by its cancel (payments/cancel-refunds.ts).
  const actor = 'admin' in caller ? caller.admin : undefined;
  const order = await cancelWithRefund(orderId, actor, () => repo.transitionOrder(
    'admin' in caller
      ? { orderId, to: 'cancelled', note, by: { kind: 'admin', id: caller.admin.role }, actor: caller.admin }
      : { orderId, to: 'cancelled', note, by: { kind: 'customer', id: caller.customer.uid }, ownerUid: caller.customer.uid },
  ), 'customer' in caller ? caller.customer.uid : undefined);
  noStore(res);
  res.json({ message: 'Order cancelled', order } satisfies OrderMutationResponse);
}

/** The quote says when the card cannot pay what is due (below Stripe's minimum, issue 54): the order would be refused. */
function withCardCheck(answer: Quote): Quote {
  const due = answer.due ?? answer.total;
  const reason = due === null || due === undefined ? null : cardMinimumReason(Math.round(due * 100));
  return reason ? { ...answer, cardProblem: reason } : answer;
}

/** This instance's quotes (quote-cache.ts): keyed by cart, method, place, settings and catalogue versions. */
const quotes = new QuoteCache();

// POST /api/checkout/quote {productIDs, delivery: {method?, country?, region?, zipcode?}}
// Anyone may ask (the cart asks before sign-in): it reads the settings and the books, writes nothing
// but the client's budget. Without a method it prices the default for the place (as an order without
// one). Places are codes (contract/src/places.ts): anything else is 400 naming what to choose.
// Each call costs 1 read and 1 write (the client's budget: 429 past QUOTES_PER_MINUTE), 2 reads
// (settings and catalogue versions) and, unless this instance answered the same question since,
// 1 read per book: at most 53 reads (docs/api.md).
// Books that no longer exist are named in `unknownProductIDs` and left out of the price, so a stale
// cart still sees its methods and total; the order itself refuses them (400 UNKNOWN_BOOKS), which
// is what flags them at checkout. A cart of unknown books only: 400 UNKNOWN_BOOKS here too.
export async function quote(req: Request, res: Response) {
  const { productIDs, delivery, discountCode, giftCardCode } = parseWith(QuoteRequestSchema, jsonBody(req));
  await countQuote(clientAddress(req));
  const { settings, settingsVersion, catalogVersion } = await readPricingInputs();
  // Issue 40: a code or a card is read fresh each time (1 read each, never cached: its use changes it).
  if (discountCode || giftCardCode) {
    const docs = await bookDocsByIds(productIDs);
    const known = docs.filter((d) => d !== undefined);
    if (known.length === 0) throw new HttpError(400, `Unknown book ids: ${productIDs.join(', ')}`, { code: 'UNKNOWN_BOOKS', productIDs, details: { productIDs } });
    const unknown = productIDs.filter((_, i) => !docs[i]);
    const place = { country: delivery.country, region: delivery.region, zipcode: delivery.zipcode };
    const answer = await promotionQuote(settings, known, delivery.method, place, discountCode, giftCardCode);
    noStore(res);
    res.json(withCardCheck({ ...answer, ...(unknown.length ? { unknownProductIDs: unknown } : {}) }) satisfies Quote);
    return;
  }
  const key = quoteKey({ productIDs, ...delivery, settingsVersion, catalogVersion });
  let answer = quotes.get(key);
  if (!answer) {
    const docs = await bookDocsByIds(productIDs);
    const unknown = productIDs.filter((_, i) => !docs[i]);
    if (unknown.length === productIDs.length) {
      throw new HttpError(400, `Unknown book ids: ${unknown.join(', ')}`, { code: 'UNKNOWN_BOOKS', productIDs: unknown, details: { productIDs: unknown } });
    }
    const books = repo.pricedBooks(docs.filter((d) => d !== undefined));
    // Pickup is priced without a place (taxed at the shop's own rate); the other methods are offered for it.
    const place = { country: delivery.country, region: delivery.region, zipcode: delivery.zipcode };
    answer = withCardCheck({ ...buildQuote(settings, books, delivery.method, place), ...(unknown.length ? { unknownProductIDs: unknown } : {}) }) satisfies Quote;
    quotes.set(key, answer);
  }
  noStore(res);
  res.json(answer);
}
