import type { Book } from '@bookstore/contract';
import { formatCents, isForthcoming, sumCents, toCents } from '@bookstore/contract';

export type CartItem = Book;

export type AddResult = { added: true; items: CartItem[] } | { added: false; items: CartItem[] };

/** The toast of an add (the app's, and the one confirming an add made before the app ran). */
export const addedMessage = (book: CartItem): string => (isForthcoming(book.publishedOn) ? 'Pre-order added to cart' : 'Item added to cart');

/** A book may be in the cart once, matched by _id; quantity is always 1. */
export function addToCart(items: CartItem[], book: CartItem): AddResult {
  if (items.some((item) => item._id === book._id)) return { added: false, items };
  return { added: true, items: [...items, book] };
}

export function removeFromCart(items: CartItem[], id: string): CartItem[] {
  return items.filter((item) => item._id !== id);
}

/** Sum of newPrice with 2 decimals, added in cents. */
export function subtotal(items: CartItem[]): string {
  return formatCents(sumCents(items.map((item) => toCents(item.newPrice) ?? 0)));
}

/** What the shopper saves against the old prices, in cents (a line priced above its old price saves nothing). */
export function savingsCents(items: CartItem[]): number {
  return sumCents(items.map((item) => Math.max(0, (toCents(item.oldPrice) ?? 0) - (toCents(item.newPrice) ?? 0))));
}

/** Reads a stored cart, dropping anything that is not a book-shaped object. */
export function parseStoredCart(raw: string | null): CartItem[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    const seen = new Set<string>();
    return value.filter((item): item is CartItem => {
      const ok =
        item && typeof item === 'object' && typeof item._id === 'string' && typeof item.title === 'string' &&
        typeof item.newPrice === 'number' && !seen.has(item._id);
      if (ok) seen.add(item._id);
      return Boolean(ok);
    });
  } catch {
    return [];
  }
}

/** Why a line cannot be ordered now. */
export type Unavailability = 'out-of-stock' | 'deleted';

/** A flag set from the server's answer (checkout's 409/400, a 404 for the book), with when it was set. */
export interface UnavailableFlag {
  reason: Unavailability;
  at: number;
}
export type UnavailableFlags = Record<string, UnavailableFlag>;

/** How long a server's flag outranks book data: catalogue answers may be cached this long by the CDN. */
export const FLAG_OUTRANKS_CACHED_DATA_MS = 60_000;

/** A flagged line, or one whose stored book says stock 0; undefined when it can be ordered. */
export function lineProblem(item: CartItem, flags: UnavailableFlags): Unavailability | undefined {
  // A forthcoming book is ordered at stock 0 (a pre-order, issue 41): only the server's answer flags it.
  const out = typeof item.stock === 'number' && item.stock <= 0 && !isForthcoming(item.publishedOn);
  return flags[item._id]?.reason ?? (out ? 'out-of-stock' : undefined);
}

export function unavailableIds(items: CartItem[], flags: UnavailableFlags): string[] {
  return items.filter((item) => lineProblem(item, flags)).map((item) => item._id);
}

/**
 * Fresh book data for books in the cart: their stock is copied onto the lines, and a flag is
 * dropped once data newer than the flag plus the CDN's cache time arrives (a restock, a re-creation).
 */
export function applyFreshBooks(
  items: CartItem[],
  flags: UnavailableFlags,
  books: Pick<CartItem, '_id' | 'stock'>[],
  fetchedAt: number,
): { items: CartItem[]; flags: UnavailableFlags } | null {
  const fresh = new Map(books.filter((b) => typeof b.stock === 'number').map((b) => [b._id, b.stock]));
  let changed = false;
  const nextItems = items.map((item) => {
    const stock = fresh.get(item._id);
    if (stock === undefined || stock === item.stock) return item;
    changed = true;
    return { ...item, stock };
  });
  const nextFlags = { ...flags };
  for (const id of fresh.keys()) {
    const flag = nextFlags[id];
    if (flag && fetchedAt > flag.at + FLAG_OUTRANKS_CACHED_DATA_MS) {
      delete nextFlags[id]; // from here on the line's own stock decides
      changed = true;
    }
  }
  return changed ? { items: nextItems, flags: nextFlags } : null;
}

/** Reads stored flags, keeping only well-formed ones. */
export function parseStoredFlags(raw: string | null): UnavailableFlags {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    const flags: UnavailableFlags = {};
    for (const [id, flag] of Object.entries(value as Record<string, unknown>)) {
      const f = flag as Partial<UnavailableFlag> | null;
      if (f && (f.reason === 'out-of-stock' || f.reason === 'deleted') && typeof f.at === 'number') flags[id] = { reason: f.reason, at: f.at };
    }
    return flags;
  } catch {
    return {};
  }
}
