import type { Quote } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import { contentVersion, QuoteCache, quoteKey } from './quote-cache';

const quote = (subtotal: number) => ({ subtotal }) as unknown as Quote;
const parts = { productIDs: ['a', 'b'], method: 'post' as const, country: 'US', region: 'IL', zipcode: '62701', settingsVersion: 'v1', catalogVersion: 7 };

describe('the quote cache', () => {
  it('keys on the cart, the method, the place and both versions; a postcode written differently is the same place', () => {
    const key = quoteKey(parts);
    expect(quoteKey({ ...parts, zipcode: '627 01' })).toBe(key);
    for (const other of [{ productIDs: ['b', 'a'] }, { method: undefined }, { country: 'CA' }, { region: 'NY' }, { zipcode: '62702' }, { settingsVersion: 'v2' }, { catalogVersion: 8 }]) {
      expect(quoteKey({ ...parts, ...other }), JSON.stringify(other)).not.toBe(key);
    }
  });

  it('versions settings by content: the same settings, the same version', () => {
    expect(contentVersion({ a: 1, b: [2] })).toBe(contentVersion({ a: 1, b: [2] }));
    expect(contentVersion({ a: 1, b: [3] })).not.toBe(contentVersion({ a: 1, b: [2] }));
  });

  it('keeps at most its capacity, dropping the least recently used', () => {
    const cache = new QuoteCache(2);
    cache.set('x', quote(1));
    cache.set('y', quote(2));
    expect(cache.get('x')?.subtotal).toBe(1); // x is now the most recent
    cache.set('z', quote(3));
    expect(cache.size).toBe(2);
    expect(cache.get('y')).toBeUndefined();
    expect(cache.get('x')?.subtotal).toBe(1);
    expect(cache.get('z')?.subtotal).toBe(3);
  });
});
