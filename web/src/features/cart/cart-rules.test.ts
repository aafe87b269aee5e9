import type { Book } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import { addToCart, parseStoredCart, removeFromCart, subtotal } from './cart-rules';

const book = (id: string, newPrice: number) => ({ _id: id, title: id, newPrice, oldPrice: newPrice + 1 }) as Book;

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

  it('reads back only well-formed, distinct stored items', () => {
    expect(parseStoredCart('not json')).toEqual([]);
    expect(parseStoredCart(JSON.stringify({ a: 1 }))).toEqual([]);
    expect(parseStoredCart(JSON.stringify([book('a', 1), book('a', 1), { _id: 3 }])).map((i) => i._id)).toEqual(['a']);
  });
});
