import { describe, expect, it } from 'vitest';
import { latestSpecialQuoteDay, SpecialOrderStatusSchema } from './special-orders';

// A special order's quote (issue 55): at most 1,000.00 a copy, dated from the shop's today to a year
// ahead. Over HTTP, with 400 and nothing changed: functions/test/special-orders.api.test.ts.
describe('a special order\'s quote bounds', () => {
  it('a year ahead is the same day next year (29 February: 1 March)', () => {
    expect(latestSpecialQuoteDay('2026-12-06')).toBe('2027-12-06');
    expect(latestSpecialQuoteDay('2027-12-31')).toBe('2028-12-31');
    expect(latestSpecialQuoteDay('2028-02-29')).toBe('2029-03-01');
  });

  it('names the field that is out of bounds; the status alone needs neither', () => {
    const issues = (body: unknown) => {
      const parsed = SpecialOrderStatusSchema.safeParse(body);
      return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join('.'), i.message]);
    };
    const soon = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    expect(issues({ status: 'quoted', price: '1000.00', expectedOn: soon })).toEqual([]);
    expect(issues({ status: 'quoted', price: '1000.01', expectedOn: soon })).toEqual([['price', "A quote's price is at most 1,000.00 a copy"]]);
    expect(issues({ status: 'quoted', price: 20, expectedOn: '2001-01-01' })).toEqual([['expectedOn', 'The expected date cannot be in the past']]);
    expect(issues({ status: 'quoted', price: 20, expectedOn: '2999-01-01' })).toEqual([['expectedOn', 'The expected date is at most a year ahead']]);
    expect(issues({ status: 'quoted', price: 20, expectedOn: '2027-02-30' })).toEqual([['expectedOn', 'A quote needs an expected date']]);
    expect(issues({ status: 'ordered' })).toEqual([]);
  });
});
