import type { Book } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import {
  addToCart, applyFreshBooks, FLAG_OUTRANKS_CACHED_DATA_MS, lineProblem, parseStoredCart, parseStoredFlags, removeFromCart, savingsCents, subtotal, unavailableIds,
} from './cart-rules';

const book = (id: string, newPrice: number, stock?: number) => ({ _id: id, title: id, newPrice, oldPrice: newPrice + 1, stock }) as Book;

describe('cart rules', () => {
  it('adds a book once, matched by _id', () => {
    const first = addToCart([], book('a', 1));
    expect(first.added).toBe(true);
    const again = addToCart(first.items, book('a', 1));
    expect(again).toEqual({ added: false, items: first.items });
  });

  it('removes by _id and sums newPrice in cents with 2 decimals', () => {
    const items = [book('a', 0.1), book('b', 0.2), book('c', 19.99)];
    expect(subtotal(items)).toBe('20.29');
    expect(subtotal([])).toBe('0.00');
    expect(removeFromCart(items, 'b').map((i) => i._id)).toEqual(['a', 'c']);
  });

  it('adds up what the shopper saves against the old prices, in cents; a price above its old one saves nothing (issue 29)', () => {
    expect(savingsCents([book('a', 0.1), book('b', 19.99)])).toBe(200); // each old price is 1.00 more
    expect(savingsCents([{ ...book('c', 12.5), oldPrice: 10 }])).toBe(0);
    expect(savingsCents([{ ...book('d', 9.99), oldPrice: 29.99 }, book('e', 0.2)])).toBe(2100);
  });

  it('reads back only well-formed, distinct stored items', () => {
    expect(parseStoredCart('not json')).toEqual([]);
    expect(parseStoredCart(JSON.stringify({ a: 1 }))).toEqual([]);
    expect(parseStoredCart(JSON.stringify([book('a', 1), book('a', 1), { _id: 3 }])).map((i) => i._id)).toEqual(['a']);
  });
});

describe('unavailable lines', () => {
  it('flags a line from the server, or from its own stock of 0; an old cart without stock is fine', () => {
    const items = [book('a', 1, 5), book('b', 1, 0), book('c', 1), book('d', 1, 2)];
    const flags = { d: { reason: 'deleted' as const, at: 0 } };
    expect(items.map((i) => lineProblem(i, flags))).toEqual([undefined, 'out-of-stock', undefined, 'deleted']);
    expect(unavailableIds(items, flags)).toEqual(['b', 'd']);
  });

  it('copies fresh stock onto lines, and lets only data newer than flag + CDN time clear a flag', () => {
    const items = [book('a', 1, 5), book('b', 1, 1)];
    const flags = { b: { reason: 'out-of-stock' as const, at: 1_000 } };
    const soon = applyFreshBooks(items, flags, [{ _id: 'a', stock: 0 }, { _id: 'b', stock: 4 }], 2_000)!;
    expect(soon.items.map((i) => i.stock)).toEqual([0, 4]);
    expect(soon.flags).toEqual(flags); // cached data may predate the server's answer
    expect(unavailableIds(soon.items, soon.flags)).toEqual(['a', 'b']);
    const later = applyFreshBooks(soon.items, soon.flags, [{ _id: 'b', stock: 4 }], 1_000 + FLAG_OUTRANKS_CACHED_DATA_MS + 1)!;
    expect(later.flags).toEqual({});
    expect(applyFreshBooks(later.items, later.flags, [{ _id: 'b', stock: 4 }, { _id: 'zzz', stock: 0 }], 99_999)).toBeNull();
  });

  it('reads back only well-formed stored flags', () => {
    expect(parseStoredFlags('{')).toEqual({});
    expect(parseStoredFlags(JSON.stringify({ a: { reason: 'deleted', at: 1 }, b: { reason: 'gone', at: 1 }, c: null }))).toEqual({ a: { reason: 'deleted', at: 1 } });
  });
});
