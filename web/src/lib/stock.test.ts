import { LOW_STOCK_THRESHOLD } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import { stockLevel, stockText } from './stock';

describe('stock level', () => {
  it('says Out of stock at 0 and Only N left at the threshold or fewer', () => {
    expect(stockText(stockLevel(0))).toBe('Out of stock');
    expect(stockText(stockLevel(1))).toBe('Only 1 left');
    expect(stockText(stockLevel(LOW_STOCK_THRESHOLD))).toBe(`Only ${LOW_STOCK_THRESHOLD} left`);
    expect(stockText(stockLevel(LOW_STOCK_THRESHOLD + 1))).toBeNull();
  });
  it('treats a book without a stock figure as available', () => {
    expect(stockLevel(undefined)).toEqual({ kind: 'in' });
  });
});
