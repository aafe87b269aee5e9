import { discountOfCopies, giftCardCodeIsValid, makeGiftCardCode, SaleInputSchema, SaleReturnInputSchema } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import { allocateDiscount } from './sale-lines';
import { returnCounterDelta, returnTakings, saleCounterDelta, saleTakings, summaryOf } from './takings';
import { saleTenders } from './till-payment';

// Issue 40's money rules at the counter, as pure functions: a gift card sold is money in the till
// but not a book sale; store credit undoes a book sale but gives no money back.

const by = { username: 'robin', name: 'Robin Till' };

describe('takings and counters with gift cards and store credit', () => {
  it('a sale of a 12.50 book and a 40.00 card: 52.50 taken, 12.50 of book sales, 40.00 of cards apart', () => {
    const sale = { totalCents: 5250, giftCardCents: 4000, giftCards: 1, tenders: { cash: 5250 }, by };
    expect(saleCounterDelta(sale)).toEqual({ counterSales: 1, counterSalesCents: 1250, counterGiftCards: 1, counterGiftCardCents: 4000 });
    const takings = saleTakings(sale).numbers;
    expect(takings).toMatchObject({ sales: 1, salesCents: 5250, method_cash_cents: 5250, giftCards: 1, giftCardCents: 4000 });
    // A sale without a card writes no gift card fields at all.
    expect(saleCounterDelta({ ...sale, giftCardCents: 0, giftCards: 0, totalCents: 1250 })).toEqual({ counterSales: 1, counterSalesCents: 1250 });
  });

  it('store credit undoes book sales but is no money back; the day adds up', () => {
    expect(returnCounterDelta({ totalCents: 1799, refundMethod: 'store_credit' })).toEqual({ counterReturns: 1, counterStoreCreditCents: 1799 });
    expect(returnCounterDelta({ totalCents: 1799, refundMethod: 'cash' })).toEqual({ counterReturns: 1, counterRefundCents: 1799 });
    const shards = [
      saleTakings({ totalCents: 5250, giftCardCents: 4000, giftCards: 1, tenders: { cash: 5250 }, by }).numbers,
      returnTakings({ totalCents: 1250, refundMethod: 'store_credit' }).numbers,
      returnTakings({ totalCents: 500, refundMethod: 'cash' }).numbers,
    ];
    const day = summaryOf('2026-11-26', [...shards, undefined]);
    expect(day).toMatchObject({ count: 1, total: 52.5, giftCards: { count: 1, total: 40 }, returns: { count: 2, total: 5, storeCredit: 12.5 }, net: 47.5 });
  });
});

describe('gift cards and discount codes at the till (issue 57)', () => {
  it('a gift card paying part: each method counts its part, and the methods add up to the sales', () => {
    const tenders = saleTenders({ totalCents: 3000, payment: { method: 'cash', giftCard: { id: 'g', last4: 'ABCD', cents: 2000 } } });
    expect(tenders).toEqual({ gift_card: 2000, cash: 1000 });
    expect(saleTenders({ totalCents: 3000, payment: { method: 'gift_card', giftCard: { id: 'g', last4: 'ABCD', cents: 3000 } } })).toEqual({ gift_card: 3000 });
    expect(saleTenders({ totalCents: 3000, payment: { method: 'card_terminal' } })).toEqual({ card_terminal: 3000 });
    const day = summaryOf('2026-12-06', [
      saleTakings({ totalCents: 3000, giftCardCents: 0, giftCards: 0, tenders, by }).numbers,
      // A return of 15.00 of it: 15.00 back on the card first, nothing in cash.
      returnTakings({ totalCents: 1500, refundMethod: 'cash', giftCardBackCents: 1500 }).numbers,
    ]);
    expect(day.byMethod).toEqual({ cash: 10, card_terminal: 0, gift_card: 20 });
    expect(day.returns).toMatchObject({ count: 1, total: 15, byMethod: { cash: 0, card_terminal: 0, gift_card: 15 }, storeCredit: 0 });
    expect(day.net).toBe(15);
  });

  it('a discount is spread over the eligible lines to the cent, and a line returned in parts gives back exactly its share', () => {
    const book = (bookId: string, quantity: number, unitPriceCents: number) => ({ kind: 'book' as const, bookId, isbn: null, title: bookId, quantity, unitPriceCents });
    const lines = allocateDiscount([book('a', 3, 1000), book('b', 1, 999), book('c', 2, 500)], 1001, (l) => l.bookId !== 'c');
    expect(lines.map((l) => (l.kind === 'book' ? l.discountCents ?? 0 : 0))).toEqual([751, 250, 0]);
    const a = lines[0] as { quantity: number; discountCents?: number };
    expect([discountOfCopies(a, 0, 1), discountOfCopies(a, 1, 2)]).toEqual([251, 500]);
    expect(discountOfCopies(a, 0, 1) + discountOfCopies(a, 1, 2)).toBe(751);
  });
});

describe('the counter\'s gift card inputs', () => {
  it('makeGiftCardCode makes a valid code from 15 bytes, using each byte\'s low 5 bits', () => {
    const code = makeGiftCardCode(new Uint8Array(15).fill(255));
    expect(code.slice(0, 15)).toBe('Z'.repeat(15));
    expect(giftCardCodeIsValid(code)).toBe(true);
    expect(() => makeGiftCardCode(new Uint8Array(14))).toThrow();
  });

  it('a gift card line needs an amount of 0.01 to 1,000 and, when it names a code, a valid one; a return as store credit may leave the code to the server', () => {
    const code = makeGiftCardCode(new Uint8Array(15).map((_, i) => i * 7));
    const sale = (line: unknown) => SaleInputSchema.safeParse({ saleId: '6f1c2a9e-3b8d-4f7a-9c21-5e0d4b7a8c13', lines: [line], payment: { method: 'cash' } });
    expect(sale({ kind: 'gift_card', amount: '25.50', code }).data?.lines[0]).toEqual({ kind: 'gift_card', amount: 2550, code });
    for (const amount of [0, -1, 1000.01, 1e300, '2.001', null, 'ten']) expect(sale({ kind: 'gift_card', amount, code }).success, String(amount)).toBe(false);
    expect(sale({ kind: 'gift_card', amount: 10, code: `${code.slice(0, 15)}${code[15] === '0' ? '1' : '0'}` }).success).toBe(false);
    // A book line without a kind is a book, as before.
    expect(sale({ isbn: '0-306-40615-2', quantity: 1 }).success).toBe(true);
    const ret = (body: object) => SaleReturnInputSchema.safeParse({ lines: [{ isbn: '0-306-40615-2', quantity: 1 }], ...body });
    expect(ret({ refundMethod: 'store_credit', giftCardCode: code }).success).toBe(true);
    // Issue 55: without a code the server makes the card's (sales/gift-card-codes.ts).
    expect(ret({ refundMethod: 'store_credit' }).success).toBe(true);
    expect(ret({ refundMethod: 'cash', giftCardCode: code }).success).toBe(false);
  });
});
