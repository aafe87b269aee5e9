import { fromCents, GIFT_CARD_LINE_TITLE, type BookSaleLine, type SaleLine } from '@bookstore/contract';

// A sale's lines as stored and priced (issue 39). A book line is recorded at what the till charged
// (issue 54: its `unitPrice`, the money taken), or, from a till that did not say, at its book's price
// (`newPriceCents`) when the shop records it. A charge other than the book's price at the sale's
// time is kept and flagged (`priceDiffers`, with the book's price) for a manager, never refused.
//
// A line has a `kind` (decision 039's extension point). A book takes copies from stock through the
// book write path; a gift card (issue 40) is priced at the amount the counter asked for, takes no
// stock, and is issued in the sale's transaction (sales.repo.ts). The takings and receipts read only
// `quantity`, `unitPriceCents` and `title`, whatever the kind; the counters keep gift cards apart.

export interface StoredBookLine {
  kind: 'book';
  bookId: string;
  isbn: string | null;
  title: string;
  quantity: number;
  /** What was charged for each copy. */
  unitPriceCents: number;
  /** Issue 54: charged other than the book's price at the sale's time, which is kept here. */
  priceDiffers?: true;
  bookPriceCents?: number;
  /** Issue 57: this line's share of the sale's discount code (allocateDiscount). */
  discountCents?: number;
}

/** The card's id is the hash of its code (gift-cards.repo.ts): the code itself is never stored. */
export interface StoredGiftCardLine {
  kind: 'gift_card';
  giftCardId: string;
  last4: string;
  title: string;
  quantity: 1;
  unitPriceCents: number;
}

export type StoredSaleLine = StoredBookLine | StoredGiftCardLine;

/** What a book line needs of its book: `newPriceCents`, its price at the sale's time. */
export interface PricedBook {
  id: string;
  isbn?: string | null;
  title: string;
  newPriceCents: number;
}

/** A book line at `chargedCents` (absent: the book's price); flagged when that is not the book's price. */
function bookLine(book: PricedBook, quantity: number, chargedCents?: number): StoredBookLine {
  const unitPriceCents = chargedCents ?? book.newPriceCents;
  const differs = unitPriceCents !== book.newPriceCents ? { priceDiffers: true as const, bookPriceCents: book.newPriceCents } : {};
  return { kind: 'book', bookId: book.id, isbn: book.isbn ?? null, title: book.title, quantity, unitPriceCents, ...differs };
}

/** What a gift card line needs: the card's id and last 4 (from its code) and its amount. */
export interface PricedGiftCard {
  id: string;
  last4: string;
  amountCents: number;
}

/** How each kind of line is priced. */
export const LINE_PRICERS = {
  book: bookLine,
  gift_card: (card: PricedGiftCard): StoredGiftCardLine => ({ kind: 'gift_card', giftCardId: card.id, last4: card.last4, title: GIFT_CARD_LINE_TITLE, quantity: 1, unitPriceCents: card.amountCents }),
} satisfies Record<StoredSaleLine['kind'], unknown>;

export const lineCents = (line: Pick<StoredSaleLine, 'quantity' | 'unitPriceCents'>) => line.quantity * line.unitPriceCents;
export const linesCents = (lines: Pick<StoredSaleLine, 'quantity' | 'unitPriceCents'>[]) => lines.reduce((sum, line) => sum + lineCents(line), 0);

/** Stored before issue 40, a line had a kind too ('book'); a line without one is a book all the same. */
export const isBookLine = (line: StoredSaleLine): line is StoredBookLine => line.kind !== 'gift_card';
export const isCardLine = (line: StoredSaleLine): line is StoredGiftCardLine => line.kind === 'gift_card';

/** Of a sale's lines, what its gift cards cost: money taken that is not book revenue (a liability until spent). */
export const giftCardCentsOf = (lines: StoredSaleLine[]) => linesCents(lines.filter(isCardLine));

/** Whether any line was charged other than its book's price (issue 54). */
export const priceDiffersOf = (lines: StoredSaleLine[]) => lines.some((line) => isBookLine(line) && line.priceDiffers === true);

/**
 * Spreads a sale's discount over its book lines (issue 57), in proportion to what each was charged,
 * the cents left by rounding down going to the first lines: the shares add up to `cents` exactly.
 * Only the lines in `eligible` (the code's categories) take a share.
 */
export function allocateDiscount(lines: StoredSaleLine[], cents: number, eligible: (line: StoredBookLine) => boolean): StoredSaleLine[] {
  const base = lines.map((l) => (isBookLine(l) && eligible(l) ? lineCents(l) : 0));
  const whole = base.reduce((a, b) => a + b, 0);
  if (cents <= 0 || whole <= 0) return lines;
  const shares = base.map((b) => Math.floor((b * cents) / whole));
  let left = cents - shares.reduce((a, b) => a + b, 0);
  for (let i = 0; i < shares.length && left > 0; i++) {
    if (base[i]! > shares[i]!) {
      shares[i]! += 1;
      left -= 1;
    }
  }
  return lines.map((l, i) => (shares[i]! > 0 && isBookLine(l) ? { ...l, discountCents: shares[i]! } : l));
}

/** The discount of every line: the sale's discount, in cents. */
export const linesDiscountCents = (lines: StoredSaleLine[]) => lines.reduce((sum, l) => sum + (isBookLine(l) ? (l.discountCents ?? 0) : 0), 0);

export const apiBookLine = (line: StoredBookLine): BookSaleLine => ({
  bookId: line.bookId,
  isbn: line.isbn,
  title: line.title,
  quantity: line.quantity,
  unitPrice: fromCents(line.unitPriceCents),
  lineTotal: fromCents(lineCents(line)),
  ...(line.priceDiffers ? { priceDiffers: true as const, bookPrice: fromCents(line.bookPriceCents ?? 0) } : {}),
  ...(line.discountCents ? { discount: fromCents(line.discountCents) } : {}),
});

/**
 * The API's line (dollars). `codes`: gift card codes by card id, known only when the request that
 * is answered carried them (the POST that sold the cards, or its retry): a read shows the last 4.
 */
export const apiLine = (line: StoredSaleLine, codes?: ReadonlyMap<string, string>): SaleLine => {
  if (isBookLine(line)) return apiBookLine(line);
  const code = codes?.get(line.giftCardId);
  return {
    kind: 'gift_card',
    giftCard: { id: line.giftCardId, last4: line.last4, ...(code ? { code } : {}) },
    isbn: null,
    title: line.title,
    quantity: 1,
    unitPrice: fromCents(line.unitPriceCents),
    lineTotal: fromCents(lineCents(line)),
  };
};

/**
 * The copies a return may still take back of each book: sold minus returned so far. A return that
 * asks for more of any book than this is refused whole (RETURN_EXCEEDS_SALE). A sold gift card is
 * not taken back as a copy: its lines are left out.
 */
export function returnable(sold: StoredSaleLine[], returned: Record<string, number>): Map<string, number> {
  const left = new Map<string, number>();
  for (const line of sold.filter(isBookLine)) left.set(line.bookId, (left.get(line.bookId) ?? 0) + line.quantity - (returned[line.bookId] ?? 0));
  return left;
}
