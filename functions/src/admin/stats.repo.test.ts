import { describe, expect, it } from 'vitest';
import { lastTwelveMonths } from './stats.repo';

describe('lastTwelveMonths', () => {
  it('ends with the current month and crosses the year boundary', () => {
    const months = lastTwelveMonths(new Date(Date.UTC(2026, 1, 15)));
    expect(months).toHaveLength(12);
    expect(months[0]).toBe('2025-03');
    expect(months[11]).toBe('2026-02');
  });
});
