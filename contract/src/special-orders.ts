import { z } from 'zod';
import { ISBN_MESSAGE, toIsbn13 } from './isbn';
import { shopDay } from './locale';
import { fromCents, parseMoneyInput, toCents } from './money';
import { CursorSchema } from './paging';
import { optionalText } from './text';

// Special orders (issue 41): a signed-in shopper asks the shop to order in a book it does not list.
// The shop quotes a price and a date; the shopper accepts (the request becomes an order, priced at
// the quote) or declines; the shop orders it, it arrives (mailed), the shopper collects it.
//
//   requested --quoted--> quoted --(shopper) accept--> accepted --ordered--> ordered --arrived--> arrived --collected--> collected
//                                --(shopper) decline--> declined
//   any open status --cancelled--> cancelled (staff); requested or quoted --(shopper) cancel--> cancelled

export const SPECIAL_ORDER_STATUSES = ['requested', 'quoted', 'accepted', 'declined', 'ordered', 'arrived', 'collected', 'cancelled'] as const;
export type SpecialOrderStatus = (typeof SPECIAL_ORDER_STATUSES)[number];
/** The statuses staff set (POST /api/admin/special-orders/:id/status). */
export const STAFF_SPECIAL_STATUSES = ['quoted', 'ordered', 'arrived', 'collected', 'cancelled'] as const;
export type StaffSpecialStatus = (typeof STAFF_SPECIAL_STATUSES)[number];
/** Still open: counts towards the account's limit. */
export const OPEN_SPECIAL_STATUSES: readonly SpecialOrderStatus[] = ['requested', 'quoted', 'accepted', 'ordered', 'arrived'];
export const MAX_OPEN_SPECIAL_ORDERS = 10;
export const MAX_SPECIAL_QUANTITY = 10;
export const SPECIAL_ORDERS_PAGE_SIZE = 20;

/** The moves staff may make, from each status. */
const STAFF_MOVES: Record<StaffSpecialStatus, readonly SpecialOrderStatus[]> = {
  quoted: ['requested', 'quoted'], // a new quote replaces one not yet answered
  ordered: ['accepted'],
  arrived: ['ordered'],
  collected: ['arrived'],
  cancelled: ['requested', 'quoted', 'accepted', 'ordered', 'arrived'],
};
export const canMoveSpecial = (from: SpecialOrderStatus, to: StaffSpecialStatus) => STAFF_MOVES[to].includes(from);

const Isbn = z
  .string({ error: 'ISBN must be text' })
  .trim()
  .refine((value) => toIsbn13(value) !== null, ISBN_MESSAGE)
  .transform((value) => toIsbn13(value)!);

/** POST /api/special-orders */
export const SpecialOrderRequestSchema = z
  .object({
    isbn: Isbn,
    title: optionalText('Title', 200).optional(),
    quantity: z.coerce.number({ error: 'Quantity must be a whole number' }).int('Quantity must be a whole number').min(1, 'Quantity must be at least 1').max(MAX_SPECIAL_QUANTITY, `Quantity must be at most ${MAX_SPECIAL_QUANTITY}`),
    note: optionalText('Note', 500, { multiline: true }).optional(),
  })
  .strict();
export type SpecialOrderRequest = z.output<typeof SpecialOrderRequestSchema>;

const ExpectedOn = z.string({ error: 'Expected date must be text' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected date must be YYYY-MM-DD');

/** A quote's bounds (issue 55): a copy's price, and how far ahead its date may be. */
export const MAX_SPECIAL_QUOTE_CENTS = 100_000;

/**
 * The latest expected date a quote made on the shop's day `today` (YYYY-MM-DD) may name: the same
 * day a year later (29 February: 1 March). The desk's date field's max, and the server's bound.
 */
export function latestSpecialQuoteDay(today: string): string {
  const at = new Date(`${today}T00:00:00Z`);
  at.setUTCFullYear(at.getUTCFullYear() + 1);
  return at.toISOString().slice(0, 10);
}

/** A calendar date that exists (2027-02-30 does not). */
const realDate = (day: string) => {
  const at = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === day;
};

/**
 * POST /api/admin/special-orders/:id/status: a quote needs its price (dollars, at most 1,000.00 a
 * copy) and an expected date from the shop's today to a year ahead: a quote is what the shopper
 * accepts as an order, so a slip of the desk (10,000 a copy, the year 2207) must not reach them.
 */
export const SpecialOrderStatusSchema = z
  .object({
    status: z.enum(STAFF_SPECIAL_STATUSES, { error: `status must be one of ${STAFF_SPECIAL_STATUSES.join(', ')}` }),
    price: z.union([z.number(), z.string()]).optional(),
    expectedOn: ExpectedOn.optional(),
  })
  .strict()
  .transform((body, ctx) => {
    if (body.status !== 'quoted') return { status: body.status };
    const dollars = body.price === undefined ? null : parseMoneyInput(body.price);
    const cents = dollars === null ? null : toCents(dollars);
    if (cents === null || cents === undefined || cents <= 0) {
      ctx.addIssue({ code: 'custom', path: ['price'], message: 'A quote needs a price above 0' });
      return z.NEVER;
    }
    if (cents > MAX_SPECIAL_QUOTE_CENTS) {
      ctx.addIssue({ code: 'custom', path: ['price'], message: `A quote's price is at most ${fromCents(MAX_SPECIAL_QUOTE_CENTS).toLocaleString('en-US', { minimumFractionDigits: 2 })} a copy` });
      return z.NEVER;
    }
    if (!body.expectedOn || !realDate(body.expectedOn)) {
      ctx.addIssue({ code: 'custom', path: ['expectedOn'], message: 'A quote needs an expected date' });
      return z.NEVER;
    }
    const today = shopDay(new Date());
    if (body.expectedOn < today) {
      ctx.addIssue({ code: 'custom', path: ['expectedOn'], message: 'The expected date cannot be in the past' });
      return z.NEVER;
    }
    if (body.expectedOn > latestSpecialQuoteDay(today)) {
      ctx.addIssue({ code: 'custom', path: ['expectedOn'], message: 'The expected date is at most a year ahead' });
      return z.NEVER;
    }
    return { status: body.status, priceCents: cents, expectedOn: body.expectedOn };
  });
export type SpecialOrderStatusChange = z.output<typeof SpecialOrderStatusSchema>;

/** POST /api/special-orders/:id/accept: the pickup order's contact phone. */
export const SpecialOrderAcceptSchema = z
  .object({
    name: optionalText('Full name', 100).optional(),
    phone: z.string({ error: 'Phone must be text' }).trim().regex(/^[0-9+()\s-]{6,20}$/, 'Phone number is not valid'),
  })
  .strict();

export const SpecialOrdersQuerySchema = z.object({
  cursor: CursorSchema.optional(),
  status: z.enum(SPECIAL_ORDER_STATUSES).optional(),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(50).default(SPECIAL_ORDERS_PAGE_SIZE),
});

export interface StoredSpecialOrder {
  uid: string;
  email: string;
  isbn: string;
  title: string;
  quantity: number;
  note?: string;
  status: SpecialOrderStatus;
  /** A quote: the price of one copy, in cents, and when the shop expects it. */
  priceCents?: number;
  expectedOn?: string;
  /** The order an accepted quote became. */
  orderId?: string;
  /** Copies a receipt set aside for it so far (issue 56): 'arrived' once they reach `quantity`. */
  copiesReceived?: number;
  history: { status: SpecialOrderStatus; at: string; by: 'customer' | 'staff' }[];
  createdAt: string;
  updatedAt: string;
}

export interface SpecialOrder {
  _id: string;
  isbn: string;
  title: string;
  quantity: number;
  note?: string;
  status: SpecialOrderStatus;
  price?: number;
  expectedOn?: string;
  orderId?: string;
  email?: string;
  createdAt: string;
  updatedAt: string;
}

export interface SpecialOrdersPage {
  specialOrders: SpecialOrder[];
  nextCursor: string | null;
}

export function specialOrderFromStored(id: string, doc: StoredSpecialOrder, forStaff = false): SpecialOrder {
  return {
    _id: id, isbn: doc.isbn, title: doc.title, quantity: doc.quantity, status: doc.status,
    ...(doc.note ? { note: doc.note } : {}),
    ...(doc.priceCents !== undefined ? { price: fromCents(doc.priceCents) } : {}),
    ...(doc.expectedOn ? { expectedOn: doc.expectedOn } : {}),
    ...(doc.orderId ? { orderId: doc.orderId } : {}),
    ...(forStaff ? { email: doc.email } : {}),
    createdAt: doc.createdAt, updatedAt: doc.updatedAt,
  };
}
