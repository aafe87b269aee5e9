import { randomBytes } from 'node:crypto';

// Sort keys for keyset paging. Each order the shop offers reads one stored string that is unique
// (the value, then a separator below every text character, then a tie-breaker), so 'the books
// after this one' is a single range filter on that field (`newestKey < cursor`). No startAfter
// with several values and no order on the document id is needed: the offline Firestore
// replacement supports neither, and real Firestore answers the same way.

/** Below every character a title can hold (control characters are refused by the contract). */
export const KEY_SEPARATOR = '\u0001';
const PRICE_DIGITS = 7; // up to 1,000,000 cents ($10,000, the contract's maximum)

/** Lowercase without accents ('Érable' -> 'erable'): how search terms and sort keys compare. */
export function foldText(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The title as it sorts A-Z: folded, inner spaces collapsed, so 'the Lamp' and 'The lamp' sit together. */
export function titleSortText(title: string): string {
  return foldText(title).replace(/\s+/g, ' ').trim();
}

/** Cents as fixed-width digits, so text order is numeric order; also the bound of a price range. */
export function priceKeyPrefix(cents: number): string {
  return String(cents).padStart(PRICE_DIGITS, '0');
}

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A 20-character id like Firestore's own, for books written without knowing their id (the seed). */
export function randomTie(): string {
  return [...randomBytes(20)].map((byte) => ID_CHARS[byte % ID_CHARS.length]).join('');
}

export function sortKeys(book: { title: string; newPriceCents: number; createdAt: string }, id?: string) {
  const tie = id ?? randomTie();
  return {
    tie,
    newestKey: `${book.createdAt}${KEY_SEPARATOR}${tie}`,
    priceKey: `${priceKeyPrefix(book.newPriceCents)}${KEY_SEPARATOR}${tie}`,
    titleKey: `${titleSortText(book.title)}${KEY_SEPARATOR}${tie}`,
  };
}
