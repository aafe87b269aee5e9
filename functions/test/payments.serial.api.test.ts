import { describe, expect, it } from 'vitest';
import { adminToken, db, http } from './helpers';
import { control, delivered, pay, placeCardOrder } from './stripe-helpers';

// Card payments in the shop's figures (issue 35): the counters are shop-wide, so this file runs
// alone (docs/testing.md); payments.api.test.ts checks the orders themselves beside other files.

const counters = async () => {
  const snaps = await db().collection('stats').get();
  const sum = (field: string) => snaps.docs.reduce((total, d) => total + ((d.data()[field] as number | undefined) ?? 0), 0);
  return { collectedCents: sum('collectedCents'), refundedCents: sum('refundedCents'), refunds: sum('refunds') };
};

describe('card payments in the shop figures', () => {
  it('a payment is collected once, though its completed event comes 10 more times (5 at once); each refund is counted once', async () => {
    const before = await counters();
    const order = await placeCardOrder(1, 3000);
    await pay(order);
    const [completed] = await delivered(order.sessionId);
    const { statuses } = await control<{ statuses: number[] }>(`events/${completed!.id}/redeliver`, { times: 10, concurrent: 5 });
    expect(statuses).toEqual(Array(10).fill(200));
    const paid = await counters();
    expect(paid.collectedCents - before.collectedCents).toBe(order.totalCents);

    const token = await adminToken();
    for (let i = 1; i <= 3; i++) {
      const res = await http(`/api/admin/orders/${order.id}/refunds`, {
        method: 'POST', token, headers: { 'Idempotency-Key': `figures-${order.id}-${i}` }, json: { amount: '10.00', reason: `Part ${i}`, restock: [] },
      });
      expect(res.status).toBe(201);
    }
    await delivered(order.sessionId); // Stripe's events for the three refunds, each recorded once
    const after = await counters();
    expect(after.refundedCents - paid.refundedCents).toBe(3000);
    expect(after.refunds - paid.refunds).toBe(3);
    expect(after.collectedCents).toBe(paid.collectedCents);
  });
});
