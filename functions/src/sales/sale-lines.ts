import { fromCents, type SaleLine } from '@bookstore/contract';

// A sale's lines as stored and priced (issue 39). Prices are the server's: each line takes its
// book's price (`newPriceCents`) at the moment of the sale, in the sale's transaction.
//
// Extension point (issue 40, gift cards sold at the till): a line has a `kind`. Today every line is
// a book, which takes copies from stock through the book write path; a gift card line will be a
// kind of its own with its own entry in LINE_PRICERS (its amount from the request, no stock) and its
// own effect in the sale's transaction (issuing the card). The takings and receipts read only
// `quantity`, `unitPriceCents` and `title`, whatever the kind.

export interface StoredSaleLine {
  kind: 'book';
  bookId: string;
  isbn: string | null;
  title: string;
  quantity: number;
  unitPriceCents: number;
}

/** What a book line needs of its book. */
export interface PricedBook {
  id: string;
  isbn?: string | null;
  title: string;
  newPriceCents: number;
}

type LinePricer = (book: PricedBook, quantity: number) => StoredSaleLine;

/** How each kind of line is priced. */
export const LINE_PRICERS: Record<StoredSaleLine['kind'], LinePricer> = {
  book: (book, quantity) => ({ kind: 'book', bookId: book.id, isbn: book.isbn ?? null, title: book.title, quantity, unitPriceCents: book.newPriceCents }),
};

export const lineCents = (line: Pick<StoredSaleLine, 'quantity' | 'unitPriceCents'>) => line.quantity * line.unitPriceCents;
export const linesCents = (lines: Pick<StoredSaleLine, 'quantity' | 'unitPriceCents'>[]) => lines.reduce((sum, line) => sum + lineCents(line), 0);

/** The API's line (dollars). */
export const apiLine = (line: StoredSaleLine): SaleLine => ({
  bookId: line.bookId,
  isbn: line.isbn,
  title: line.title,
  quantity: line.quantity,
  unitPrice: fromCents(line.unitPriceCents),
  lineTotal: fromCents(lineCents(line)),
});

/**
 * The copies a return may still take back of each book: sold minus returned so far. A return that
 * asks for more of any book than this is refused whole (RETURN_EXCEEDS_SALE).
 */
export function returnable(sold: StoredSaleLine[], returned: Record<string, number>): Map<string, number> {
  const left = new Map<string, number>();
  for (const line of sold) left.set(line.bookId, (left.get(line.bookId) ?? 0) + line.quantity - (returned[line.bookId] ?? 0));
  return left;
}
