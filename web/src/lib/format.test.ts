import { describe, expect, it } from 'vitest';
import { money, truncate } from './format';

describe('truncate', () => {
  it('keeps text up to 80 characters and cuts longer text with an ellipsis', () => {
    expect(truncate('a'.repeat(80))).toBe('a'.repeat(80));
    expect(truncate('a'.repeat(81))).toBe(`${'a'.repeat(80)}...`);
    expect(truncate(`${'a'.repeat(79)}📚📚`)).toBe(`${'a'.repeat(79)}📚...`);
  });
  it('formats dollars', () => expect(money(12.5)).toBe('$12.50'));
});
