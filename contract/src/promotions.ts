import { z } from 'zod';
import { CATEGORIES } from './catalog-terms';
import { fromCents, MAX_PRICE_CENTS, parseMoneyInput } from './money';
import { CursorSchema } from './paging';
import { roundDiv } from './pricing';

// Discount codes and gift cards (issue 40). Money in integer cents on the server, dollars on the wire.
//
// THE discount rule (docs/api.md, "Discount codes"): a code takes money off the books only, before
// shipping and tax. Its eligible books are the cart's books in its categories (all books when it
// names none). percentOff: eligible subtotal x percent, rounded half up to the cent ONCE on the sum
// (never per book); amountOff: the amount, at most the eligible subtotal. Shipping (and whether post
// is free) is priced on the books' price before the discount; the tax is computed on the books after
// the discount (plus shipping), so the shop never charges tax on money it did not take.

export const DISCOUNT_CODE_PATTERN = /^[A-Z0-9_-]{3,32}$/;
export const MAX_DISCOUNT_SHARDS = 50;

/**
 * A sharded code's allowance (issue 40, decision 040): maxRedemptions spread over `shards` documents,
 * the first ones taking one more when it does not divide. Each shard's count is exact, so the sum is
 * never past the limit.
 */
export function shardAllowances(maxRedemptions: number, shards: number): number[] {
  return Array.from({ length: shards }, (_, k) => Math.floor(maxRedemptions / shards) + (k < maxRedemptions % shards ? 1 : 0));
}

/** A discount code as the shopper types it: any case, surrounding spaces ignored. */
export const DiscountCodeSchema = z
  .string({ error: 'Discount code must be text' })
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => DISCOUNT_CODE_PATTERN.test(v), 'A discount code is 3 to 32 letters, digits, - or _');

const money = (label: string, min: number) =>
  z.unknown().transform((value, ctx) => {
    const dollars = parseMoneyInput(value);
    if (dollars === null || dollars < min || dollars * 100 > MAX_PRICE_CENTS * 50) {
      ctx.addIssue({ code: 'custom', message: `${label} must be an amount from ${min} with at most 2 decimals` });
      return z.NEVER;
    }
    return Math.round(dollars * 100);
  });

const isoDate = (label: string) => z.iso.datetime({ offset: true, error: `${label} must be an ISO 8601 date and time` }).transform((v) => new Date(v).toISOString());

// POST /api/admin/discounts
export const DiscountCreateSchema = z
  .object({
    code: DiscountCodeSchema,
    percentOff: z.number({ error: 'percentOff must be a number' }).gt(0, 'percentOff must be above 0').max(100, 'percentOff is at most 100')
      .refine((v) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'percentOff has at most 2 decimals').optional(),
    amountOff: money('amountOff', 0.01).optional(),
    minSubtotal: money('minSubtotal', 0).optional(),
    maxRedemptions: z.number({ error: 'maxRedemptions must be a number' }).int('maxRedemptions must be a whole number').min(1).max(10_000_000).optional(),
    oncePerCustomer: z.boolean({ error: 'oncePerCustomer must be true or false' }).default(false),
    startsAt: isoDate('startsAt').optional(),
    endsAt: isoDate('endsAt').optional(),
    categories: z.array(z.enum(CATEGORIES, { error: `Categories must be among ${CATEGORIES.join(', ')}` })).max(CATEGORIES.length).optional(),
    /** A flash sale's code: its uses spread over this many documents (decision 040; BENCHMARKS.md section 8). */
    shards: z.number({ error: 'shards must be a whole number' }).int('shards must be a whole number').min(1, 'shards is at least 1').max(MAX_DISCOUNT_SHARDS, `shards is at most ${MAX_DISCOUNT_SHARDS}`).optional(),
  })
  .strip()
  .superRefine((d, ctx) => {
    if ((d.shards ?? 1) > 1 && (d.maxRedemptions === undefined || d.maxRedemptions < d.shards!)) {
      ctx.addIssue({ code: 'custom', path: ['shards'], message: 'A sharded code needs maxRedemptions of at least its number of shards' });
    }
    if ((d.percentOff === undefined) === (d.amountOff === undefined)) ctx.addIssue({ code: 'custom', path: ['percentOff'], message: 'Give either percentOff or amountOff' });
    if (d.startsAt && d.endsAt && d.endsAt <= d.startsAt) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'endsAt must be after startsAt' });
  });
export type DiscountCreate = z.input<typeof DiscountCreateSchema>;
export type ParsedDiscountCreate = z.output<typeof DiscountCreateSchema>;

// PATCH /api/admin/discounts/:code {paused}
export const DiscountPatchSchema = z.object({ paused: z.boolean({ error: 'paused must be true or false' }) }).strip();

export const PROMOTIONS_PAGE_SIZE = 25;
export const PromotionsPageQuerySchema = z
  .object({ cursor: CursorSchema.optional(), limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(100).default(PROMOTIONS_PAGE_SIZE) })
  .strip();

/** A discount as stored (discounts/<CODE>), in cents. */
export interface StoredDiscount {
  code: string;
  /** Basis points: 1000 = 10% off. Exactly one of percentOffBp and amountOffCents. */
  percentOffBp: number | null;
  amountOffCents: number | null;
  minSubtotalCents: number;
  maxRedemptions: number | null;
  oncePerCustomer: boolean;
  startsAt: string | null;
  endsAt: string | null;
  categories: string[];
  paused: boolean;
  /** Orders that hold a redemption now (placed, not cancelled or refused): counted in the order's own transaction (a sharded code: in its shards, summed when read). */
  redemptions: number;
  /** Absent or 1: the count is `redemptions` here; N > 1: in `discounts/<CODE>/shards/<k>` `{allowance, used}`. */
  shards?: number;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
}

export interface Discount {
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  minSubtotal: number;
  maxRedemptions: number | null;
  oncePerCustomer: boolean;
  startsAt: string | null;
  endsAt: string | null;
  categories: string[];
  paused: boolean;
  redemptions: number;
  shards: number;
  createdAt: string;
}

export function discountFromStored(d: StoredDiscount): Discount {
  return {
    code: d.code, percentOff: d.percentOffBp === null ? null : d.percentOffBp / 100, amountOff: d.amountOffCents === null ? null : fromCents(d.amountOffCents),
    minSubtotal: fromCents(d.minSubtotalCents), maxRedemptions: d.maxRedemptions, oncePerCustomer: d.oncePerCustomer, startsAt: d.startsAt, endsAt: d.endsAt,
    categories: d.categories, paused: d.paused, redemptions: d.redemptions, shards: d.shards ?? 1, createdAt: d.createdAt,
  };
}

/** 'What it does', as the checkout and the admin list say it: '10% off', '$5.00 off fiction'. */
export function discountLabel(d: Pick<StoredDiscount, 'percentOffBp' | 'amountOffCents' | 'categories'>): string {
  const what = d.percentOffBp !== null ? `${Number((d.percentOffBp / 100).toFixed(2))}% off` : `$${((d.amountOffCents ?? 0) / 100).toFixed(2)} off`;
  return d.categories.length ? `${what} ${d.categories.join(', ')}` : what;
}

/** One book as the discount sees it. */
export interface DiscountedBook {
  priceCents: number;
  category?: string;
}

/** The eligible books' subtotal: those in the code's categories, or every book when it names none. */
export function eligibleSubtotalCents(d: Pick<StoredDiscount, 'categories'>, books: readonly DiscountedBook[]): number {
  const wanted = new Set(d.categories.map((c) => c.toLowerCase()));
  return books.filter((b) => wanted.size === 0 || wanted.has(String(b.category ?? '').toLowerCase())).reduce((s, b) => s + b.priceCents, 0);
}

/** THE discount of a cart (the rule above): cents, rounded once. */
export function discountCentsFor(d: Pick<StoredDiscount, 'percentOffBp' | 'amountOffCents' | 'categories'>, books: readonly DiscountedBook[]): number {
  const eligible = eligibleSubtotalCents(d, books);
  if (d.percentOffBp !== null) return roundDiv(eligible * d.percentOffBp, 10_000);
  return Math.min(d.amountOffCents ?? 0, eligible);
}

export type DiscountRefusalCode =
  | 'DISCOUNT_UNKNOWN' | 'DISCOUNT_PAUSED' | 'DISCOUNT_NOT_STARTED' | 'DISCOUNT_EXPIRED'
  | 'DISCOUNT_MIN_SUBTOTAL' | 'DISCOUNT_NO_ELIGIBLE_BOOKS' | 'DISCOUNT_EXHAUSTED' | 'DISCOUNT_ALREADY_USED';

export type DiscountVerdict =
  | { ok: true; cents: number; label: string }
  | { ok: false; status: number; code: DiscountRefusalCode; message: string };

const refuse = (status: number, code: DiscountRefusalCode, message: string): DiscountVerdict => ({ ok: false, status, code, message });

/**
 * The quote's one answer for every code that does not apply (issue 55): unknown, paused, not yet or
 * no longer valid, used up, or not for this cart. A quote is anonymous and cheap, so telling these
 * apart (or naming a live code's minimum or categories) would let anyone probe which codes exist;
 * a shopper learns what a code does once it applies (its label in `discountApplied`).
 */
export const DISCOUNT_UNAVAILABLE = { error: 'DISCOUNT_UNAVAILABLE', reason: 'This code cannot be used' } as const;

/**
 * Whether `d` applies to this cart now, and how much it takes off; or why not, with the order's
 * answer (an unknown code 404; a code that is not valid now or not for this cart 422; used up 409).
 * `usedByCustomer`: whether this customer already holds a redemption (checked for orders only).
 */
export function discountVerdict(d: StoredDiscount | undefined, books: readonly DiscountedBook[], now: string, usedByCustomer = false): DiscountVerdict {
  if (!d) return refuse(404, 'DISCOUNT_UNKNOWN', 'This discount code does not exist');
  if (d.paused) return refuse(422, 'DISCOUNT_PAUSED', 'This discount code is paused');
  if (d.startsAt && now < d.startsAt) return refuse(422, 'DISCOUNT_NOT_STARTED', `This discount code is valid from ${d.startsAt.slice(0, 10)}`);
  if (d.endsAt && now >= d.endsAt) return refuse(422, 'DISCOUNT_EXPIRED', 'This discount code has expired');
  const subtotal = books.reduce((s, b) => s + b.priceCents, 0);
  if (subtotal < d.minSubtotalCents) return refuse(422, 'DISCOUNT_MIN_SUBTOTAL', `This discount code needs books worth at least $${(d.minSubtotalCents / 100).toFixed(2)}`);
  const cents = discountCentsFor(d, books);
  if (cents <= 0) return refuse(422, 'DISCOUNT_NO_ELIGIBLE_BOOKS', `This discount code is for ${d.categories.join(', ')} books only`);
  if (usedByCustomer) return refuse(422, 'DISCOUNT_ALREADY_USED', 'You have already used this discount code');
  if (d.maxRedemptions !== null && d.redemptions >= d.maxRedemptions) return refuse(409, 'DISCOUNT_EXHAUSTED', 'This discount code has been used up');
  return { ok: true, cents, label: discountLabel(d) };
}

/** One order's use of a code, as listed on its admin page (discounts/<CODE>/redemptions/<orderId>). */
export interface DiscountRedemption {
  orderId: string;
  email: string;
  discount: number;
  at: string;
  /** Set when the order was cancelled or refused and gave the redemption back. */
  returnedAt: string | null;
}

export interface DiscountsPage {
  discounts: Discount[];
  nextCursor: string | null;
}
export interface RedemptionsPage {
  redemptions: DiscountRedemption[];
  nextCursor: string | null;
}

// ---------------------------------------------------------------------------------------------
// Gift cards. A code is 15 random symbols of Crockford's base 32 (75 bits: not guessable) and one
// check symbol (Luhn mod 32: any one mistyped symbol, and any swap of two neighbours, is caught
// before a lookup), written XXXX-XXXX-XXXX-XXXX. Stored only as its SHA-256 (the doc id), with its
// last four symbols to show.

export const GIFT_CARD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Luhn mod 32 check symbol of `body` (symbols of GIFT_CARD_ALPHABET). */
export function giftCardCheckSymbol(body: string): string {
  const n = GIFT_CARD_ALPHABET.length;
  let factor = 2;
  let sum = 0;
  for (let i = body.length - 1; i >= 0; i--) {
    let addend = factor * GIFT_CARD_ALPHABET.indexOf(body[i]!);
    factor = factor === 2 ? 1 : 2;
    addend = Math.floor(addend / n) + (addend % n);
    sum += addend;
  }
  return GIFT_CARD_ALPHABET[(n - (sum % n)) % n]!;
}

/** The typed code, canonical: upper case, no spaces or dashes, the look-alikes O->0, I and L->1. */
export function normaliseGiftCardCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

/** Whether a canonical code is 16 symbols of the alphabet with the right check symbol. */
export function giftCardCodeIsValid(code: string): boolean {
  if (code.length !== 16 || [...code].some((c) => !GIFT_CARD_ALPHABET.includes(c))) return false;
  return giftCardCheckSymbol(code.slice(0, 15)) === code[15];
}

/**
 * A new code from 15 random bytes (crypto.getRandomValues in the browser, randomBytes on the server):
 * each byte's low 5 bits pick a symbol (32 divides 256: uniform), 75 random bits, and the check symbol.
 * The counter makes the codes of the cards it sells and of store credit this way (issue 40).
 */
export function makeGiftCardCode(random15: Uint8Array): string {
  if (random15.length < 15) throw new Error('makeGiftCardCode needs 15 random bytes');
  let body = '';
  for (let i = 0; i < 15; i++) body += GIFT_CARD_ALPHABET[random15[i]! & 31];
  return body + giftCardCheckSymbol(body);
}

/** XXXX-XXXX-XXXX-XXXX */
export const formatGiftCardCode = (code: string) => code.match(/.{1,4}/g)!.join('-');

export const GIFT_CARD_TYPO = 'This gift card code has a typo: check it and try again';

export const GiftCardCodeSchema = z
  .string({ error: 'Gift card code must be text' })
  .max(40, GIFT_CARD_TYPO)
  .transform(normaliseGiftCardCode)
  .refine(giftCardCodeIsValid, GIFT_CARD_TYPO);

// POST /api/gift-cards/balance {code} (issue 55): the code travels in the body, never in a URL path
// that request logs keep.
export const GiftCardBalanceRequestSchema = z.object({ code: GiftCardCodeSchema }).strip();

/** How a gift card code may appear in a log line: its last 4 symbols only (issue 55). */
export const giftCardLogLabel = (code: string): string => `…${normaliseGiftCardCode(code).slice(-4)}`;

export const MAX_GIFT_CARD_CENTS = 100_000; // $1,000

// POST /api/admin/gift-cards
export const GiftCardIssueSchema = z
  .object({
    amount: money('amount', 0.01).refine((c) => c <= MAX_GIFT_CARD_CENTS, `amount is at most ${MAX_GIFT_CARD_CENTS / 100}`),
    recipientEmail: z.email({ error: 'recipientEmail is not valid' }).max(254).optional(),
  })
  .strip();
export type GiftCardIssue = z.input<typeof GiftCardIssueSchema>;

export type GiftCardMovementKind = 'issued' | 'spent' | 'returned' | 'store-credit' | 'voided';

/** One line of a card's ledger (giftCards/<hash>/ledger/<id>): + issued/returned, - spent/voided. */
export interface GiftCardMovement {
  kind: GiftCardMovementKind;
  amount: number;
  balanceAfter: number;
  at: string;
  orderId?: string;
  /** A counter sale that sold the card, or the sale whose return became store credit (issue 40). */
  saleId?: string;
  by?: string;
}

/** A card as the admin pages list it (never its full code). */
export interface GiftCard {
  id: string;
  last4: string;
  balance: number;
  initial: number;
  recipientEmail: string | null;
  createdAt: string;
  /** When an owner or manager voided it (issue 55): its balance is 0 and nothing is ever put back on it. */
  voidedAt: string | null;
}

export interface StoredGiftCard {
  last4: string;
  balanceCents: number;
  initialCents: number;
  recipientEmail: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  voidedAt?: string;
  voidedBy?: string;
}

export const giftCardFromStored = (id: string, g: StoredGiftCard): GiftCard => ({
  id, last4: g.last4, balance: fromCents(g.balanceCents), initial: fromCents(g.initialCents), recipientEmail: g.recipientEmail, createdAt: g.createdAt,
  voidedAt: g.voidedAt ?? null,
});

/** 201 of POST /api/admin/gift-cards: the only answer that ever holds the full code. */
export interface IssuedGiftCard {
  code: string;
  balance: number;
  id: string;
}
