import { describe, expect, it } from 'vitest';
import { readErrorBody } from './errors';
import { normaliseEmail, priceChangedTotal, repeatedIds, unorderableBooks } from './order';

describe('error answers', () => {
  it('reads any value into { message, code?, details? }, keeping extra fields', () => {
    expect(readErrorBody(null)).toEqual({ message: '' });
    expect(readErrorBody('oops')).toEqual({ message: '' });
    expect(readErrorBody({ message: 'No', code: 'X', productIDs: ['a'] })).toEqual({ message: 'No', code: 'X', productIDs: ['a'] });
    expect(readErrorBody({ message: 'No', details: 'bad' })).toEqual({ message: 'No' });
  });

  it('reads the order answers by status and code only', () => {
    const changed = { message: 'Prices have changed', code: 'PRICE_CHANGED', totalPrice: 25.5 };
    expect(priceChangedTotal(409, changed)).toBe(25.5);
    expect(priceChangedTotal(400, changed)).toBeNull();
    expect(priceChangedTotal(409, { ...changed, totalPrice: '25.50' })).toBeNull();
    expect(unorderableBooks(409, { message: 'x', code: 'OUT_OF_STOCK', productIDs: ['a', 1] })).toEqual({ reason: 'out-of-stock', productIDs: ['a'] });
    expect(unorderableBooks(400, { message: 'x', code: 'UNKNOWN_BOOKS', productIDs: ['c'] })).toEqual({ reason: 'deleted', productIDs: ['c'] });
    expect(unorderableBooks(409, { message: 'x', code: 'UNKNOWN_BOOKS', productIDs: ['c'] })).toBeNull();
  });
});

describe('order rules both sides apply', () => {
  it('names each repeated id once', () => {
    expect(repeatedIds(['a', 'b', 'a', 'c', 'b', 'a'])).toEqual(['a', 'b']);
    expect(repeatedIds(['a', 'b'])).toEqual([]);
  });
  it('spells an email one way', () => expect(normaliseEmail('  Reader@Example.COM ')).toBe('reader@example.com'));
});
