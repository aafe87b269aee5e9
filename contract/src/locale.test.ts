import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatDateTime } from './locale';

describe('the shop locale', () => {
  it('formats a date in the shop zone, not the process zone', () => {
    // 01:00 UTC is the previous evening in New York and Honolulu: the shop's zone (UTC) decides.
    expect(formatDate('2026-01-02T01:00:00.000Z')).toBe('January 2, 2026');
    expect(formatDateTime('2026-11-22T01:05:00.000Z')).toBe('Nov 22, 2026, 1:05 AM');
    expect(formatDate('not a date')).toBe('');
    expect(formatCount(12345)).toBe('12,345');
  });
});
