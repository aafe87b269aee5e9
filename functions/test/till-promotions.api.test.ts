import { randomUUID } from 'node:crypto';
import { normaliseGiftCardCode, shopDay } from '@bookstore/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giftCardId } from '../src/promotions/gift-cards.repo';
import { adminToken, db, expectUnchangedIn, http, makeBooks, newCustomer, removeBooks, stockOf, validOrder, type TestBook, staffToken } from './helpers';
import { sdk } from './stripe-helpers';

// Issue 57: gift cards and discount codes at the till, over HTTP through Hosting to the function on
// the real emulators (and our Stripe stand-in for the card reader). A gift card pays first, up to
// its balance, in the sale's transaction; a discount code is counted there on the web's own rules,
// so a one-use code used at the till is refused online after. This file's bookseller sells at a
// till of its own, so its shift and its gift_card takings are its own (other files never pay by gift card).

const PASSWORD = 'codes-at-the-counter-9';
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const TILL = `promo-${RUN}`;
const NAME = `Till Codes ${RUN}`;
let seq = 0;
const codeName = (prefix: string) => `${prefix}-${RUN}-${(seq += 1)}`.toUpperCase();

const made: TestBook[] = [];
afterAll(async () => removeBooks(made));
async function books(count: number, stock: number, priceCents = 1250) {
  const list = await makeBooks(count, stock, priceCents);
  made.push(...list);
  return list;
}

let owner: string;
let bookseller: string;
beforeAll(async () => {
  owner = await adminToken();
  const username = `till-codes-${RUN}`;
  bookseller = await staffToken(owner, { username, displayName: NAME, role: 'bookseller', password: PASSWORD });
});

const sell = (json: Record<string, unknown>) => http('/api/admin/sales', { method: 'POST', token: bookseller, json });
const saleOf = (lines: { _id: string; quantity?: number }[], payment: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  saleId: randomUUID(), tillId: TILL, soldAt: new Date().toISOString(), lines: lines.map((b) => ({ bookId: b._id, quantity: b.quantity ?? 1 })), payment, ...extra,
});
async function newCard(amount: string): Promise<{ code: string; id: string }> {
  const res = await http('/api/admin/gift-cards', { method: 'POST', token: owner, json: { amount } });
  expect(res.status).toBe(201);
  return res.body;
}
const cardRef = (code: string) => db().collection('giftCards').doc(giftCardId(normaliseGiftCardCode(code)));
const balanceCents = async (code: string) => (await cardRef(code).get()).data()!.balanceCents as number;
const ledgerOf = async (id: string) => (await http(`/api/admin/gift-cards/${id}?limit=100`, { token: owner })).body.ledger as { kind: string; amount: number; saleId?: string }[];
const newDiscount = async (json: Record<string, unknown>) => {
  const res = await http('/api/admin/discounts', { method: 'POST', token: owner, json });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.discount.code as string;
};
const discountDoc = async (code: string) => (await db().collection('discounts').doc(code).get()).data()!;
const summary = async () => (await http(`/api/admin/sales/summary?date=${shopDay(new Date())}`, { token: owner })).body;
const cents = (dollars: number) => Math.round(dollars * 100);

describe('a gift card at the till', () => {
  it('pays part of a cash sale: the card first (to 0, never below), the cash the rest with its change; the takings and the shift count each part, and the drawer equals a recount', async () => {
    const opened = await http('/api/admin/shifts', { method: 'POST', token: bookseller, json: { tillId: TILL, float: '100.00' } });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const [book] = await books(1, 5, 1250);
    const card = await newCard('20.00');
    const before = await summary();

    const res = await sell(saleOf([{ _id: book!._id, quantity: 2 }], { method: 'cash', tendered: '10.00', giftCardCode: card.code.toLowerCase() }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.sale).toMatchObject({ total: 25, due: 5, change: 5, payment: { method: 'cash', tendered: 10, giftCard: { id: card.id, amount: 20 } } });
    expect(await balanceCents(card.code)).toBe(0);
    expect(await stockOf(book!._id)).toBe(3);
    expect((await ledgerOf(card.id)).find((l) => l.kind === 'spent')).toMatchObject({ amount: -20, saleId: res.body.sale._id });

    const after = await summary();
    expect(cents(after.byMethod.gift_card) - cents(before.byMethod.gift_card)).toBe(2000);
    expect(after.byStaff.find((s: { name: string }) => s.name === NAME)).toMatchObject({ count: 1, total: 25 });

    // The drawer holds the float and the 5.00 of cash only: counted so, no variance.
    const closed = await http(`/api/admin/shifts/${opened.body.shift._id}/close`, { method: 'POST', token: bookseller, json: { counted: '105.00' } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.shift).toMatchObject({ counted: 105, variance: 0, figures: { expected: 105 } });
    expect(closed.body.shift.figures.sales.byMethod).toMatchObject({ cash: 5, gift_card: 20 });

    // The same card again, now empty: refused, nothing sold.
    const empty = await sell(saleOf([book!], { method: 'cash', giftCardCode: card.code }));
    expect(empty.status).toBe(422);
    expect(empty.body.code).toBe('GIFT_CARD_EMPTY');
    expect(await stockOf(book!._id)).toBe(3);
  });

  it('pays a whole sale alone; a card holding less than the total is refused with 422 naming it, and nothing changes', async () => {
    const [book] = await books(1, 4, 1800);
    const card = await newCard('30.00');
    const refused = await expectUnchangedIn([cardRef(card.code), db().collection('books').doc(book!._id), db().collection('sales').where('tillId', '==', TILL)], async () => {
      const res = await sell(saleOf([{ _id: book!._id, quantity: 2 }], { method: 'gift_card', giftCardCode: card.code }));
      expect(res.status).toBe(422);
      return res.body;
    });
    expect(refused).toMatchObject({ code: 'GIFT_CARD_TOO_LOW', balance: 30, total: 36 });
    expect(refused.message).toMatch(/gift card/i);

    const paid = await sell(saleOf([book!], { method: 'gift_card', giftCardCode: card.code }));
    expect(paid.status).toBe(201);
    expect(paid.body.sale).toMatchObject({ total: 18, due: 0, payment: { method: 'gift_card', giftCard: { amount: 18 } } });
    expect(await balanceCents(card.code)).toBe(1200);

    // A return of it goes back on the card, never out as money.
    const back = await http(`/api/admin/sales/${paid.body.sale._id}/returns`, { method: 'POST', token: bookseller, json: { returnId: randomUUID(), tillId: TILL, lines: [{ bookId: book!._id, quantity: 1 }], refundMethod: 'cash' } });
    expect(back.status, JSON.stringify(back.body)).toBe(201);
    expect(back.body.return).toMatchObject({ total: 18, giftCardBack: { id: card.id, amount: 18 } });
    expect(await balanceCents(card.code)).toBe(3000);
  });

  it('cannot pay for gift cards (422), and a card-reader sale it pays in full is refused: pay by gift card', async () => {
    const [book] = await books(1, 2, 1000);
    const card = await newCard('50.00');
    const forCards = await sell({ saleId: randomUUID(), tillId: TILL, lines: [{ kind: 'gift_card', amount: '25.00' }], payment: { method: 'cash', giftCardCode: card.code } });
    expect(forCards.status).toBe(422);
    expect(forCards.body.code).toBe('GIFT_CARD_FOR_GIFT_CARD');
    const reader = await http('/api/admin/readers', { method: 'POST', token: owner, json: { registrationCode: 'simulated-wpe', label: `Codes ${RUN}`, tillId: TILL } });
    expect(reader.status).toBe(201);
    const nothingDue = await sell(saleOf([book!], { method: 'card_terminal', readerId: reader.body.reader._id, giftCardCode: card.code }));
    expect(nothingDue.status).toBe(422);
    expect(nothingDue.body.code).toBe('NOTHING_DUE');
    expect(await balanceCents(card.code)).toBe(5000);
    expect(await stockOf(book!._id)).toBe(2);
  });
});

describe('a discount code at the till', () => {
  it('a one-use code used at the till is refused online after; the discount comes off the books, and a return gives back the copies\' price less their share', async () => {
    const [book, other] = await books(2, 5, 2000);
    const code = await newDiscount({ code: codeName('TILL'), percentOff: 10, maxRedemptions: 1 });
    const res = await sell(saleOf([{ _id: book!._id, quantity: 3 }, other!], { method: 'cash' }, { discountCode: code.toLowerCase() }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // 3 x 20.00 and 1 x 21.01 (makeBooks steps its prices by 1.01): 81.01 of books, 10% off: 8.10,
    // spread over the lines as charged: 5.9993 and 2.1007, rounded down, the odd cent to the first.
    expect([book!.newPrice, other!.newPrice]).toEqual([20, 21.01]);
    expect(res.body.sale).toMatchObject({ total: 72.91, discount: { code, amount: 8.1 } });
    expect(res.body.sale.lines.map((l: { discount?: number }) => l.discount)).toEqual([6, 2.1]);
    expect((await discountDoc(code)).redemptions).toBe(1);

    const customer = await newCustomer('till-code');
    const online = await http('/api/orders', { method: 'POST', token: customer.token, json: { ...validOrder(customer.email, [book!]), totalPrice: '18.00', discountCode: code } });
    expect(online.status).toBe(409);
    expect(online.body.code).toBe('DISCOUNT_EXHAUSTED');
    expect((await db().collection('orders').where('uid', '==', customer.uid).get()).size).toBe(0);

    // One of the three copies back: 20.00 less its 2.00 share of the line's 6.00.
    const ret = await http(`/api/admin/sales/${res.body.sale._id}/returns`, { method: 'POST', token: bookseller, json: { returnId: randomUUID(), tillId: TILL, lines: [{ bookId: book!._id, quantity: 1 }], refundMethod: 'cash' } });
    expect(ret.status, JSON.stringify(ret.body)).toBe(201);
    expect(ret.body.return.total).toBe(18);
  });

  it('a code once per customer is refused at the till (it cannot tell the customer), and an unknown code is 404; nothing is sold', async () => {
    const [book] = await books(1, 3, 1500);
    const once = await newDiscount({ code: codeName('ONCE'), amountOff: '2.00', oncePerCustomer: true });
    for (const [discountCode, status, errorCode] of [[once, 422, 'DISCOUNT_NEEDS_CUSTOMER'], [codeName('NOSUCH'), 404, 'DISCOUNT_UNKNOWN']] as const) {
      const res = await sell(saleOf([book!], { method: 'cash' }, { discountCode }));
      expect(res.status).toBe(status);
      expect(res.body.code).toBe(errorCode);
    }
    expect(await stockOf(book!._id)).toBe(3);
    expect((await discountDoc(once)).redemptions).toBe(0);
  });
});

describe('a card-reader sale with a gift card and a code', () => {
  it('the reader is asked for what the card leaves; declined, the card and the code are given back', async () => {
    const [book] = await books(1, 3, 3000);
    const card = await newCard('10.00');
    const code = await newDiscount({ code: codeName('READER'), amountOff: '5.00', maxRedemptions: 10 });
    const reader = await http('/api/admin/readers', { method: 'POST', token: owner, json: { registrationCode: 'simulated-wpe', label: `Declines ${RUN}`, tillId: TILL } });
    expect(reader.status).toBe(201);
    const res = await sell(saleOf([book!], { method: 'card_terminal', readerId: reader.body.reader._id, giftCardCode: card.code }, { discountCode: code }));
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const saleId = res.body.sale._id;
    expect(res.body.sale).toMatchObject({ status: 'awaiting_payment', total: 25, due: 15 });
    expect(await balanceCents(card.code)).toBe(0);
    expect((await discountDoc(code)).redemptions).toBe(1);

    const intentId = (await db().collection('sales').doc(saleId).get()).data()!.terminal.paymentIntentId as string;
    expect((await sdk().paymentIntents.retrieve(intentId)).amount).toBe(1500);
    await sdk().testHelpers.terminal.readers.presentPaymentMethod(reader.body.reader.stripeReaderId, { card_present: { number: '4000000000000002' } });
    for (let i = 0; i < 300; i++) {
      if ((await db().collection('sales').doc(saleId).get()).data()!.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await db().collection('sales').doc(saleId).get()).data()!.status).toBe('failed');
    expect(await balanceCents(card.code)).toBe(1000);
    expect((await discountDoc(code)).redemptions).toBe(0);
    expect(await stockOf(book!._id)).toBe(3);
  });
});
