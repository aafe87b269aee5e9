import { describe, expect, it } from 'vitest';
import { isForthcoming, shopToday } from './preorder';

describe('pre-orders: forthcoming books', () => {
  it('reads today in the shop time zone', () => {
    expect(shopToday(new Date('2026-11-25T23:59:59Z'))).toBe('2026-11-25');
    expect(shopToday(new Date('2026-11-26T00:00:00Z'))).toBe('2026-11-26');
  });

  it('is forthcoming only after today; a partial date counts from its first day', () => {
    const today = '2026-11-25';
    expect(isForthcoming('2026-11-26', today)).toBe(true);
    expect(isForthcoming('2026-11-25', today)).toBe(false);
    expect(isForthcoming('2026-12', today)).toBe(true);
    expect(isForthcoming('2026-11', today)).toBe(false);
    expect(isForthcoming('2027', today)).toBe(true);
    expect(isForthcoming('2026', today)).toBe(false);
    expect(isForthcoming(undefined, today)).toBe(false);
    expect(isForthcoming('soon', today)).toBe(false);
  });
});
