import { describe, expect, it } from 'vitest';
import { bandsBetween } from './browse.repo';
import { decodeKeyset, decodeOffset, encodeKeyset, encodeOffset } from './cursor';
import { KEY_SEPARATOR, priceKeyPrefix, sortKeys } from './sort-key';

describe('price bands for a range', () => {
  it('selects exactly the bands inside [min, max)', () => {
    expect(bandsBetween(0, 10)).toEqual([0]);
    expect(bandsBetween(10, 20)).toEqual([1, 2]);
    expect(bandsBetween(50)).toEqual([5, 6]);
    expect(bandsBetween(undefined, 100)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('sort keys', () => {
  it('sort like their values, then by tie', () => {
    const a = sortKeys({ title: 'Abc', newPriceCents: 999, createdAt: '2026-01-01T00:00:00.000Z' }, 'zz');
    const b = sortKeys({ title: 'abc d', newPriceCents: 1000, createdAt: '2026-01-01T00:00:00.001Z' }, 'aa');
    const c = sortKeys({ title: 'Ábc', newPriceCents: 999, createdAt: '2026-01-01T00:00:00.000Z' }, 'zzz');
    expect(a.titleKey < b.titleKey && a.priceKey < b.priceKey && a.newestKey < b.newestKey).toBe(true);
    expect(a.titleKey < c.titleKey).toBe(true); // same folded title: the tie decides
    expect(a.priceKey.startsWith(`${priceKeyPrefix(999)}${KEY_SEPARATOR}`)).toBe(true);
    expect(a.priceKey < priceKeyPrefix(1000)).toBe(true);
  });
});

describe('cursors', () => {
  it('round-trip and refuse other orders or tampering with 400 on cursor', () => {
    const token = encodeKeyset({ order: 'title', way: 'prev', key: `abc${KEY_SEPARATOR}x` });
    expect(decodeKeyset(token, 'title')).toEqual({ order: 'title', way: 'prev', key: `abc${KEY_SEPARATOR}x` });
    expect(() => decodeKeyset(token, 'newest')).toThrow(/another sort/);
    expect(() => decodeKeyset('bm90LWpzb24', 'title')).toThrow(/cursor is not valid/);
    const offset = encodeOffset({ order: 'q', offset: 25 });
    expect(decodeOffset(offset, 'q').offset).toBe(25);
    // Asserted outside any catch: if decodeOffset stopped throwing, this fails.
    expect(() => decodeOffset(encodeOffset({ order: 'q', offset: -1 }), 'q')).toThrow(
      expect.objectContaining({ status: 400, extra: expect.objectContaining({ details: expect.objectContaining({ cursor: expect.anything() }) }) }),
    );
  });
});
