import { describe, expect, it } from 'vitest';
import { formatCents, formatDollars, moneyLabel, parseMoneyInput, sumCents, toCents } from './money';

describe('money', () => {
  it('converts dollars to cents without float drift', () => {
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(sumCents([toCents(0.1)!, toCents(0.2)!])).toBe(30);
    expect(formatCents(1250)).toBe('12.50');
  });

  it('refuses more than 2 decimals and non-finite values', () => {
    expect(toCents(1.005)).toBeNull();
    expect(toCents(Number.POSITIVE_INFINITY)).toBeNull();
    expect(toCents(Number.NaN)).toBeNull();
  });

  it('parses numbers and numeric strings only', () => {
    expect(parseMoneyInput('12.5')).toBe(12.5);
    expect(parseMoneyInput(' 7 ')).toBe(7);
    expect(parseMoneyInput('1e3')).toBeNull();
    expect(parseMoneyInput('12.345')).toBeNull();
    expect(parseMoneyInput('-1')).toBeNull();
    expect(parseMoneyInput(null)).toBeNull();
    expect(parseMoneyInput([1])).toBeNull();
    expect(parseMoneyInput(JSON.parse('1e309'))).toBeNull();
  });

  it('refuses amounts that only round to the cent', () => {
    expect(parseMoneyInput(JSON.parse('20.000000001'))).toBeNull();
    expect(parseMoneyInput(JSON.parse('19.999'))).toBeNull();
    expect(parseMoneyInput(JSON.parse('1e-7'))).toBeNull();
    expect(parseMoneyInput(JSON.parse('1e21'))).toBeNull();
    expect(parseMoneyInput(JSON.parse('19.99'))).toBe(19.99);
    expect(parseMoneyInput(JSON.parse('-1'))).toBe(-1); // the range check words the refusal
    expect(parseMoneyInput(2 ** 53 + 1)).toBe(2 ** 53); // a whole number: refused by the range
  });
});

describe('money labels', () => {
  it('writes dollars to the cent, rounding binary noise', () => {
    expect(formatDollars(25.5)).toBe('25.50');
    expect(formatDollars(0.1 + 0.2)).toBe('0.30');
    expect(moneyLabel(12)).toBe('$12.00');
  });
});
