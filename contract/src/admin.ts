import { z } from 'zod';
import type { Book } from './book-fields';
import type { Order, OrderCounts } from './order';

export const MAX_PASSWORD_BYTES = 1024;

/**
 * The one spelling of an admin's name: lower case, 1 to 64 of [a-z0-9._-], starting with a letter
 * or digit. The login lookup, the login throttle and `npm run create-admin` all use this string,
 * so `Admin`, ` admin ` and `admin` are one account with one counter, and `admin/` is no one.
 */
export const AdminUsernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'Use 1 to 64 lower-case letters, digits, dots, dashes or underscores');
export type AdminUsername = z.infer<typeof AdminUsernameSchema>;

/** The canonical form of a typed username, or null when it cannot name any admin. */
export function canonicalAdminUsername(value: string): string | null {
  const result = AdminUsernameSchema.safeParse(value);
  return result.success ? result.data : null;
}

// The login form's fields: any non-empty username is accepted here and answered like a wrong
// password when it is not canonical (no hint about which names exist or are well-formed).
export const AdminLoginSchema = z
  .object({
    username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(100),
    password: z
      .string({ error: 'Password is required' })
      .min(1, 'Password is required')
      .refine((value) => utf8Length(value) <= MAX_PASSWORD_BYTES, 'Password is too long'),
    /** The 6-digit code of an account with two-factor sign-in on (issue 24); ignored otherwise. */
    otp: z.string().trim().regex(/^[0-9]{6}$/, 'Enter the 6-digit code').optional(),
  })
  .strip();
export type AdminLogin = z.infer<typeof AdminLoginSchema>;

function utf8Length(value: string): number {
  return new TextEncoder().encode(value).length;
}

export interface AdminLoginResponse {
  message: string;
  token: string;
  /** Seconds the token is valid from now: the server owns the lifetime, the client only keeps it. */
  expiresIn: number;
  user: { username: string; role: 'admin' };
}

/** POST /api/auth/admin/logout */
export interface AdminLogoutResponse {
  message: string;
}

export interface MonthlySales {
  month: string; // YYYY-MM
  totalSales: number; // dollars, orders of that month that are not cancelled or refused
  totalOrders: number; // orders of that month that are not cancelled or refused
}

/** A book running low, for the overview (stock at or below LOW_STOCK_THRESHOLD, lowest first). */
export type LowStockBook = Pick<Book, '_id' | 'title' | 'stock' | 'coverImage'>;

export const LOW_STOCK_LIST_SIZE = 5;
export const LATEST_ORDERS_SIZE = 5;

export interface AdminStats {
  totalBooks: number;
  /** Dollars; orders that are not cancelled or refused. */
  totalSales: number;
  /** totalSales taken apart (issue 27): the books (without tax), shipping (without tax) and the tax. */
  salesSplit: { books: number; shipping: number; tax: number };
  /**
   * Issue 40: of totalSales, what gift cards paid (a card's value is no sale when issued, a sale when
   * spent); and what discount codes took off the books' list price (not in totalSales: books is net of it).
   * Issue 55: giftCardLiability, what the shop owes on gift cards (issued minus spent minus voided, from
   * counters moved with each balance).
   */
  promotions?: { paidByGiftCard: number; discounts: number; giftCardLiability?: number };
  /** Dollars; the orders paid for: cash when delivered or collected (PAID_STATUSES, issue 29), card when Stripe's payment arrived (issue 35). */
  collectedSales: number;
  /** How many orders that is. */
  collectedOrders: number;
  /** Dollars refunded (desk or Stripe, issue 35), kept apart: booked and collected are not reduced by refunds. */
  refundedSales: number;
  /** How many refunds that is. */
  refunds: number;
  trendingBooks: number;
  /** Orders that are not cancelled or refused. */
  totalOrders: number;
  monthlySales: MonthlySales[];
  /** pending + confirmed: what the desk still has to handle. */
  ordersToProcess: number;
  /** Issue 54: orders on the Payment problems queue (paid after cancel, disputes, failed refunds...). */
  paymentProblems?: number;
  /** Orders per status (and `all`), from the same counters as the desk's tabs. */
  orderCounts: OrderCounts;
  /** Up to LOW_STOCK_LIST_SIZE books with stock <= LOW_STOCK_THRESHOLD, lowest stock first. */
  lowStockBooks: LowStockBook[];
  /** The LATEST_ORDERS_SIZE newest orders, newest first. */
  latestOrders: Order[];
  /**
   * Counter sales (issue 39), beside the web's: sales made at the till and what returns paid back,
   * in dollars, from the same sharded counters. `net` = sales - refunds - storeCredit; web and counter
   * together are totalSales + counter.net. Issue 40: `sales` are books only; gift cards sold at the
   * till (`giftCardsSold`) are money taken but a liability, revenue only when spent (in the web's
   * totalSales, as what a gift card paid); `storeCredit` is returns given back on a new gift card.
   */
  counter: { count: number; sales: number; returns: number; refunds: number; net: number; giftCardsSold: number; storeCredit: number };
  /** Issue 41, counted apart from the orders: pre-order lines waiting for a copy and those given one (not yet cancelled). */
  preorders: { waiting: number; allocated: number };
  /** Special orders still open (requested, quoted, accepted, ordered, arrived), and those of them quoted and awaiting the shopper. */
  specialOrders: { open: number; quoted: number };
}
