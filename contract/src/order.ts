import { z } from 'zod';
import { CursorSchema } from './paging';
import { BookIdSchema } from './book';
import { fromCents, MAX_PRICE_CENTS, parseMoneyInput } from './money';
import { DeliveryRequestSchema, type PickupInfo } from './fulfilment';
import { canonicalPostcode, hasRegions, isStreetAddress, placeProblems, postcodeKey, STREET_MESSAGE } from './places';
import { ratePercentLabel, type DeliveryMethod, type DeliveryPlace } from './pricing';
import { ROLES } from './roles';
import { optionalText, text } from './text';
import { stringList, type ErrorBody } from './errors';
import { DiscountCodeSchema, GiftCardCodeSchema } from './promotions';
import { cashPayment, paymentFromStored, PaymentRequestSchema, type OrderView, type Payment, type StoredPayment } from './payment';
import { PREORDER_STATES, type PreorderState } from './preorder';

export const MAX_ORDER_ITEMS = 50;
/** The most an order can cost: its most books, each at the highest price. */
export const MAX_ORDER_TOTAL_DOLLARS = (MAX_ORDER_ITEMS * MAX_PRICE_CENTS) / 100;

/** The ids that appear more than once in an order's list, each once (an order holds one copy per book). */
export function repeatedIds(ids: readonly string[]): string[] {
  return [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
}

/** An address as stored and shown. Orders from before issue 36 hold what was typed ('USA'); newer ones codes ('US'). */
export const AddressSchema = z
  .object({
    street: text('Street', 200),
    city: text('City', 100),
    country: text('Country', 100),
    state: z.string(), // '' where the country has no regions and none was given
    zipcode: z.string(), // '' where the country has no postcodes
  })
  .strip();
export type Address = z.infer<typeof AddressSchema>;

/**
 * An address to deliver to (issue 36): a country from the list (ISO 3166-1 alpha-2), its state or
 * province from the list where the country has one (free text, unpriced, elsewhere), a postcode in
 * the country's format where it has postcodes, and a street address a courier can find.
 */
export const AddressInputSchema = z
  .object({
    street: text('Street', 200).refine(isStreetAddress, STREET_MESSAGE),
    city: text('City', 100),
    country: text('Country', 100),
    state: optionalText('State', 100),
    zipcode: optionalText('Zipcode', 20),
  })
  .strip()
  .superRefine((a, ctx) => {
    const problems = placeProblems({ country: a.country, region: a.state, postcode: a.zipcode }, { complete: true, freeRegion: true });
    if (problems.country) ctx.addIssue({ code: 'custom', path: ['country'], message: problems.country });
    if (problems.region) ctx.addIssue({ code: 'custom', path: ['state'], message: problems.region });
    if (problems.postcode) ctx.addIssue({ code: 'custom', path: ['zipcode'], message: problems.postcode });
  })
  .transform((a): Address => ({ street: a.street, city: a.city, country: a.country, state: a.state ?? '', zipcode: a.zipcode ? canonicalPostcode(a.zipcode) : '' }));

/** Where an address's delivery is priced: its country, its region where the country has a list, its postcode. */
export function addressPlace(address: Address): DeliveryPlace {
  return {
    country: address.country,
    ...(hasRegions(address.country) && address.state ? { region: address.state } : {}),
    ...(address.zipcode ? { zipcode: address.zipcode } : {}),
  };
}

export const OrderInputSchema = z
  .object({
    name: text('Name', 100),
    email: z.email({ error: 'Email is not valid' }).max(254),
    // The spec's phone field is an <input type="number">, so either form arrives.
    phone: z
      .union([z.string(), z.number()], { error: 'Phone must be a phone number' })
      .transform((value) => String(value).trim())
      .refine((value) => /^\+?[0-9][0-9 -]{4,24}$/.test(value), 'Phone must be a phone number'),
    // Required unless the books are picked up in the shop (checked below).
    address: AddressInputSchema.optional(),
    productIDs: z
      .array(BookIdSchema, { error: 'productIDs must be a list of book ids' })
      .min(1, 'Choose at least one book')
      .max(MAX_ORDER_ITEMS, `An order holds at most ${MAX_ORDER_ITEMS} books`)
      .superRefine((ids, ctx) => {
        // One copy per book: the cart holds each book once, so a repeat is a broken client.
        const repeated = repeatedIds(ids);
        if (repeated.length > 0) ctx.addIssue({ code: 'custom', message: `Repeated book ids: ${repeated.join(', ')}` });
      }),
    totalPrice: z.unknown().transform((value, ctx) => {
      const dollars = parseMoneyInput(value);
      if (dollars === null) {
        ctx.addIssue({ code: 'custom', message: 'totalPrice must be an amount with at most 2 decimals' });
        return z.NEVER;
      }
      // No order can cost nothing or more than its most books at the highest price: such a total is
      // a broken or hostile client (400), not a price that changed (409).
      // 0 only when a gift card pays it all (issue 40: checked below).
      if (dollars < 0 || dollars > MAX_ORDER_TOTAL_DOLLARS) {
        ctx.addIssue({ code: 'custom', message: `totalPrice must be between 0.01 and ${MAX_ORDER_TOTAL_DOLLARS}` });
        return z.NEVER;
      }
      return dollars;
    }),
    /**
     * How the books reach the customer (issue 27): the checkout always sends it. An order without it
     * is priced and stored as the shop's default delivery to its address (issue 36: postage and tax
     * included, never the books alone). Its place fields, when sent, must be the address's.
     */
    delivery: DeliveryRequestSchema.optional(),
    /** Issue 35: `{method: 'card'}` pays on a Stripe Checkout page; absent or cash: cash on delivery, as before. */
    payment: PaymentRequestSchema.optional(),
    /** Issue 40: a discount code (contract/src/promotions.ts), taken off the books before shipping and tax. */
    discountCode: DiscountCodeSchema.optional(),
    /** Issue 40: a gift card pays min(balance, total); `totalPrice` is then what remains due. */
    giftCardCode: GiftCardCodeSchema.optional(),
  })
  .strip()
  .superRefine((order, ctx) => {
    if (order.totalPrice === 0 && !order.giftCardCode) {
      ctx.addIssue({ code: 'custom', path: ['totalPrice'], message: `totalPrice must be between 0.01 and ${MAX_ORDER_TOTAL_DOLLARS}` });
      return;
    }
    if (order.delivery?.method !== 'pickup' && !order.address) {
      ctx.addIssue({ code: 'custom', path: ['address'], message: 'Address is required for delivery' });
      return;
    }
    const { delivery, address } = order;
    if (!delivery || !address) return;
    const differs = (a: string | undefined, b: string) => a !== undefined && a !== b;
    if (differs(delivery.country, address.country) || differs(delivery.region, address.state) || (delivery.zipcode !== undefined && postcodeKey(delivery.zipcode) !== postcodeKey(address.zipcode))) {
      ctx.addIssue({ code: 'custom', path: ['delivery'], message: "The delivery's country, region and zipcode must be the address's" });
    }
  });
export type OrderInput = z.input<typeof OrderInputSchema>;
export type ParsedOrderInput = z.output<typeof OrderInputSchema>;

// ---------------------------------------------------------------------------------------------
// Lifecycle

export const ORDER_STATUSES = ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled', 'refused', 'ready_for_pickup', 'collected'] as const;
export const OrderStatusSchema = z.enum(ORDER_STATUSES, { error: `Status must be one of ${ORDER_STATUSES.join(', ')}` });
export type OrderStatus = z.infer<typeof OrderStatusSchema>;

/** `system`: the shop's own jobs and Stripe's word (a pickup hold or a card payment's time that ran out). */
export const ORDER_ACTORS = ['admin', 'customer', 'system'] as const;
export type OrderActor = (typeof ORDER_ACTORS)[number];

type TransitionTable = Readonly<Record<OrderStatus, Readonly<Partial<Record<OrderStatus, readonly OrderActor[]>>>>>;

/**
 * Every allowed move of an order that is delivered (local delivery, post, or an order without a
 * method), and who may make it. Anything not listed is refused with 409 INVALID_TRANSITION.
 * `cancelled`, `refused` and `delivered` are final.
 */
export const ORDER_TRANSITIONS: TransitionTable = {
  // system: an unpaid card order whose payment time ran out (issue 35).
  pending: { confirmed: ['admin'], cancelled: ['admin', 'customer', 'system'] },
  confirmed: { shipped: ['admin'], cancelled: ['admin', 'customer'] },
  shipped: { delivered: ['admin'], refused: ['admin'] }, // refused: cash on delivery refused at the door
  delivered: {},
  cancelled: {},
  refused: {},
  ready_for_pickup: {},
  collected: {},
};

/**
 * An order picked up in the shop (issue 27): confirmed, then put aside ('ready'), then collected
 * and paid at the counter. A hold not collected in time is cancelled by the shop's scheduled job
 * (`system`). Never shipped, delivered or refused at a door.
 */
export const PICKUP_TRANSITIONS: TransitionTable = {
  pending: { confirmed: ['admin'], cancelled: ['admin', 'customer', 'system'] },
  confirmed: { ready_for_pickup: ['admin'], cancelled: ['admin', 'customer'] },
  ready_for_pickup: { collected: ['admin'], cancelled: ['admin', 'customer', 'system'] },
  collected: {},
  cancelled: {},
  shipped: {},
  delivered: {},
  refused: {},
};

/** Which lifecycle an order follows. */
export type FulfilmentKind = 'pickup' | 'delivery';
export function fulfilmentKind(order: { delivery?: { method: DeliveryMethod } | null }): FulfilmentKind {
  return order.delivery?.method === 'pickup' ? 'pickup' : 'delivery';
}

export function canTransition(from: OrderStatus, to: OrderStatus, actor: OrderActor, kind: FulfilmentKind = 'delivery'): boolean {
  return (kind === 'pickup' ? PICKUP_TRANSITIONS : ORDER_TRANSITIONS)[from]?.[to]?.includes(actor) ?? false;
}

/** The statuses `actor` may move an order to from `from` (what the UI offers as actions). */
export function nextStatuses(from: OrderStatus, actor: OrderActor, kind: FulfilmentKind = 'delivery'): OrderStatus[] {
  return ORDER_STATUSES.filter((to) => canTransition(from, to, actor, kind));
}


/** Issue 41: an order with a pre-order line still waiting for its copy. */
export const hasWaitingPreorder = (order: { items?: readonly { preorder?: PreorderState }[] }) => (order.items ?? []).some((l) => l.preorder === 'waiting');

/**
 * Issue 41: a card order paid for, with a pre-order still waiting and nothing of it shipped: its
 * customer may cancel it (a paid order is otherwise cancelled by the shop), and cancelling it
 * refunds what was paid by itself (gift card first, then the card).
 */
export const refundsWhenCancelled = (order: { items?: readonly { preorder?: PreorderState }[]; shipments?: readonly unknown[] }) =>
  hasWaitingPreorder(order) && !(order.shipments?.length ?? 0);

/** Reaching these puts every line's copy back in stock, and takes the order out of revenue. */
export const RESTOCKING_STATUSES: readonly OrderStatus[] = ['cancelled', 'refused'];
/** Orders the admin still has to act on ('Orders to process'). */
export const OPEN_STATUSES: readonly OrderStatus[] = ['pending', 'confirmed'];

/** Final statuses in which the customer has paid: the cash is in the shop's hands (issue 29's 'collected'). */
export const PAID_STATUSES: readonly OrderStatus[] = ['delivered', 'collected'];

/** Whether an order in this status counts in revenue, total orders and the monthly chart. */
export function countsInRevenue(status: OrderStatus): boolean {
  return !RESTOCKING_STATUSES.includes(status);
}

// ---------------------------------------------------------------------------------------------
// A stored order, as the API sends it (money in dollars; stored in cents)

export const OrderIdSchema = z
  .string({ error: 'Order id must be text' })
  .regex(/^(?!__)[A-Za-z0-9_-]{1,64}$/, 'Order id is not valid');

/** One line of an order: the book as it was when the order was placed (one copy per line). */
export const OrderLineSchema = z.object({
  bookId: z.string(),
  title: z.string(), // 'Deleted book' for lines of old orders whose book no longer existed at migration
  unitPrice: z.number(), // dollars
  coverImage: z.string(),
  /** A pre-order's line (issue 41): waiting for copies, or given one; absent for a book on the shelf. */
  preorder: z.enum(PREORDER_STATES).optional(),
  /** A pre-order's publication date, as the book gave it when ordered. */
  publishedOn: z.string().optional(),
});
export type OrderLine = z.infer<typeof OrderLineSchema>;

/**
 * Who made a change: for staff their role ('owner', 'manager', 'bookseller'; never the username,
 * since the customer reads these events; the audit log names the person), or the customer's uid.
 */
export const OrderEventActorSchema = z.object({ kind: z.enum(ORDER_ACTORS), id: z.string() });
export type OrderEventActor = z.infer<typeof OrderEventActorSchema>;

/** One status change, appended to the order in the same transaction as the change. */
export const OrderEventSchema = z.object({
  from: OrderStatusSchema,
  to: OrderStatusSchema,
  by: OrderEventActorSchema,
  at: z.string(), // ISO 8601
  note: z.string().optional(),
});
export type OrderEvent = z.infer<typeof OrderEventSchema>;

export const OrderSchema = z.object({
  _id: z.string(),
  uid: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: AddressSchema.optional(), // absent on a pickup order
  /** The spec's field; the same ids as `items`, in the same order. */
  productIDs: z.array(z.string()),
  items: z.array(OrderLineSchema),
  totalPrice: z.number(), // dollars: the cash due on delivery
  status: OrderStatusSchema,
  events: z.array(OrderEventSchema), // oldest first; placement itself is `createdAt`
  /** Issue 41: an order shipped in parts ('Ship available items'), each part's books; absent when shipped whole. */
  shipments: z.array(z.object({ at: z.string(), bookIds: z.array(z.string()) })).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** How an order is fulfilled and what it adds up to (issue 27); absent on orders placed without a method. */
export interface OrderDelivery {
  method: DeliveryMethod;
  zone?: string;
  weightGrams: number;
}
export interface OrderCharges {
  subtotal: number;
  /** Issue 40: taken off the books by `discountCode`, before shipping and tax (absent: none). */
  discount?: number;
  shipping: number;
  tax: number;
  taxIncluded: boolean;
  taxLabel: string;
  /** Percent, as shown ('7%'). */
  taxRate: string;
}
export interface OrderPickup extends PickupInfo {
  /** Set when the order is ready: collected by then, or cancelled by the shop. */
  holdUntil?: string;
}
export type Order = z.infer<typeof OrderSchema> & {
  delivery?: OrderDelivery;
  charges?: OrderCharges;
  pickup?: OrderPickup;
  /** How it is paid and what was refunded (issue 35); every order has one (cash: derived from its status). */
  payment: Payment;
  /** Issue 40: the code redeemed and what it took off (also in `charges.discount`). */
  discount?: { code: string; amount: number; returned: boolean };
  /** Issue 40: the gift card (its last 4 symbols) that paid `amount`; `totalPrice` is what remained due. */
  giftCard?: { last4: string; amount: number; returned: number };
};

// ---------------------------------------------------------------------------------------------
// An order as stored in Firestore (money in cents). The function answers it as an Order through
// orderFromStored, and the customer's order pages, which read their own orders straight from
// Firestore under the security rules, map it with the same function: one shape on both sides.

/** A line as stored: the book as it was sold, price in cents. */
export interface StoredOrderLine {
  bookId: string;
  title: string;
  unitPriceCents: number;
  coverImage: string;
  /** Issue 41: a pre-order's line waits for a copy, or has one (contract/src/preorder.ts). */
  preorder?: PreorderState;
  publishedOn?: string;
}

/** What the order was charged, as priced (contract/src/pricing.ts), in cents. */
export interface StoredCharges {
  subtotalCents: number;
  /** Issue 40: off the books by a discount code (absent: none). */
  discountCents?: number;
  shippingCents: number;
  taxCents: number;
  shippingTaxCents: number;
  taxRateBp: number;
  taxIncluded: boolean;
  taxLabel: string;
}

export interface StoredOrder {
  uid: string;
  name: string;
  email: string; // lowercase
  phone: string;
  address?: Address; // absent on a pickup order
  delivery?: OrderDelivery;
  charges?: StoredCharges;
  /** The shop's pickup details when the order was placed (and the hold's end once ready). */
  pickup?: OrderPickup;
  /** ISO; on ready_for_pickup orders only, for the scheduled release's query (status, holdUntil). */
  holdUntil?: string;
  /** Card orders (and cash orders once refunded): the payment and its refunds (issue 35). */
  payment?: StoredPayment;
  /** ISO; on unpaid card orders only: when the job confirms with Stripe and cancels an expired one. */
  payBy?: string;
  /** Books put back in stock by refunds: a later cancel does not put them back twice. */
  restocked?: string[];
  /** Issue 40: the discount code the order redeemed; `returnedAt` once a cancel gave the redemption back. */
  /** `shard`: the allowance shard the redemption was counted in, for a sharded code (issue 40). */
  discount?: { code: string; cents: number; returnedAt?: string; shard?: number };
  /** Issue 40: the gift card that paid `cents` of it (`totalCents` is what remained due); `returnedCents` put back on the card. */
  giftCard?: { id: string; last4: string; cents: number; returnedCents: number; refunds?: { id: string; cents: number; at: string; restocked: boolean; requestHash?: string }[] };
  /** Issue 41: the parts shipped so far, when the desk shipped the available items first. */
  shipments?: { at: string; bookIds: string[] }[];
  productIDs: string[];
  items: StoredOrderLine[];
  totalCents: number;
  status: OrderStatus;
  events: OrderEvent[];
  createdAt: string;
  updatedAt: string;
  // No idempotency key: the order's id is derived from it, and the customer can read this document.
}

export function chargesFromStored(c: StoredCharges): OrderCharges {
  return {
    subtotal: fromCents(c.subtotalCents), ...(c.discountCents ? { discount: fromCents(c.discountCents) } : {}), shipping: fromCents(c.shippingCents), tax: fromCents(c.taxCents),
    taxIncluded: c.taxIncluded, taxLabel: c.taxLabel, taxRate: ratePercentLabel(c.taxRateBp),
  };
}

/** The API's order: dollars instead of stored cents. */
export function orderFromStored(id: string, doc: StoredOrder, view: OrderView = 'customer'): Order {
  return {
    _id: id,
    uid: doc.uid,
    name: doc.name,
    email: doc.email,
    phone: doc.phone,
    ...(doc.address ? { address: doc.address } : {}),
    ...(doc.delivery ? { delivery: doc.delivery } : {}),
    ...(doc.charges ? { charges: chargesFromStored(doc.charges) } : {}),
    ...(doc.pickup ? { pickup: doc.pickup } : {}),
    productIDs: doc.productIDs,
    // Orders from before issue 11 have no lines until scripts/lib/migrate-orders.ts has run.
    items: (doc.items ?? []).map((l) => ({
      bookId: l.bookId, title: l.title, unitPrice: fromCents(l.unitPriceCents), coverImage: l.coverImage,
      ...(l.preorder ? { preorder: l.preorder, ...(l.publishedOn ? { publishedOn: l.publishedOn } : {}) } : {}),
    })),
    totalPrice: fromCents(doc.totalCents),
    status: doc.status,
    // Events written before issue 25 named the staff member: answered as 'staff', never the username.
    events: (doc.events ?? []).map((e) => (e.by.kind === 'admin' && !(ROLES as readonly string[]).includes(e.by.id) ? { ...e, by: { kind: 'admin', id: 'staff' } } : e)),
    ...(doc.shipments?.length ? { shipments: doc.shipments } : {}),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt ?? doc.createdAt,
    payment: paymentFromStored(storedPaymentOf(doc), view),
    ...(doc.discount ? { discount: { code: doc.discount.code, amount: fromCents(doc.discount.cents), returned: Boolean(doc.discount.returnedAt) } } : {}),
    ...(doc.giftCard ? { giftCard: { last4: doc.giftCard.last4, amount: fromCents(doc.giftCard.cents), returned: fromCents(doc.giftCard.returnedCents) } } : {}),
  };
}

/** The order's payment: a card order's as stored; a cash order's from its status (and refunds, if any). */
export function storedPaymentOf(doc: Pick<StoredOrder, 'payment' | 'status' | 'totalCents'>): StoredPayment {
  if (doc.payment?.method === 'card') return doc.payment;
  return cashPayment(doc.status, doc.totalCents, doc.payment);
}

// ---------------------------------------------------------------------------------------------
// Routes (errors are always { message, code?, ... }; 401 without/with a bad token):
//   POST /api/orders                      customer   201 Order | 200 Order (same Idempotency-Key)
//        400 UnknownBooksResponse, 403 EmailNotVerifiedResponse, 409 OutOfStockResponse | PriceChangedResponse
//        | TooManyOpenOrdersResponse, 422 IdempotencyKeyReusedResponse (same key, different body)
//        | DeliveryUnavailableResponse (the method cannot deliver to the address; fulfilment.ts)
//   POST /api/checkout/quote {productIDs, delivery}   anyone   200 Quote (fulfilment.ts)
//   GET  /api/orders?cursor=&limit=       customer   200 OrdersPage (own orders, newest first)
//   GET  /api/orders/email/:email?cursor=&limit=   that customer or admin   200 Order[] (+ X-Next-Cursor)
//   GET  /api/orders/:id                  owner or admin   200 Order; anyone else 404
//   POST /api/orders/:id/cancel {note?}   owner or admin   200 OrderMutationResponse; 409 InvalidTransitionResponse
//   GET  /api/admin/orders?status=&q=&cursor=&limit=   admin   200 AdminOrdersPage
//   POST /api/admin/orders/:id/status {status, note?}  admin   200 OrderMutationResponse; 409 InvalidTransitionResponse
//   GET  /api/admin                       admin      200 AdminStats (see admin.ts)
// Requests

/** An optional note kept with the event (why it was cancelled or refused). */
export const OrderNoteSchema = optionalText('Note', 500, { multiline: true });

/** POST /api/admin/orders/:id/status */
export const OrderStatusChangeSchema = z.object({ status: OrderStatusSchema, note: OrderNoteSchema }).strip();
export type OrderStatusChange = z.input<typeof OrderStatusChangeSchema>;

/** POST /api/orders/:id/cancel (the body may also be empty) */
export const OrderCancelSchema = z.object({ note: OrderNoteSchema }).strip();
export type OrderCancel = z.input<typeof OrderCancelSchema>;


export const ADMIN_ORDERS_PAGE_SIZE = 25;
export const ORDER_TABS = ['all', ...ORDER_STATUSES] as const;
export type OrderTab = (typeof ORDER_TABS)[number];

/** GET /api/admin/orders?status=&q=&cursor=&limit= */
export const AdminOrdersQuerySchema = z
  .object({
    status: z.enum(ORDER_TABS, { error: `status must be one of ${ORDER_TABS.join(', ')}` }).default('all'),
    /** A customer's email (exact, any case) or an order id; empty means no search. */
    q: optionalText('q', 254, { search: true }),
    cursor: CursorSchema.optional(),
    limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(100).default(ADMIN_ORDERS_PAGE_SIZE),
  })
  .strip();
export type AdminOrdersQuery = z.input<typeof AdminOrdersQuerySchema>;

export const CUSTOMER_ORDERS_PAGE_SIZE = 10;
export const MAX_CUSTOMER_ORDERS_PAGE_SIZE = 20;

/** GET /api/orders?cursor=&limit= and GET /api/orders/email/:email?cursor=&limit= */
export const CustomerOrdersQuerySchema = z
  .object({
    cursor: CursorSchema.optional(),
    limit: z.coerce
      .number({ error: 'limit must be a number' })
      .int()
      .min(1)
      .max(MAX_CUSTOMER_ORDERS_PAGE_SIZE)
      .default(CUSTOMER_ORDERS_PAGE_SIZE),
  })
  .strip();
export type CustomerOrdersQuery = z.input<typeof CustomerOrdersQuerySchema>;

// ---------------------------------------------------------------------------------------------
// Responses

/** Orders per status, and `all` (every status). Kept in counters, not counted per request. */
export type OrderCounts = Record<OrderTab, number>;

/** GET /api/orders (the signed-in customer's orders, newest first). `nextCursor` is null on the last page. */
export interface OrdersPage {
  orders: Order[];
  nextCursor: string | null;
}

/** GET /api/admin/orders */
export interface AdminOrdersPage extends OrdersPage {
  counts: OrderCounts;
}

/** GET /api/orders/email/:email answers a plain list (the spec's shape); the next page's cursor is in this header. */
export const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

/** POST /api/orders: the order; a card order also names its Stripe Checkout page (issue 35). */
export type PlacedOrderResponse = Order & { checkoutUrl?: string };

/** 200 answer of a status change or a cancel. */
export interface OrderMutationResponse {
  message: string;
  order: Order;
}

/** Body of the 409 answer when the cart's prices changed since the client computed its total. */
export interface PriceChangedResponse {
  message: string;
  code: 'PRICE_CHANGED';
  totalPrice: number;
}

/** 409: these books have no copies left; nothing was stored. */
export interface OutOfStockResponse {
  message: string; // 'Some books are out of stock'
  code: 'OUT_OF_STOCK';
  productIDs: string[];
}

/** 400: these books do not exist (deleted); nothing was stored. */
export interface UnknownBooksResponse {
  message: string;
  code: 'UNKNOWN_BOOKS';
  productIDs: string[];
  details: { productIDs: string[] };
}

/** 409: the move is not allowed from the order's current status (sent back as `status`). */
export interface InvalidTransitionResponse {
  message: string;
  code: 'INVALID_TRANSITION';
  status: OrderStatus;
}

// ---------------------------------------------------------------------------------------------
// Who may order, and how much at once (issue 16)

/**
 * Open orders (pending or confirmed) one account may hold at once: cash on delivery costs the shop
 * a trip per order, so one account cannot tie up stock without limit. An operator may raise it for
 * one customer (`maxOpenOrders` on the server-only `customers/{uid}` document).
 */
export const MAX_OPEN_ORDERS = 10;

export const EMAIL_NOT_VERIFIED_MESSAGE = 'Verify your email address first';

/** 403: the ID token's `email_verified` is false; nothing was stored. Cancel and reading stay allowed. */
export interface EmailNotVerifiedResponse {
  message: typeof EMAIL_NOT_VERIFIED_MESSAGE;
  code: 'EMAIL_NOT_VERIFIED';
}

/** 409: the account already has its limit of pending + confirmed orders; nothing was stored. */
export interface TooManyOpenOrdersResponse {
  message: string;
  code: 'TOO_MANY_OPEN_ORDERS';
  limit: number;
}

/** 422: this Idempotency-Key already placed an order with a different body; nothing was stored. */
export interface IdempotencyKeyReusedResponse {
  message: 'This Idempotency-Key was used for a different order';
  code: 'IDEMPOTENCY_KEY_REUSED';
}

// ---------------------------------------------------------------------------------------------
// Reading the order answers' error bodies (zod-free, like errors.ts: the client reads them)

/** The server's current total of a 409 PRICE_CHANGED, or null for any other answer. */
export function priceChangedTotal(status: number | undefined, body: ErrorBody | undefined): number | null {
  return status === 409 && body?.code === 'PRICE_CHANGED' && typeof body.totalPrice === 'number' ? body.totalPrice : null;
}

/**
 * The books a failed order named as unorderable: 409 OUT_OF_STOCK, or 400 UNKNOWN_BOOKS (deleted
 * since they were put in the cart). Anything else is not about particular lines.
 */
export function unorderableBooks(status: number | undefined, body: ErrorBody | undefined): { reason: 'out-of-stock' | 'deleted'; productIDs: string[] } | null {
  const productIDs = stringList(body?.productIDs);
  if (productIDs.length === 0) return null;
  if (status === 409 && body?.code === 'OUT_OF_STOCK') return { reason: 'out-of-stock', productIDs };
  if (status === 400 && body?.code === 'UNKNOWN_BOOKS') return { reason: 'deleted', productIDs };
  return null;
}

/** The one spelling of an email for comparing and storing: trimmed, lower case. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
