import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatDateTime, formatLanguage, KNOWN_LANGUAGE_TAGS, shopDay, SHOP_TIME_ZONE } from './locale';
import { formatPublicationDate } from './publication-date';
import { dayInShopZone, groupedInteger, longUtcDate } from './shop-zone';

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

describe('long dates without a formatter', () => {
  // What the shop's pages show: the same text the Intl formatter writes, over every month, day
  // and a spread of years (a publication date may be old), and Intl itself where it is not en-US.
  const intlDay = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });
  const intlMonth = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long' });
  const instants = Array.from({ length: 2_000 }, (_, i) => new Date(Date.UTC(1000 + ((i * 7919) % 9000), i % 12, 1 + (i % 31), (i * 13) % 24, (i * 37) % 60)));

  it('reads as Intl.DateTimeFormat en-US in UTC writes, with and without the day', () => {
    for (const at of [...instants, new Date('2026-12-31T23:59:59.999Z'), new Date('2028-02-29T00:00:00Z'), new Date('0001-01-01T00:00:00Z'), new Date('9999-12-31T23:59:59Z')]) {
      expect(longUtcDate(at), at.toISOString()).toBe(intlDay.format(at));
      expect(longUtcDate(at, false), at.toISOString()).toBe(intlMonth.format(at));
    }
  });

  it('leaves a year Intl writes otherwise to Intl', () => {
    expect(longUtcDate(new Date(Date.UTC(-5, 0, 1)))).toBeNull();
    expect(longUtcDate(new Date(Date.UTC(10_000, 0, 1)))).toBeNull();
  });

  it('formatDate and formatPublicationDate read as before', () => {
    expect(formatDate('2026-01-02T01:00:00.000Z')).toBe(intlDay.format(new Date('2026-01-02T01:00:00.000Z')));
    expect(formatPublicationDate('2019-04-02')).toBe('April 2, 2019');
    expect(formatPublicationDate('2019-04')).toBe('April 2019');
    expect(formatPublicationDate('2019')).toBe('2019');
  });
});

describe('whole numbers without a formatter', () => {
  const intl = new Intl.NumberFormat('en-US');
  const numbers = [0, 1, -1, 12, 999, 1_000, -1_000, 12_345, 999_999, 1_000_000, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, ...Array.from({ length: 2_000 }, (_, i) => Math.round(((i * 7919) % 10_007) ** (1 + (i % 3)) / (i % 4 ? 1 : -7)) || 0)]; // -0 (0 / -7) is Intl's own case, below

  it('reads as Intl.NumberFormat en-US writes, over a spread of sizes and signs', () => {
    for (const n of numbers) expect(groupedInteger(n), String(n)).toBe(intl.format(n));
  });

  it('leaves fractions and unsafe integers to Intl, and formatCount reads as before', () => {
    for (const n of [-0, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) expect(groupedInteger(n)).toBeNull();
    for (const n of [-0, 1234, 1234.5, 2 ** 60]) expect(formatCount(n)).toBe(intl.format(n));
  });
});

describe('language names without a formatter', () => {
  it('names each common language as Intl.DisplayNames en-US does, and asks Intl for the rest', () => {
    const intl = new Intl.DisplayNames(['en-US'], { type: 'language', fallback: 'code' });
    for (const tag of [...KNOWN_LANGUAGE_TAGS, 'pt-BR', 'is', 'EN', 'xx-unknown']) expect(formatLanguage(tag), tag).toBe(intl.of(tag));
    expect(formatLanguage('not a tag!')).toBe('not a tag!');
  });
});
