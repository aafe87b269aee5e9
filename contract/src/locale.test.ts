import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatDateTime, shopDay, SHOP_TIME_ZONE } from './locale';
import { dayInShopZone } from './shop-zone';

describe('the shop locale', () => {
  it('formats a date in the shop zone, not the process zone', () => {
    // 01:00 UTC is the previous evening in New York and Honolulu: the shop's zone (UTC) decides.
    expect(formatDate('2026-01-02T01:00:00.000Z')).toBe('January 2, 2026');
    expect(formatDateTime('2026-11-22T01:05:00.000Z')).toBe('Nov 22, 2026, 1:05 AM');
    expect(formatDate('not a date')).toBe('');
    expect(formatCount(12345)).toBe('12,345');
  });
});

describe("the shop's calendar day", () => {
  it('reads in the shop zone what the Intl formatter reads, without building one (UTC)', () => {
    const intl = new Intl.DateTimeFormat('en-CA', { timeZone: SHOP_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
    for (const iso of ['2026-12-31T23:59:59.999Z', '2027-01-01T00:00:00Z', '2028-02-29T12:00:00Z', '1999-03-07T05:06:07Z', '1970-01-01T00:00:00Z']) {
      expect(dayInShopZone(new Date(iso)), iso).toBe(intl.format(new Date(iso)));
    }
    expect(shopDay('2026-11-25T23:59:59Z')).toBe('2026-11-25');
    expect(() => shopDay('not a date')).toThrow(RangeError);
  });
});
