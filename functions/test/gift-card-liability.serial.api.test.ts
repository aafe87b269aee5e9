import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, db, http, makeBooks, newCustomer, removeBooks, validOrder, type TestBook } from './helpers';

// Issue 55: the overview's gift-card liability (issued minus spent minus voided) comes from the
// shop's counters, moved with every balance; here it must move as a recount of every card's balance
// does, through issuing, spending, a cancel that gives back, a void, and a give-back to a voided card.
// Compared as changes from the start: migrate.serial.api.test.ts rebuilds the counters from the
// orders alone. Serial: the figure is shop-wide, and other files issue and spend cards.

const liability = async () => {
  const res = await http('/api/admin', { token: await adminToken() });
  expect(res.status).toBe(200);
  return Math.round((res.body.promotions.giftCardLiability as number) * 100);
};
const recount = async () => (await db().collection('giftCards').get()).docs.reduce((sum, d) => sum + (d.get('balanceCents') as number), 0);
const issue = async (amount: number) => {
  const res = await http('/api/admin/gift-cards', { method: 'POST', token: await adminToken(), json: { amount } });
  expect(res.status).toBe(201);
  return res.body as { code: string; id: string };
};
const voidCard = async (id: string) => http(`/api/admin/gift-cards/${id}/void`, { method: 'POST', token: await adminToken() });

const books: TestBook[] = [];
beforeAll(async () => {
  books.push(...(await makeBooks(2, 5, 2000))); // 20.00, 20.01
});
afterAll(async () => {
  await removeBooks(books);
});

describe('the gift-card liability on the overview (issue 55)', () => {
  it('moves with each issue, spend, give-back and void, and always equals the sum of the cards\' balances', async () => {
    const start = await liability();
    const counted = await recount();
    const recounted = async () => start + (await recount()) - counted; // what the figure should read

    const spent = await issue(30);
    const voided = await issue(12.5);
    expect(await liability()).toBe(start + 4250);

    // An order spends 20.00 of the first card.
    const shopper = await newCustomer('liability');
    const order = await http('/api/orders', { method: 'POST', token: shopper.token, json: { ...validOrder(shopper.email, [books[0]!]), totalPrice: '0.00', giftCardCode: spent.code } });
    expect(order.status).toBe(201);
    expect(await liability()).toBe(start + 2250);

    // Voiding the second card takes its 12.50 off.
    expect((await voidCard(voided.id)).status).toBe(200);
    expect(await liability()).toBe(start + 1000);
    expect(await liability()).toBe(await recounted());

    // The first card is voided with 10.00 left, then its order is cancelled: the 20.00 it paid is
    // given back and voided at once (a void is never undone by a refund); the liability stays.
    expect((await voidCard(spent.id)).status).toBe(200);
    expect(await liability()).toBe(start);
    const cancelled = await http(`/api/orders/${order.body._id}/cancel`, { method: 'POST', token: shopper.token });
    expect(cancelled.status).toBe(200);
    expect((await db().collection('giftCards').doc(spent.id).get()).get('balanceCents')).toBe(0);
    const ledger = (await http(`/api/admin/gift-cards/${spent.id}?limit=100`, { token: await adminToken() })).body.ledger as { kind: string; amount: number; balanceAfter: number }[];
    expect(ledger.map((l) => [l.kind, l.amount, l.balanceAfter])).toEqual([['voided', -20, 0], ['returned', 20, 20], ['voided', -10, 0], ['spent', -20, 10], ['issued', 30, 30]]);
    expect(await liability()).toBe(start);
    expect(await liability()).toBe(await recounted());
  });
});
