import { ORDER_STATUSES, type OrderStatus } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import { monthlySales, orderCounts, placementDelta, recount, sumShards, transitionDelta, type CounterDelta } from './counters';
import { decodeCursor, encodeCursor } from '../lib/created-cursor';
import { mailId, orderMail } from '../orders/mail';

const order = { totalCents: 1999, createdAt: '2026-11-22T01:02:03.000Z' };

function apply(into: CounterDelta, delta: CounterDelta) {
  for (const [k, v] of Object.entries(delta)) into[k] = (into[k] ?? 0) + v;
}

describe('counter deltas', () => {
  it('counts a card order as collected when paid, not when delivered, and its refunds apart (issue 35)', () => {
    const card = { ...order, payment: { method: 'card' as const, paidCents: 1999, refunds: [{ id: 'r', amountCents: 500, status: 'succeeded' as const, source: 'desk' as const, reason: 'x', at: '', restock: [] }] } };
    expect(transitionDelta(card, 'shipped', 'delivered')).toEqual({ status_shipped: -1, status_delivered: 1 });
    expect(placementDelta({ ...card, status: 'delivered' })).toMatchObject({ collectedOrders: 1, collectedCents: 1999, refunds: 1, refundedCents: 500 });
    const flagged = { ...card, payment: { ...card.payment, problem: { code: 'AMOUNT_MISMATCH' as const, message: '', at: '' } } };
    expect(placementDelta({ ...flagged, status: 'pending' })).not.toHaveProperty('collectedCents');
  });

  it('keeps discounts and gift card payments apart from book revenue (issue 40): the figures still add up', () => {
    // Books 30.00, 3.00 off by a code, 4.90 shipping, tax included 1.77 (of which 0.32 on shipping); 10.00 paid by a gift card, 21.90 due.
    const charges = { shippingCents: 490, shippingTaxCents: 32, taxCents: 177, taxIncluded: true, discountCents: 300 };
    const placed = placementDelta({ ...order, totalCents: 2190, charges, giftCardCents: 1000, status: 'pending' });
    expect(placed).toMatchObject({ orders: 1, salesCents: 3190, giftCardCents: 1000, discountCents: 300, shippingCents: 458, taxCents: 177, m_202611_salesCents: 3190 });
    // The books' own revenue: sales - shipping - tax = the books at list price - the discount.
    expect(placed.salesCents! - placed.shippingCents! - placed.taxCents!).toBe(3000 - 300 - (177 - 32));
    // Cancelled: all of it leaves revenue, the discount and the card's part too.
    const cancelled = transitionDelta({ ...order, totalCents: 2190, charges, giftCardCents: 1000 }, 'pending', 'cancelled');
    expect(cancelled).toMatchObject({ salesCents: -3190, giftCardCents: -1000, discountCents: -300 });
    // A refund to the card counts as a refund, in the recount too.
    expect(placementDelta({ ...order, totalCents: 0, giftCardCents: 1999, giftCardRefundCents: [400], status: 'delivered' })).toMatchObject({ refunds: 1, refundedCents: 400, salesCents: 1999 });
  });

  it('counts a placement in its status, in revenue and in its month', () => {
    expect(placementDelta({ ...order, status: 'pending' })).toEqual({
      status_pending: 1, orders: 1, salesCents: 1999, m_202611_orders: 1, m_202611_salesCents: 1999,
    });
  });

  it('moves only the status for confirm/ship/deliver, and takes cancelled and refused out of revenue', () => {
    expect(transitionDelta(order, 'pending', 'confirmed')).toEqual({ status_pending: -1, status_confirmed: 1 });
    expect(transitionDelta(order, 'shipped', 'refused')).toEqual({
      status_shipped: -1, status_refused: 1, orders: -1, salesCents: -1999, m_202611_orders: -1, m_202611_salesCents: -1999,
    });
  });

  it('counts the cash collected when an order is delivered or collected in the shop (issue 29)', () => {
    expect(transitionDelta(order, 'shipped', 'delivered')).toEqual({ status_shipped: -1, status_delivered: 1, collectedOrders: 1, collectedCents: 1999 });
    expect(transitionDelta(order, 'ready_for_pickup', 'collected')).toEqual({ status_ready_for_pickup: -1, status_collected: 1, collectedOrders: 1, collectedCents: 1999 });
    expect(transitionDelta(order, 'ready_for_pickup', 'cancelled')).not.toHaveProperty('collectedCents');
  });

  it('after any walk through the lifecycle, placement plus transitions equal a recount', () => {
    const walks: OrderStatus[][] = [
      ['pending', 'confirmed', 'shipped', 'delivered'],
      ['pending', 'cancelled'],
      ['pending', 'confirmed', 'cancelled'],
      ['pending', 'confirmed', 'shipped', 'refused'],
      ['pending', 'confirmed', 'ready_for_pickup', 'collected'],
    ];
    const shards: CounterDelta[] = [{}, {}, {}];
    const final: { status: OrderStatus; totalCents: number; createdAt: string }[] = [];
    walks.forEach((walk, i) => {
      const o = { totalCents: 100 * (i + 1), createdAt: `2026-0${i + 1}-15T00:00:00.000Z` };
      apply(shards[i % 3]!, placementDelta({ ...o, status: 'pending' }));
      for (let s = 1; s < walk.length; s++) apply(shards[(i + s) % 3]!, transitionDelta(o, walk[s - 1]!, walk[s]!));
      final.push({ ...o, status: walk[walk.length - 1]! });
    });
    const summed = sumShards(shards);
    const expected = recount(final);
    for (const key of new Set([...Object.keys(summed), ...Object.keys(expected)])) expect(summed[key] ?? 0, key).toBe(expected[key] ?? 0);
    expect(orderCounts(summed)).toEqual({ all: 5, pending: 0, confirmed: 0, shipped: 0, delivered: 1, cancelled: 2, refused: 1, ready_for_pickup: 0, collected: 1 });
    expect([summed.collectedOrders, summed.collectedCents]).toEqual([2, 100 + 500]); // the delivered and the collected one
    expect(monthlySales(summed, ['2026-01', '2026-02'])).toEqual([
      { month: '2026-01', totalOrders: 1, totalSales: 1 },
      { month: '2026-02', totalOrders: 0, totalSales: 0 },
    ]);
    expect(ORDER_STATUSES).toHaveLength(8);
  });
});

describe('cursor', () => {
  it('round-trips and refuses anything else with 400', () => {
    const c = { createdAt: '2026-11-22T01:02:03.004Z', id: 'abc_DEF-1' };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
    for (const bad of ['', 'bm9wZQ', Buffer.from('["x","y"]').toString('base64url'), Buffer.from('["2026-11-22T01:02:03Z","a/b"]').toString('base64url')]) {
      expect(() => decodeCursor(bad)).toThrow('cursor is not valid');
    }
  });
});

describe('order mail', () => {
  it('has the Trigger Email shape, the cash due, and escapes what customers typed', () => {
    const m = orderMail('abcdef1234', { name: '<b>Riley</b>', email: 'r@example.com', totalCents: 2550, lines: [{ title: 'A & B', unitPriceCents: 2550 }] }, 'shipped', 'Gate <2>');
    expect(m.to).toBe('r@example.com');
    expect(m.message.subject).toBe('Your order is on its way (order ABCDEF12)');
    expect(m.message.text).toContain('Cash due on delivery: $25.50');
    expect(m.message.html).toContain('&lt;b&gt;Riley&lt;/b&gt;');
    expect(m.message.html).toContain('A &amp; B');
    expect(m.message.html).not.toContain('<2>');
    expect(orderMail('x', { name: 'R', email: 'r@e.co', totalCents: 100, lines: [] }, 'cancelled').message.text).toContain('Nothing is due');
    expect(mailId('abc', 'placed')).toBe('abc-placed');
  });
});
