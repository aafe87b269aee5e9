import { z } from 'zod';
import { ISBN_MESSAGE, toIsbn13 } from './isbn';
import { fromCents, MAX_PRICE_CENTS, parseMoneyInput } from './money';
import { CursorSchema } from './paging';
import { optionalText, text } from './text';

// Buying (issue 56): suppliers, purchase orders, receiving, the cost of what is on the shelf and
// returns to suppliers. Money in integer cents on the server, dollars on the wire. A unit cost is
// private: only 'purchasing.manage' (owner, manager) reads it (never on a book, never public).
//
// A purchase order moves only forward:
//   draft --send--> sent --(a receipt)--> partially_received --(all copies in)--> received
//   draft or sent --cancel--> cancelled
// (a receipt against a draft counts too: the copies are in the shop whatever the paperwork says).

export const PURCHASE_ORDER_STATUSES = ['draft', 'sent', 'partially_received', 'received', 'cancelled'] as const;
export type PurchaseOrderStatus = (typeof PURCHASE_ORDER_STATUSES)[number];
/** Each status's place in the one forward order ('cancelled' ends it from draft or sent only). */
const RANK: Record<PurchaseOrderStatus, number> = { draft: 0, sent: 1, partially_received: 2, received: 3, cancelled: 4 };
/** Whether a purchase order may move from `from` to `to`: forward only, and cancelled only before copies came in. */
export function canMovePurchaseOrder(from: PurchaseOrderStatus, to: PurchaseOrderStatus): boolean {
  if (from === 'cancelled') return false;
  if (to === 'cancelled') return from === 'draft' || from === 'sent';
  return RANK[to] > RANK[from] || (from === to && (to === 'partially_received' || to === 'received'));
}

export const MAX_PURCHASE_LINES = 200;
export const MAX_PURCHASE_QUANTITY = 10_000;
export const PURCHASING_PAGE_SIZE = 20;

/** An ISBN-10 or -13 with its check digit right, as its ISBN-13. */
export const PurchaseIsbnSchema = z
  .string({ error: 'ISBN must be text' })
  .trim()
  .refine((value) => toIsbn13(value) !== null, ISBN_MESSAGE)
  .transform((value) => toIsbn13(value)!);

export const QuantitySchema = z
  .number({ error: 'Quantity must be a whole number' })
  .int('Quantity must be a whole number')
  .min(1, 'Quantity must be at least 1')
  .max(MAX_PURCHASE_QUANTITY, `Quantity must be at most ${MAX_PURCHASE_QUANTITY}`);

/** A unit cost in dollars (at most 2 decimals, 0 or more) -> integer cents. */
export const UnitCostSchema = z.unknown().transform((value, ctx) => {
  const dollars = parseMoneyInput(value);
  if (dollars === null) {
    ctx.addIssue({ code: 'custom', message: 'Unit cost must be a number with at most 2 decimals' });
    return z.NEVER;
  }
  const cents = Math.round(dollars * 100);
  if (cents < 0 || cents > MAX_PRICE_CENTS) {
    ctx.addIssue({ code: 'custom', message: `Unit cost must be between 0 and ${fromCents(MAX_PRICE_CENTS)}` });
    return z.NEVER;
  }
  return cents;
});

/** A device-made id (a UUID): the same id sent again is the same receipt or return. */
const DeviceIdSchema = (label: string) => z.string({ error: `${label} must be text` }).trim().toLowerCase().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, `${label} must be a UUID`);
/** A stored document's id as the API hands it out. */
export const PurchasingIdSchema = z.string({ error: 'Id must be text' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'Id is not valid');

function onceEach(lines: readonly { isbn: string }[], ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  lines.forEach((line, i) => {
    if (seen.has(line.isbn)) ctx.addIssue({ code: 'custom', path: [i, 'isbn'], message: 'Each ISBN may be listed once' });
    seen.add(line.isbn);
  });
}
const linesOf = <T extends z.ZodType<{ isbn: string }>>(line: T) =>
  z.array(line, { error: 'lines must be a list' }).min(1, 'Add at least one line').max(MAX_PURCHASE_LINES, `At most ${MAX_PURCHASE_LINES} lines`).superRefine(onceEach);

// ---- Suppliers -----------------------------------------------------------------------------------

const supplierFields = {
  name: text('Name', 120),
  email: z.email({ error: 'Email is not valid' }).max(254).transform((v) => v.toLowerCase()).optional(),
  accountNumber: optionalText('Account number', 60),
  returnsWindowDays: z.number({ error: 'Returns window must be a whole number of days' }).int('Returns window must be a whole number of days').min(0).max(3650).optional(),
  notes: optionalText('Notes', 1000, { multiline: true }),
};
// POST /api/admin/suppliers
export const SupplierCreateSchema = z.object(supplierFields).strict();
export type SupplierCreate = z.output<typeof SupplierCreateSchema>;
// PATCH /api/admin/suppliers/:id
export const SupplierPatchSchema = z
  .object({ ...supplierFields, name: text('Name', 120).optional() })
  .strict()
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), 'Nothing to change');
export type SupplierPatch = z.output<typeof SupplierPatchSchema>;

export interface StoredSupplier extends SupplierCreate {
  createdAt: string;
  updatedAt: string;
}
export interface Supplier extends SupplierCreate {
  _id: string;
  createdAt: string;
  updatedAt: string;
}
export const supplierFromStored = (id: string, doc: StoredSupplier): Supplier => ({ _id: id, ...doc });

export const PurchasingPageQuerySchema = z
  .object({
    cursor: CursorSchema.optional(),
    limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(100).default(PURCHASING_PAGE_SIZE),
  })
  .strict();

// ---- Purchase orders ----------------------------------------------------------------------------

// POST /api/admin/purchase-orders
export const PurchaseOrderCreateSchema = z
  .object({
    supplierId: PurchasingIdSchema,
    lines: linesOf(z.object({ isbn: PurchaseIsbnSchema, quantity: QuantitySchema, unitCost: UnitCostSchema }).strict()),
    note: optionalText('Note', 1000, { multiline: true }),
  })
  .strict();
export type PurchaseOrderCreate = z.output<typeof PurchaseOrderCreateSchema>;

export const PurchaseOrdersQuerySchema = z
  .object({
    status: z.enum(PURCHASE_ORDER_STATUSES, { error: `status must be one of ${PURCHASE_ORDER_STATUSES.join(', ')}` }).optional(),
    cursor: CursorSchema.optional(),
    limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(100).default(PURCHASING_PAGE_SIZE),
  })
  .strict();

export interface StoredPurchaseOrderLine {
  isbn: string;
  title: string;
  bookId?: string;
  quantity: number;
  unitCostCents: number;
  /** Copies received against this line so far (more than ordered is allowed, and shown). */
  received: number;
}
export interface StoredPurchaseOrder {
  supplierId: string;
  supplierName: string;
  status: PurchaseOrderStatus;
  lines: StoredPurchaseOrderLine[];
  /** Extra ISBNs a receipt against this order brought (not ordered). */
  unordered?: { isbn: string; received: number }[];
  totalCents: number;
  note?: string;
  history: { status: PurchaseOrderStatus; at: string; by: string }[];
  createdAt: string;
  updatedAt: string;
}
export interface PurchaseOrderLine {
  isbn: string;
  title: string;
  bookId?: string;
  quantity: number;
  unitCost: number;
  received: number;
}
export interface PurchaseOrder {
  _id: string;
  supplierId: string;
  supplierName: string;
  status: PurchaseOrderStatus;
  lines: PurchaseOrderLine[];
  unordered: { isbn: string; received: number }[];
  total: number;
  note?: string;
  createdAt: string;
  updatedAt: string;
}
export interface PurchaseOrdersPage {
  purchaseOrders: PurchaseOrder[];
  nextCursor: string | null;
}
export function purchaseOrderFromStored(id: string, doc: StoredPurchaseOrder): PurchaseOrder {
  return {
    _id: id, supplierId: doc.supplierId, supplierName: doc.supplierName, status: doc.status,
    lines: doc.lines.map((l) => ({ isbn: l.isbn, title: l.title, ...(l.bookId ? { bookId: l.bookId } : {}), quantity: l.quantity, unitCost: fromCents(l.unitCostCents), received: l.received })),
    unordered: doc.unordered ?? [], total: fromCents(doc.totalCents), ...(doc.note ? { note: doc.note } : {}), createdAt: doc.createdAt, updatedAt: doc.updatedAt,
  };
}

/** GET /api/admin/reorder-suggestions: what the shop should order, and why. */
export interface ReorderSuggestion {
  isbn: string;
  title: string;
  bookId?: string;
  /** Copies for special orders the desk has accepted but not ordered yet. */
  specialOrders: number;
  /** Copies waiting on pre-order beyond those already on open purchase orders. */
  preorders: number;
  /** Copies to bring the book back to its minimum (stock below its reorder minimum). */
  belowMinimum: number;
  /** The sum: what to order. */
  quantity: number;
}

// ---- Receiving ----------------------------------------------------------------------------------

// POST /api/admin/receipts
export const ReceiptSchema = z
  .object({
    receiptId: DeviceIdSchema('receiptId'),
    purchaseOrderId: PurchasingIdSchema.optional(),
    supplierId: PurchasingIdSchema.optional(),
    lines: linesOf(z.object({ isbn: PurchaseIsbnSchema, quantity: QuantitySchema, unitCost: UnitCostSchema.optional(), title: optionalText('Title', 200) }).strict()),
  })
  .strict();
export type ReceiptInput = z.output<typeof ReceiptSchema>;

/** Where the copies of one line went: special orders first, then waiting pre-orders, then the shelf. */
export interface ReceiptLine {
  isbn: string;
  received: number;
  toSpecialOrders: number;
  toPreorders: number;
  toShelf: number;
  /** The catalogue lists no book of this ISBN: the shelf's copies were counted on its unlisted book (GET /api/admin/unlisted-books). */
  unlisted?: true;
}
export interface Receipt {
  _id: string;
  lines: ReceiptLine[];
}

/**
 * GET /api/admin/unlisted-books: a book received that the catalogue does not list (unlistedBooks/<isbn13>),
 * never shown to shoppers; creating a book with its ISBN (Manage Books, import) takes its copies over.
 */
export interface UnlistedBook {
  isbn: string;
  title: string;
  stock: number;
  createdAt: string;
  updatedAt: string;
}

// ---- Cost and valuation -------------------------------------------------------------------------

/** GET /api/admin/stock/valuation: copies on hand at their book's average cost (dollars). */
export interface StockValuation {
  units: number;
  value: number;
  /** Copies on hand whose book has no cost yet (received before costs were kept, or without one): in `units`, not in `value`. */
  uncostedUnits: number;
  byCategory: Record<string, { units: number; value: number }>;
}

/** One channel's goods sold in a day, at what was charged, less the copies' average cost (dollars). */
export interface ChannelMargin {
  /** Copies sold (returns and refunded copies taken off). */
  units: number;
  /** What they were sold for (after discounts; no tax, postage or gift cards). */
  sales: number;
  /** Their copies' average cost; copies of books with no cost yet are counted in `uncostedUnits`, not here. */
  cost: number;
  /** sales - cost of the costed copies; `null` when no copy sold had a cost. */
  margin: number | null;
  uncostedUnits: number;
}

/** GET /api/admin/stock/margin?date=YYYY-MM-DD: the day's gross margin, web and counter apart (owner, manager). */
export interface DayMargin {
  date: string;
  web: ChannelMargin;
  counter: ChannelMargin;
}

/**
 * The moving average after `copies` arrive at `unitCents` on top of `onHand` copies at `avgCents`:
 * rounded half up to the cent (the valuation multiplies the stored cents, so it adds up exactly).
 */
export function movingAverageCents(onHand: number, avgCents: number | null, copies: number, unitCents: number): number {
  const held = avgCents === null ? 0 : Math.max(0, onHand);
  const total = held * (avgCents ?? 0) + copies * unitCents;
  return Math.floor(total / (held + copies) + 0.5);
}

// ---- Returns to suppliers -----------------------------------------------------------------------

// POST /api/admin/supplier-returns
export const SupplierReturnSchema = z
  .object({
    returnId: DeviceIdSchema('returnId'),
    supplierId: PurchasingIdSchema,
    lines: linesOf(z.object({ isbn: PurchaseIsbnSchema, quantity: QuantitySchema }).strict()),
    note: optionalText('Note', 1000, { multiline: true }),
    /** A manager's (or owner's) decision to return copies received longer ago than the supplier's returns window. */
    overrideWindow: z.boolean({ error: 'overrideWindow must be true or false' }).optional(),
  })
  .strict();
export type SupplierReturnInput = z.output<typeof SupplierReturnSchema>;

export interface SupplierReturn {
  _id: string;
  supplierId: string;
  lines: { isbn: string; bookId: string; quantity: number }[];
  note?: string;
  createdAt: string;
}
