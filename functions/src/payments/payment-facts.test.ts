import type { StoredPayment } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import { lineItems, sessionClock, sessionParams } from './checkout-session';
import { applyFact, refundStatusOf, type Fact } from './payment-facts';

const AT = '2026-11-25T12:00:00.000Z';
const awaiting = (over: Partial<StoredPayment> = {}): StoredPayment => ({ method: 'card', status: 'awaiting', amountCents: 3000, refundedCents: 0, refunds: [], sessionId: 'cs_1', ...over });
const paid: Fact = { kind: 'paid', sessionId: 'cs_1', amountCents: 3000, currency: 'usd', paymentIntentId: 'pi_1' };
const refund = (id: string, cents: number, status: 'pending' | 'succeeded' | 'failed' = 'succeeded', ourId?: string): Fact => ({ kind: 'refunds', refunds: [{ stripeRefundId: id, amountCents: cents, status, ...(ourId ? { ourId } : {}) }] });

/** Applies facts in turn, as the transaction would, collecting the effects. */
function run(facts: Fact[], orderStatus = 'pending') {
  let payment = awaiting();
  const effects = { paid: 0, cancel: 0, refunds: 0 };
  for (const fact of facts) {
    const out = applyFact(payment, orderStatus, fact, AT);
    payment = { ...out.payment, refunds: (out.payment.refunds ?? []).map((r) => out.refundEffects.find((e) => e.refund.id === r.id)?.refund ?? r) };
    effects.paid += Number(out.newlyPaid);
    effects.cancel += Number(out.cancel);
    effects.refunds += out.refundEffects.reduce((sum, e) => sum + e.sign * e.refund.amountCents, 0);
  }
  return { payment, effects };
}

describe('payment facts', () => {
  it('pays once, whatever the number of deliveries', () => {
    const { payment, effects } = run([paid, paid, paid]);
    expect(payment).toMatchObject({ status: 'paid', paidCents: 3000, paymentIntentId: 'pi_1' });
    expect(effects.paid).toBe(1);
  });

  it('gives the same payment for refunds before or after the payment, and counts each refund once', () => {
    const orders = [
      [paid, refund('re_1', 1000), refund('re_1', 1000)],
      [refund('re_1', 1000), paid, refund('re_1', 1000)],
      [refund('re_1', 1000), refund('re_1', 1000), paid],
    ];
    const results = orders.map((facts) => run(facts));
    for (const { payment, effects } of results) {
      expect(payment).toMatchObject({ status: 'partially_refunded', paidCents: 3000, refundedCents: 1000 });
      expect(payment.refunds).toHaveLength(1);
      expect(effects.refunds).toBe(1000);
      expect(effects.paid).toBe(1);
    }
  });

  it('does not let an expired event cancel a paid order, or one whose session was replaced', () => {
    expect(run([paid, { kind: 'expired', sessionId: 'cs_1' }]).effects.cancel).toBe(0);
    const replaced = applyFact(awaiting({ sessionId: 'cs_2', retiredSessions: ['cs_1'] }), 'pending', { kind: 'expired', sessionId: 'cs_1' }, AT);
    expect(replaced.cancel).toBe(false);
    const current = applyFact(awaiting(), 'pending', { kind: 'expired', sessionId: 'cs_1' }, AT);
    expect(current).toMatchObject({ cancel: true, payment: { status: 'expired', expired: true } });
  });

  it('flags an amount or currency that is not the order\'s, and a second payment, never accepting them silently', () => {
    const short = applyFact(awaiting(), 'pending', { ...paid, amountCents: 2999 }, AT);
    expect(short).toMatchObject({ newlyPaid: false, payment: { status: 'awaiting', paidCents: 2999, problem: { code: 'AMOUNT_MISMATCH' } } });
    const euros = applyFact(awaiting(), 'pending', { ...paid, currency: 'eur' }, AT);
    expect(euros.payment.problem?.code).toBe('AMOUNT_MISMATCH');
    const twice = applyFact(run([paid]).payment, 'pending', { ...paid, sessionId: 'cs_2', paymentIntentId: 'pi_2' }, AT);
    expect(twice).toMatchObject({ newlyPaid: false, payment: { status: 'paid', paymentIntentId: 'pi_1', problem: { code: 'PAID_TWICE' } } });
    const late = applyFact(awaiting(), 'cancelled', paid, AT);
    expect(late.payment.problem?.code).toBe('PAID_AFTER_CANCEL');
  });

  it('takes back a refund that failed at the bank, and never revives a final refund', () => {
    const { payment, effects } = run([paid, refund('re_1', 500, 'pending'), refund('re_1', 500, 'failed'), refund('re_1', 500, 'pending')]);
    expect(payment.refunds![0]!.status).toBe('failed');
    expect(payment).toMatchObject({ status: 'paid', refundedCents: 0 });
    expect(effects.refunds).toBe(0);
    expect(run([paid, refund('re_1', 3000)]).payment.status).toBe('refunded');
  });

  it('ends an order at its current session\'s end even when an older release retired that session too (issue 54: no order holds its stock for ever)', () => {
    const stuck = applyFact(awaiting({ sessionId: 'cs_1', retiredSessions: ['cs_1'] }), 'pending', { kind: 'expired', sessionId: 'cs_1' }, AT);
    expect(stuck.cancel).toBe(true);
  });

  it('asks for a full refund of a payment on a cancelled order, and flags a refund that failed at the bank for the desk', () => {
    const late = applyFact(awaiting(), 'cancelled', paid, AT);
    expect(late).toMatchObject({ newlyPaid: true, refundInFull: true, payment: { paidCents: 3000, problem: { code: 'PAID_AFTER_CANCEL', done: 'Refunding it in full automatically.' } } });
    const refunded = run([paid, refund('re_1', 500)]).payment;
    const failed = applyFact(refunded, 'pending', { kind: 'refunds', refunds: [{ stripeRefundId: 're_1', amountCents: 500, status: 'failed', failureReason: 'expired or canceled card' }] }, AT);
    expect(failed.refundEffects).toEqual([expect.objectContaining({ sign: -1 })]);
    expect(failed.payment).toMatchObject({ status: 'paid', refundedCents: 0, problem: { code: 'REFUND_FAILED', message: expect.stringContaining('expired or canceled card') } });
    expect(failed.payment.refunds![0]).toMatchObject({ status: 'failed', failureReason: 'expired or canceled card' });
  });

  it('keeps a dispute on the payment: open on the queue, closed settled, a lost one counted off once, events in any order', () => {
    const base = run([paid]).payment;
    const dispute = (status: string) => ({ kind: 'dispute' as const, dispute: { id: 'dp_1', status, amountCents: 3000, reason: 'fraudulent', evidenceDueBy: '2026-12-01T00:00:00.000Z' } });
    const opened = applyFact(base, 'pending', dispute('needs_response'), AT);
    expect(opened.payment).toMatchObject({ dispute: { id: 'dp_1', status: 'needs_response' }, problem: { code: 'DISPUTED', action: expect.stringContaining('2026-12-01') } });
    expect(opened.payment.problem!.resolvedAt).toBeUndefined();
    const lost = applyFact(opened.payment, 'pending', dispute('lost'), AT);
    expect(lost).toMatchObject({ disputeLostCents: 3000, payment: { dispute: { status: 'lost', lostCounted: true }, problem: { code: 'DISPUTED', resolvedAt: AT } } });
    expect(applyFact(lost.payment, 'pending', dispute('lost'), AT).disputeLostCents).toBeUndefined();
    expect(applyFact(lost.payment, 'pending', dispute('needs_response'), AT).payment).toBe(lost.payment); // a late 'created' does not reopen it
    const won = applyFact(opened.payment, 'pending', dispute('won'), AT);
    expect(won.disputeLostCents).toBeUndefined();
    expect(won.payment.problem).toMatchObject({ resolvedAt: AT, done: 'The money stays with the shop.' });
  });

  it('leaves the end of a session the shop closed for a cancel to that cancel, but only for a while', () => {
    const closing = awaiting({ closingForCancel: { sessionId: 'cs_1', at: AT } });
    const soon = applyFact(closing, 'pending', { kind: 'expired', sessionId: 'cs_1' }, new Date(Date.parse(AT) + 5_000).toISOString());
    expect(soon).toMatchObject({ cancel: false, payment: { expired: true }, note: 'closed for a cancel' });
    const late = applyFact(closing, 'pending', { kind: 'expired', sessionId: 'cs_1' }, new Date(Date.parse(AT) + 10 * 60_000).toISOString());
    expect(late.cancel).toBe(true);
  });

  it('maps Stripe refund statuses to ours', () => {
    expect(['succeeded', 'pending', 'requires_action', 'failed', 'canceled'].map(refundStatusOf)).toEqual(['succeeded', 'pending', 'pending', 'failed', 'failed']);
  });
});

describe('Checkout session parameters', () => {
  const order = {
    email: 'ann@example.com', totalCents: 2998 + 499 + 263,
    items: [{ bookId: 'a', title: 'Dune', unitPriceCents: 1499, coverImage: 'x' }, { bookId: 'b', title: 'Emma', unitPriceCents: 1499, coverImage: 'y' }],
    charges: { subtotalCents: 2998, shippingCents: 499, taxCents: 263, shippingTaxCents: 35, taxRateBp: 700, taxIncluded: false, taxLabel: 'Sales tax' },
  };

  it('charges the stored order line by line, shipping and added tax included, adding up to its total', () => {
    const lines = lineItems('order-1', order);
    expect(lines.map((l) => [l.price_data!.product_data!.name, l.price_data!.unit_amount])).toEqual([['Dune', 1499], ['Emma', 1499], ['Shipping', 499], ['Sales tax', 263]]);
  });

  it('falls back to one line for the whole order when the parts would not add up', () => {
    expect(lineItems('order-123456789', { ...order, totalCents: 9999 })).toEqual([{ quantity: 1, price_data: { currency: 'usd', unit_amount: 9999, product_data: { name: 'Order ORDER-12' } } }]);
  });

  it('names the order twice, takes cards only, lasts 30 minutes and returns to the order\'s page', () => {
    const now = Date.UTC(2026, 10, 25, 12);
    const params = sessionParams({ orderId: 'order-1', order, origin: 'https://shop.example', attempt: 2, now });
    expect(params).toMatchObject({
      mode: 'payment', allowed_payment_method_types: ['card'], client_reference_id: 'order-1', metadata: { orderId: 'order-1', attempt: '2' }, payment_intent_data: { metadata: { orderId: 'order-1' } },
      success_url: 'https://shop.example/orders/order-1?checkout=success', cancel_url: 'https://shop.example/orders/order-1?checkout=cancelled',
    });
    expect(params.expires_at! - now / 1000).toBe(31 * 60);
  });

  it('asks for the same expiry when the first session is asked for again within a minute of placing (the same key must carry the same parameters)', () => {
    const placed = { createdAt: '2026-11-25T12:00:00.000Z' };
    const at = (seconds: number) => Date.parse(placed.createdAt) + seconds * 1000;
    const ask = (clock: number) => sessionParams({ orderId: 'order-1', order, origin: 'https://shop.example', attempt: 1, now: sessionClock(placed, 1, clock) }).expires_at;
    expect(ask(at(0.2))).toBe(ask(at(59)));
    expect(ask(at(59))! - at(59) / 1000).toBeGreaterThanOrEqual(30 * 60); // still Stripe's 30 minutes
    // Later, or a new attempt (a new key): the clock.
    expect(sessionClock(placed, 1, at(61))).toBe(at(61));
    expect(sessionClock(placed, 2, at(5))).toBe(at(5));
  });
});

describe('a desk refund whose Stripe event comes before the desk records it', () => {
  it('is recorded under the desk\'s id, so the desk completes it instead of counting it again', () => {
    const { payment, effects } = run([paid, refund('re_9', 800, 'succeeded', 'desk-1')]);
    expect(payment.refunds).toMatchObject([{ id: 'desk-1', source: 'desk', stripeRefundId: 're_9', applied: true }]);
    expect(payment.refunds![0]!.requestHash).toBeUndefined();
    expect(effects.refunds).toBe(800);
  });
});
