import { z } from 'zod';
import { BookIdSchema } from './book';
import { CursorSchema } from './paging';
import { toIsbn13, ISBN_MESSAGE } from './isbn';
import { MAX_PRICE_CENTS, parseMoneyInput, toCents } from './money';
import { DiscountCodeSchema, GiftCardCodeSchema, MAX_GIFT_CARD_CENTS } from './promotions';
import { ReaderIdSchema } from './readers';
import { DEFAULT_TILL_ID, TillIdSchema } from './till';

// Counter sales (issue 39): a sale at the till, by ISBN, online or queued offline, taken from the
// same stock as web orders; returns at the counter; a day's takings. The counter makes the sale's
// id (a UUID), so a sale retried after a lost answer, or sent again from the offline queue, is one sale.
//
// Extension points (issue 40 adds gift cards, issue 35 card payments and refunds):
// - a line is a book (`isbn` or `bookId`) or a gift card sold at the till (`kind: 'gift_card'`, its
//   amount; its code the server's, issue 55), each priced by its own rule in
//   functions/src/sales/sale-lines.ts (LINE_PRICERS);
// - a payment method is one of SALE_PAYMENT_METHODS; a new one is one entry here and its label, and
//   the takings count it by method (functions/src/sales/takings.ts) with no other change.

/**
 * How a sale is paid: cash, the till's card reader (issue 57: Stripe Terminal), or a gift card alone
 * (issue 57). A gift card may also pay part of a cash or card-reader sale (`payment.giftCardCode`):
 * the takings count each part under its own method, so a day's methods add up to its sales.
 */
export const SALE_PAYMENT_METHODS = ['cash', 'card_terminal', 'gift_card'] as const;
export type SalePaymentMethod = (typeof SALE_PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<SalePaymentMethod, string> = { cash: 'Cash', card_terminal: 'Card on Terminal', gift_card: 'Gift card' };

/**
 * How a return is given back: money by cash or to the card it was paid with, or store credit on a
 * new gift card (issue 40). What a gift card paid of the sale goes back on that card first (issue 57),
 * whatever is chosen here: it is never paid out as money.
 */
export const RETURN_METHODS = ['cash', 'card_terminal', 'store_credit'] as const;
export type ReturnMethod = (typeof RETURN_METHODS)[number];
export const RETURN_METHOD_LABELS: Record<ReturnMethod, string> = { cash: 'Cash', card_terminal: 'Card on Terminal', store_credit: 'Store credit' };

export const MAX_SALE_LINES = 50;
export const MAX_LINE_QUANTITY = 99;
/** The most a sale can cost (its most lines, each at the highest quantity and price): what `tendered` may be at most. */
export const MAX_SALE_TOTAL_CENTS = MAX_SALE_LINES * MAX_LINE_QUANTITY * MAX_PRICE_CENTS;

/** A sale's or return's id: the UUID the counter made (crypto.randomUUID()). */
export const SaleIdSchema = z
  .string({ error: 'saleId must be text' })
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'saleId must be a UUID');

/** An ISBN-10 or ISBN-13 (hyphens and spaces allowed), as its ISBN-13. */
export const IsbnInputSchema = z
  .string({ error: 'isbn must be text' })
  .max(20, ISBN_MESSAGE)
  .transform((value, ctx) => {
    const isbn = toIsbn13(value);
    if (!isbn) {
      ctx.addIssue({ code: 'custom', message: ISBN_MESSAGE });
      return z.NEVER;
    }
    return isbn;
  });

const bookLineShape = z
  .object({
    kind: z.literal('book').optional(),
    isbn: IsbnInputSchema.optional(),
    bookId: BookIdSchema.optional(),
    quantity: z
      .number({ error: 'quantity must be a whole number' })
      .int('quantity must be a whole number')
      .min(1, 'quantity must be at least 1')
      .max(MAX_LINE_QUANTITY, `quantity must be at most ${MAX_LINE_QUANTITY}`),
  })
  .strip();
const namesOneBook = (line: { isbn?: string; bookId?: string }) => (line.isbn === undefined) !== (line.bookId === undefined);
const ONE_BOOK_MESSAGE = 'Each line names a book by isbn or by bookId (one of them)';

/** One book line of a return: a book by its ISBN or its id, and how many copies. (`kind` absent: a book, as before issue 40.) */
export const BookLineInputSchema = bookLineShape.refine(namesOneBook, ONE_BOOK_MESSAGE);
export type SaleLineInput = z.infer<typeof BookLineInputSchema>;

/**
 * One book line of a sale (issue 54): as a return's, plus `unitPrice`, what the till charged for
 * each copy (dollars, as the till showed it; cents once parsed). The sale is recorded at that price,
 * whatever the book costs when the sale reaches the shop; a price other than the book's at `soldAt`
 * is flagged, never refused (the money was taken). Absent (a till from before issue 54): the book's
 * price when the shop records the sale.
 */
export const SaleBookLineInputSchema = bookLineShape
  .extend({
    unitPrice: z
      .unknown()
      .transform((value, ctx) => {
        const dollars = parseMoneyInput(value);
        const cents = dollars === null ? null : toCents(dollars);
        if (cents === null || cents < 0 || cents > MAX_PRICE_CENTS) {
          ctx.addIssue({ code: 'custom', message: `unitPrice is an amount from 0 to ${MAX_PRICE_CENTS / 100} with at most 2 decimals` });
          return z.NEVER;
        }
        return cents;
      })
      .optional(),
  })
  .refine(namesOneBook, ONE_BOOK_MESSAGE);
export type SaleBookLineInput = z.output<typeof SaleBookLineInputSchema>;

/**
 * A gift card sold at the till (issue 40): its amount, and no code (issue 55): the server makes the
 * code in the sale's transaction, the same for the same saleId and line (a sale sent again names the
 * same card), and answers it. A till that sells offline sends a code the server reserved for that
 * till earlier (POST /api/admin/gift-cards/reserve), each usable once; any other code is refused
 * (400 GIFT_CARD_CODE_UNKNOWN). The server stores only a code's hash.
 */
export const GiftCardLineInputSchema = z
  .object({
    kind: z.literal('gift_card'),
    amount: z.unknown().transform((value, ctx) => {
      const dollars = parseMoneyInput(value);
      const cents = dollars === null ? null : toCents(dollars);
      if (cents === null || cents < 1 || cents > MAX_GIFT_CARD_CENTS) {
        ctx.addIssue({ code: 'custom', message: `A gift card's amount is from 0.01 to ${MAX_GIFT_CARD_CENTS / 100} with at most 2 decimals` });
        return z.NEVER;
      }
      return cents;
    }),
    code: GiftCardCodeSchema.optional(),
  })
  .strip();
export type GiftCardLineInput = z.input<typeof GiftCardLineInputSchema>;
export type ParsedGiftCardLine = z.output<typeof GiftCardLineInputSchema>;

export const SaleLineInputSchema = z.discriminatedUnion('kind', [SaleBookLineInputSchema, GiftCardLineInputSchema], { error: "A line's kind is book or gift_card" });
export type SaleLineBodyInput = z.input<typeof SaleLineInputSchema>;
export type ParsedSaleLine = z.output<typeof SaleLineInputSchema>;

export const isGiftCardLine = (line: ParsedSaleLine): line is ParsedGiftCardLine => line.kind === 'gift_card';

/** What names a line's book: `isbn:<13 digits>` or `id:<book id>`. */
export const lineKey = (line: Pick<SaleLineInput, 'isbn' | 'bookId'>) => (line.isbn ? `isbn:${line.isbn}` : `id:${line.bookId}`);

const bookLinesSchema = z
  .array(BookLineInputSchema, { error: 'lines must be a list' })
  .min(1, 'Add at least one book')
  .max(MAX_SALE_LINES, `A sale holds at most ${MAX_SALE_LINES} lines`)
  .superRefine((lines, ctx) => {
    // The counter adds a second scan to the line's quantity: a repeated book is a broken client.
    const keys = lines.map(lineKey);
    const repeated = [...new Set(keys.filter((key, i) => keys.indexOf(key) !== i))];
    if (repeated.length > 0) ctx.addIssue({ code: 'custom', message: `A book appears on more than one line: ${repeated.join(', ')}` });
  });

const saleLinesSchema = z
  .array(SaleLineInputSchema, { error: 'lines must be a list' })
  .min(1, 'Add at least one book or gift card')
  .max(MAX_SALE_LINES, `A sale holds at most ${MAX_SALE_LINES} lines`)
  .superRefine((lines, ctx) => {
    // The counter adds a second scan to the line's quantity, and makes a new code per card: a repeat is a broken client.
    const keys = lines.filter((l) => !isGiftCardLine(l)).map((l) => lineKey(l as SaleBookLineInput));
    const repeated = [...new Set(keys.filter((key, i) => keys.indexOf(key) !== i))];
    if (repeated.length > 0) ctx.addIssue({ code: 'custom', message: `A book appears on more than one line: ${repeated.join(', ')}` });
    const codes = lines.filter(isGiftCardLine).flatMap((l) => (l.code ? [l.code] : []));
    if (new Set(codes).size !== codes.length) ctx.addIssue({ code: 'custom', message: 'A gift card code appears on more than one line' });
  });

/** An amount of money sent by the counter (dollars, at most 2 decimals), as cents. */
const centsOf = (label: string) =>
  z.unknown().transform((value, ctx) => {
    const dollars = parseMoneyInput(value);
    const cents = dollars === null ? null : toCents(dollars);
    if (cents === null || cents < 0 || cents > MAX_SALE_TOTAL_CENTS) {
      ctx.addIssue({ code: 'custom', message: `${label} must be an amount with at most 2 decimals` });
      return z.NEVER;
    }
    return cents;
  });

export const SalePaymentInputSchema = z.discriminatedUnion(
  'method',
  [
    // The optional amount tendered: the answer carries the change. Without it, the exact amount.
    // Issue 57: a gift card may pay first (up to its balance); the tendered cash is set against what is left.
    z.object({ method: z.literal('cash'), tendered: centsOf('Amount tendered').optional(), giftCardCode: GiftCardCodeSchema.optional() }).strip(),
    // Issue 57: the till's Stripe Terminal reader takes the money (what a gift card leaves); the sale waits for it (functions/src/sales/terminal.ts).
    z.object({ method: z.literal('card_terminal'), readerId: ReaderIdSchema.optional(), giftCardCode: GiftCardCodeSchema.optional() }).strip(),
    // Issue 57: the gift card pays the whole sale, or the sale is refused (422 GIFT_CARD_TOO_LOW).
    z.object({ method: z.literal('gift_card'), giftCardCode: GiftCardCodeSchema }).strip(),
  ],
  { error: 'payment.method must be cash, card_terminal or gift_card' },
);
export type ParsedSalePayment = z.output<typeof SalePaymentInputSchema>;

/**
 * When the till made a sale (issue 54), as far from the shop's clock as it may be: a few minutes
 * ahead (the till's clock runs fast), a week behind (a sale kept offline that long is a case for a
 * manager, not the takings of a closed week). Outside, the sale is refused with 400 (soldAtProblem).
 */
export const SOLD_AT_MAX_AHEAD_MS = 5 * 60 * 1000;
export const SOLD_AT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
export const SOLD_AT_IN_THE_FUTURE = 'SOLD_AT_IN_THE_FUTURE';
export const SOLD_AT_TOO_OLD = 'SOLD_AT_TOO_OLD';

/** Why `soldAt` cannot be taken at `now` (its code and message), or null. */
export function soldAtProblem(soldAt: string, now: Date): { code: typeof SOLD_AT_IN_THE_FUTURE | typeof SOLD_AT_TOO_OLD; message: string } | null {
  const at = Date.parse(soldAt);
  if (at > now.getTime() + SOLD_AT_MAX_AHEAD_MS) return { code: SOLD_AT_IN_THE_FUTURE, message: "soldAt is more than 5 minutes ahead of the shop's clock: check the till's clock" };
  if (at < now.getTime() - SOLD_AT_MAX_AGE_MS) return { code: SOLD_AT_TOO_OLD, message: 'soldAt is more than 7 days ago: a sale that old is recorded by a manager, not the till' };
  return null;
}


/**
 * A manager's approval given on the till (issue 55): an owner's or manager's username, password and,
 * when their two-factor sign-in is on, the current code, checked as the staff sign-in checks them.
 */
export const ApprovalSchema = z
  .object({
    username: z.string({ error: 'The approver is required' }).trim().min(1, 'The approver is required').max(100),
    password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
    code: z.string().trim().regex(/^[0-9]{6}$/, 'Enter the 6-digit code').optional(),
  })
  .strip();
export type Approval = z.infer<typeof ApprovalSchema>;

// POST /api/admin/sales
export const SaleInputSchema = z
  .object({
    saleId: SaleIdSchema,
    lines: saleLinesSchema,
    payment: SalePaymentInputSchema,
    /**
     * When the till made the sale (ISO 8601; an offset is taken and stored as UTC): the sale's time
     * and its takings' day. Absent (a till from before issue 54): when the shop receives it.
     */
    soldAt: z.iso
      .datetime({ offset: true, error: 'soldAt must be an ISO 8601 time' })
      .transform((value) => new Date(value).toISOString())
      .optional(),
    /** The till that made the sale (issue 55); absent (queued before issue 55): DEFAULT_TILL_ID. */
    tillId: TillIdSchema.default(DEFAULT_TILL_ID),
    /**
     * Who was signed in on the till when it made the sale (their username; issue 55): a sale queued
     * offline is recorded under them, not under whoever is signed in when it syncs (`recordedBy`).
     * Absent: the caller.
     */
    by: z.string({ error: 'by must be a username' }).trim().toLowerCase().min(1).max(64).optional(),
    /** An owner's or manager's approval, when the shop asked for one (403 MANAGER_APPROVAL_REQUIRED). */
    approval: ApprovalSchema.optional(),
    /** Issue 57: sent from the device's offline queue (a card-terminal sale cannot be). */
    queued: z.boolean({ error: 'queued must be true or false' }).optional(),
    /**
     * Issue 57: a discount code, on the same rules and limits as the web's, counted in the sale's
     * transaction (a one-use code used here cannot be used online after). It takes off the books, not
     * gift cards sold. A code once per customer is refused: the till does not know the customer.
     */
    discountCode: DiscountCodeSchema.optional(),
  })
  .strip();
export type SaleInput = z.input<typeof SaleInputSchema>;
export type ParsedSaleInput = z.output<typeof SaleInputSchema>;

// POST /api/admin/sales/:id/returns
export const SaleReturnInputSchema = z
  .object({
    /** Made by the counter like a saleId: a retried return is one return (optional; the counter always sends one). */
    returnId: SaleIdSchema.optional(),
    lines: bookLinesSchema,
    refundMethod: z.enum(RETURN_METHODS, { error: 'refundMethod must be cash, card_terminal or store_credit' }),
    /**
     * store_credit: absent, the server makes the card's code (issue 55; the same for the same
     * returnId) and answers it; or a code the server reserved for this till. Any other: 400 GIFT_CARD_CODE_UNKNOWN.
     */
    giftCardCode: GiftCardCodeSchema.optional(),
    /** The till taking the return (issue 55); absent: DEFAULT_TILL_ID. */
    tillId: TillIdSchema.default(DEFAULT_TILL_ID),
    approval: ApprovalSchema.optional(),
  })
  .strip()
  .superRefine((r, ctx) => {
    if (r.refundMethod !== 'store_credit' && r.giftCardCode) ctx.addIssue({ code: 'custom', path: ['giftCardCode'], message: 'giftCardCode goes with refundMethod store_credit only' });
  });
export type SaleReturnInput = z.input<typeof SaleReturnInputSchema>;
export type ParsedSaleReturnInput = z.output<typeof SaleReturnInputSchema>;

/** A book line as sold (or returned): the book as it was then. Amounts in dollars. */
export interface BookSaleLine {
  kind?: 'book';
  bookId: string;
  isbn: string | null;
  title: string;
  quantity: number;
  /** What the till charged for each copy. */
  unitPrice: number;
  lineTotal: number;
  /** Issue 54: the till charged other than the book's price when it was sold (`bookPrice`): for a manager to look at. */
  priceDiffers?: true;
  bookPrice?: number;
  /** Issue 57: this line's share of the sale's discount code (a return of its copies gives back their price less their share). */
  discount?: number;
}

/** A gift card sold at the till (issue 40). `code` only in the answer to the POST that sold it (the caller sent it). */
export interface GiftCardSaleLine {
  kind: 'gift_card';
  giftCard: { id: string; last4: string; code?: string };
  isbn: null;
  title: string;
  quantity: 1;
  unitPrice: number;
  lineTotal: number;
}

export type SaleLine = BookSaleLine | GiftCardSaleLine;
export const GIFT_CARD_LINE_TITLE = 'Gift card';

export interface SaleActor {
  username: string;
  name: string;
}

export interface SaleReturn {
  _id: string;
  saleId: string;
  lines: BookSaleLine[];
  /** Paid back (or, by store credit, put on a new gift card). */
  total: number;
  refundMethod: ReturnMethod;
  /** Store credit: the card issued (its `code` only in the answer to the POST that made the return). */
  giftCard?: { id: string; last4: string; code?: string };
  by: SaleActor;
  /** The till that took it (issue 55; 'till-1' for returns before it). */
  tillId: string;
  /** The owner or manager who approved it on the till (issue 55), when it needed approval. */
  approvedBy?: SaleActor;
  createdAt: string;
  /** Issue 57: a return of a card-terminal sale paid back to the card through Stripe. */
  cardRefund?: { id: string | null; status: 'succeeded' | 'pending' | 'failed' };
  /**
   * Issue 57: of `total`, what went back on the gift card that paid for the sale (never paid out as
   * money); the rest was given back by `refundMethod`.
   */
  giftCardBack?: { id: string; last4: string; amount: number };
}

/**
 * Issue 57: a card-terminal sale holds its copies while the reader takes the card (`awaiting_payment`),
 * then is `complete` (its takings counted) or `failed` / `cancelled` (its copies back). Every other
 * sale, and every sale from before issue 57, is `complete`.
 */
export const SALE_STATUSES = ['awaiting_payment', 'complete', 'failed', 'cancelled'] as const;
export type SaleStatus = (typeof SALE_STATUSES)[number];

export interface SaleTerminal {
  readerId: string;
  paymentIntentId: string | null;
  tillId?: string;
  /** Why the payment did not happen (a decline, a cancel at the till). */
  failure?: string;
}

export interface Sale {
  _id: string;
  lines: SaleLine[];
  /** What the sale cost: its lines, less its discount. */
  total: number;
  /** Issue 57: a gift card's part (`giftCard`, paid first); the rest (`due`) by `method`. */
  payment: { method: SalePaymentMethod; tendered?: number; giftCard?: { id: string; last4: string; amount: number } };
  /** Issue 57: what was left to pay by `payment.method` after the gift card (present when a gift card paid part). */
  due?: number;
  /** Issue 57: a discount code taken off the books' lines (each line's share is its `discount`). */
  discount?: { code: string; amount: number };
  /** Cash only, when an amount tendered was given. */
  change?: number;
  /** Who made the sale at the till (issue 55: for a sale queued offline, who was signed in then). */
  by: SaleActor;
  /** Who sent it to the shop, when not `by` (a sale queued offline and synced under another person). */
  recordedBy?: SaleActor;
  /** The owner or manager who approved it on the till (issue 55), when it needed approval. */
  approvedBy?: SaleActor;
  /** The till that made it (issue 55; 'till-1' for sales before it). */
  tillId: string;
  /** When the till made the sale (its `soldAt`; issue 54). */
  createdAt: string;
  soldAt: string;
  /** When the shop recorded it (later than soldAt for a sale kept offline). */
  receivedAt: string;
  /** The shop's calendar day of soldAt (SHOP_TIME_ZONE), the takings' day. */
  day: string;
  /** A line was charged other than its book's price at soldAt (issue 54): see the lines' priceDiffers. */
  priceDiffers: boolean;
  /** Returns made against it, oldest first. */
  returns: SaleReturn[];
  /** Issue 57: see SALE_STATUSES; absent: complete (a cash sale, every sale from before). */
  status?: SaleStatus;
  /** Issue 57: a sale paid on the till's Stripe Terminal reader. */
  terminal?: SaleTerminal;
}

export interface SaleResponse {
  sale: Sale;
}

export interface SaleReturnResponse {
  return: SaleReturn;
  sale: Sale;
}

/** A calendar day in the shop's time zone. */
export const DaySchema = z
  .string({ error: 'date must be YYYY-MM-DD' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, 'date must be a real day (YYYY-MM-DD)');

// GET /api/admin/sales/summary?date=YYYY-MM-DD
export const SalesSummaryQuerySchema = z.object({ date: DaySchema }).strict();

export type ByMethod = Record<SalePaymentMethod, number>;

export interface SalesSummary {
  date: string;
  /** Sales made that day, and their total. */
  count: number;
  total: number;
  byMethod: ByMethod;
  byStaff: { name: string; count: number; total: number }[];
  /** Of `total` (and of byMethod), gift cards sold (issue 40): money taken, not book sales. */
  giftCards: { count: number; total: number };
  /** Returns made that day (whatever the day of the sale), and what was paid back in money; store credit apart (no money left the till). */
  returns: { count: number; total: number; byMethod: ByMethod; storeCredit: number };
  /** total - returns.total: the day's takings. */
  net: number;
  /** Of `count`, sales charged other than the shop's price (issue 54): for a manager to look at. */
  priceDiffers: number;
}

// GET /api/admin/sales?date=&cursor=&limit=
export const SALES_PAGE_SIZE = 25;
export const SalesListQuerySchema = z
  .object({
    date: DaySchema,
    cursor: CursorSchema.optional(),
    limit: z.coerce.number().int().min(1).max(100).default(SALES_PAGE_SIZE),
  })
  .strict();

export interface SalesPage {
  sales: Sale[];
  nextCursor: string | null;
}

// GET /api/admin/sales/books?since=&cursor=&limit=  (the counter's ISBN list, for lookups offline)
export const COUNTER_BOOKS_PAGE_SIZE = 500;
export const CounterBooksQuerySchema = z
  .object({
    /** Books changed at or after this instant (ISO 8601); absent: every book. */
    since: z.iso.datetime({ error: 'since must be an ISO 8601 time' }).optional(),
    cursor: CursorSchema.optional(),
    limit: z.coerce.number().int().min(1).max(1000).default(COUNTER_BOOKS_PAGE_SIZE),
  })
  .strict();

/** What the counter keeps of a book to sell it offline. `isbn` null: the book has none (any more). */
export interface CounterBook {
  _id: string;
  isbn: string | null;
  title: string;
  author?: string;
  price: number;
  /** When its fields last changed (the sync's high-water mark). */
  updatedAt: string;
}

export interface CounterBooksPage {
  books: CounterBook[];
  nextCursor: string | null;
}

// GET /api/admin/sales/books/:isbn  (one book, for an ISBN not yet on the device's list)
export interface CounterBookResponse {
  book: CounterBook & { stock: number };
}

// Error codes the counter switches on.
export const SALE_ID_REUSED = 'SALE_ID_REUSED';
export const NO_BOOK_WITH_ISBN = 'NO_BOOK_WITH_ISBN';
export const RETURN_EXCEEDS_SALE = 'RETURN_EXCEEDS_SALE';
/** 400: a gift card code the server neither made nor reserved for this till (issue 55). */
export const GIFT_CARD_CODE_UNKNOWN = 'GIFT_CARD_CODE_UNKNOWN';
/** 403: past the bookseller's counter allowance, or a return of another day's or till's sale: resend with `approval`. */
export const MANAGER_APPROVAL_REQUIRED = 'MANAGER_APPROVAL_REQUIRED';
/** 403: the approval's person, password or code is wrong, or they may not approve. */
export const APPROVAL_REFUSED = 'APPROVAL_REFUSED';
/** 403: a queued sale's `by` is no active staff member who may sell. */
export const SALE_BY_NOT_STAFF = 'SALE_BY_NOT_STAFF';

// POST /api/admin/gift-cards/reserve {count, tillId} (issue 55): codes an offline till may sell, each once.
export const MAX_RESERVED_CODES = 20;
export const GiftCardReserveSchema = z
  .object({
    count: z.number({ error: 'count must be a whole number' }).int('count must be a whole number').min(1, 'count must be at least 1').max(MAX_RESERVED_CODES, `count must be at most ${MAX_RESERVED_CODES}`),
    tillId: TillIdSchema,
  })
  .strip();
export interface GiftCardReserveResponse {
  /** Formatted XXXX-XXXX-XXXX-XXXX; shown once (the server keeps their hashes). */
  codes: string[];
  tillId: string;
}

/**
 * What a bookseller may issue or pay out at the counter (gift cards sold, store credit, refunds)
 * per till and shop day before a manager must approve (issue 55): settings/shop `counterAllowanceCents`.
 */
export const DEFAULT_COUNTER_ALLOWANCE_CENTS = 20_000;
// GET/PUT /api/admin/settings/counter {allowance} (dollars; owner, manager)
export const CounterSettingsSchema = z
  .object({
    allowance: z.unknown().transform((value, ctx) => {
      const dollars = parseMoneyInput(value);
      const cents = dollars === null ? null : toCents(dollars);
      if (cents === null || cents < 0 || cents > 10 * MAX_GIFT_CARD_CENTS) {
        ctx.addIssue({ code: 'custom', message: `The allowance is an amount from 0 to ${(10 * MAX_GIFT_CARD_CENTS) / 100}` });
        return z.NEVER;
      }
      return cents;
    }),
  })
  .strip();
export interface CounterSettingsResponse {
  /** Dollars. */
  allowance: number;
}
// Issue 57: a card-terminal sale refused.
export const READER_REQUIRED = 'READER_REQUIRED';
export const UNKNOWN_READER = 'UNKNOWN_READER';
export const READER_OF_ANOTHER_TILL = 'READER_OF_ANOTHER_TILL';
export const TERMINAL_OFFLINE = 'TERMINAL_OFFLINE';
export const SALE_NOT_CANCELLABLE = 'SALE_NOT_CANCELLABLE';
export const SALE_NOT_PAID = 'SALE_NOT_PAID';
/** A card-terminal sale's soldAt at most this old: older, it was kept offline, and the customer has gone. */
export const TERMINAL_SOLD_AT_MAX_AGE_MS = 2 * 60 * 1000;
// Issue 57: gift cards and discount codes at the till.
/** 422: a gift-card-only payment whose card holds less than the sale's total (nothing changed). */
export const GIFT_CARD_TOO_LOW = 'GIFT_CARD_TOO_LOW';
/** 422: the gift card pays the whole sale: nothing is left for the card reader (pay by gift card). */
export const NOTHING_DUE = 'NOTHING_DUE';
/** 422: a code once per customer, which the till cannot check (it does not know the customer). */
export const DISCOUNT_NEEDS_CUSTOMER = 'DISCOUNT_NEEDS_CUSTOMER';
/** 422: a gift card cannot pay for gift cards (money would only move from one card to another). */
export const GIFT_CARD_FOR_GIFT_CARD = 'GIFT_CARD_FOR_GIFT_CARD';

/**
 * What `count` copies of a line take of its discount, starting after the `from` copies already
 * returned: the line's share spread over its copies, the first copies taking the odd cents. A line
 * returned in parts gives back, in all, exactly its share.
 */
export function discountOfCopies(line: { quantity: number; discountCents?: number }, from: number, count: number): number {
  const d = line.discountCents ?? 0;
  const each = Math.floor(d / line.quantity);
  const odd = d % line.quantity;
  let cents = 0;
  for (let k = from; k < from + count; k++) cents += each + (k < odd ? 1 : 0);
  return cents;
}
