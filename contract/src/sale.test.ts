import { describe, expect, it } from 'vitest';
import { GiftCardReserveSchema, SaleInputSchema, SaleReturnInputSchema } from './sale';
import { TillIdSchema } from './till';

// Issue 55's inputs at the till: a till id, gift card lines without a code, store credit without one.

const saleId = '6f1c2a9e-3b8d-4f7a-9c21-5e0d4b7a8c13';

describe('the till id', () => {
  it('is 1 to 40 lower-case letters, digits or dashes; absent on a sale queued before issue 55: till-1', () => {
    expect(TillIdSchema.parse(' Till-2 ')).toBe('till-2');
    for (const bad of ['', 'till 1', 'till_1', 'x'.repeat(41), 'tïll']) expect(TillIdSchema.safeParse(bad).success, bad).toBe(false);
    const old = SaleInputSchema.parse({ saleId, lines: [{ bookId: 'b1', quantity: 1 }], payment: { method: 'cash' } });
    expect(old.tillId).toBe('till-1');
    expect(SaleReturnInputSchema.parse({ lines: [{ bookId: 'b1', quantity: 1 }], refundMethod: 'cash' }).tillId).toBe('till-1');
  });
});

describe('gift card codes at the till', () => {
  it('a gift card line and store credit may carry no code (the server makes it); a code still goes with store credit only', () => {
    const sale = SaleInputSchema.parse({ saleId, tillId: 'till-1', lines: [{ kind: 'gift_card', amount: '25.00' }], payment: { method: 'cash' } });
    expect(sale.lines[0]).toEqual({ kind: 'gift_card', amount: 2500 });
    expect(SaleReturnInputSchema.safeParse({ lines: [{ bookId: 'b1', quantity: 1 }], refundMethod: 'store_credit' }).success).toBe(true);
    expect(SaleReturnInputSchema.safeParse({ lines: [{ bookId: 'b1', quantity: 1 }], refundMethod: 'cash', giftCardCode: '0000-0000-0000-0000' }).success).toBe(false);
  });

  it('reserves 1 to 20 codes for a till', () => {
    expect(GiftCardReserveSchema.safeParse({ count: 5, tillId: 'till-1' }).success).toBe(true);
    for (const count of [0, 21, 2.5, '3']) expect(GiftCardReserveSchema.safeParse({ count, tillId: 'till-1' }).success, String(count)).toBe(false);
    expect(GiftCardReserveSchema.safeParse({ count: 5 }).success).toBe(false);
  });
});
