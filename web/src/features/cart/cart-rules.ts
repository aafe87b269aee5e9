import type { Book } from '@bookstore/contract';
import { formatCents, sumCents, toCents } from '@bookstore/contract';

export type CartItem = Book;

export type AddResult = { added: true; items: CartItem[] } | { added: false; items: CartItem[] };

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
