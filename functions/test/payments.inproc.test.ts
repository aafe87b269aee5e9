import { afterEach, describe, expect, it } from 'vitest';
import { releaseHoldsJob } from '../src/orders/release-holds';
import { expectUnchanged, http, makeBooks, newCustomer, stockOf, validOrder } from './helpers';
import { control, eventOf, mailsOf, placeCardOrder, postEvent, sdk, stored, until } from './stripe-helpers';

// Card payments in-process (functions-framework, the production runtime, in this process): the
// webhook's signature checked on the raw bytes functions-framework keeps; the hourly job that
// cancels an unpaid order whose expired event never came; card payments switched off.

const HOURS = 60 * 60 * 1000;
const saved = { key: process.env.STRIPE_SECRET_KEY, secret: process.env.STRIPE_WEBHOOK_SECRET };

afterEach(() => {
  process.env.STRIPE_SECRET_KEY = saved.key;
  process.env.STRIPE_WEBHOOK_SECRET = saved.secret;
});

describe('card payments in-process', () => {
  it('verifies the signature on the raw bytes functions-framework keeps', async () => {
    const order = await placeCardOrder();
    await control(`sessions/${order.sessionId}/pay`, { notify: false }); // the stand-in's own delivery goes to the emulator: not here
    const session = await sdk().checkout.sessions.retrieve(order.sessionId);
    const event = eventOf('checkout.session.completed', session);
    const reformatted = await postEvent(event, undefined, (payload) => JSON.stringify(JSON.parse(payload), null, 1));
    expect(reformatted.status).toBe(400);
    const ok = await postEvent(event);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ received: true, result: 'applied' });
    expect((await stored(order.id)).payment.status).toBe('paid');
  });

  it('cancels an unpaid order whose expired event never arrived, once, after asking Stripe', async () => {
    const order = await placeCardOrder();
    await control(`sessions/${order.sessionId}/expire`, { notify: false });
    // Not due yet: nothing happens.
    expect((await releaseHoldsJob()).unpaid.cancelled).not.toContain(order.id);
    const later = new Date(Date.now() + 2 * HOURS);
    const [first, second] = await Promise.all([releaseHoldsJob(later), releaseHoldsJob(later)]);
    const third = await releaseHoldsJob(later);
    expect([...first.unpaid.cancelled, ...second.unpaid.cancelled].filter((id) => id === order.id)).toEqual([order.id]);
    expect(third.unpaid.cancelled).not.toContain(order.id);
    const doc = await stored(order.id);
    expect(doc.status).toBe('cancelled');
    expect(doc.payment.status).toBe('expired');
    expect(await stockOf(order.books[0]!._id)).toBe(5);
    expect(await mailsOf(order.id)).toEqual([`${order.id}-cancelled`]);
  });

  it('records a payment whose completed event was lost, instead of cancelling the order', async () => {
    const order = await placeCardOrder();
    await control(`sessions/${order.sessionId}/pay`, { notify: false });
    const report = await releaseHoldsJob(new Date(Date.now() + 2 * HOURS));
    expect(report.unpaid.paid).toContain(order.id);
    const doc = await stored(order.id);
    expect(doc.status).toBe('pending');
    expect(doc.payment.status).toBe('paid');
    expect(await stockOf(order.books[0]!._id)).toBe(4);
    expect(await mailsOf(order.id)).toEqual([`${order.id}-paid`]);
  });

  it('waits for a session still open at Stripe (clocks differ)', async () => {
    const order = await placeCardOrder();
    const report = await releaseHoldsJob(new Date(Date.now() + 2 * HOURS));
    expect(report.unpaid.waiting).toContain(order.id);
    expect((await stored(order.id)).status).toBe('pending');
    // Tidy: the session expires and its event comes here (the stand-in's own delivery goes to the
    // emulator's webhook, which serves the shop's database, not this lane's), which cancels the order.
    await control(`sessions/${order.sessionId}/expire`, { notify: false });
    const expired = await postEvent(eventOf('checkout.session.expired', await sdk().checkout.sessions.retrieve(order.sessionId)));
    expect(expired.status).toBe(200);
    await until(order.id, (d) => d.status === 'cancelled', 'cancelled by the expired event');
  });

  it('offers cash only, and refuses a card order with nothing stored, when the Stripe secrets are off', async () => {
    process.env.STRIPE_SECRET_KEY = 'off';
    process.env.STRIPE_WEBHOOK_SECRET = 'off';
    expect((await http('/api/checkout/payment-methods')).body).toEqual({ methods: ['cash'] });
    const books = await makeBooks(1, 2, 1500);
    const customer = await newCustomer('cardoff');
    await expectUnchanged(async () => {
      const res = await http('/api/orders', { method: 'POST', token: customer.token, json: { ...validOrder(customer.email, books), payment: { method: 'card' } } });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('CARD_PAYMENTS_OFF');
    });
    const cash = await http('/api/orders', { method: 'POST', token: customer.token, json: { ...validOrder(customer.email, books), payment: { method: 'cash' } } });
    expect(cash.status).toBe(201);
    expect(cash.body.payment.status).toBe('due');
    expect(cash.body.checkoutUrl).toBeUndefined();
    expect((await postEvent(eventOf('checkout.session.completed', {}))).status).toBe(404);
  });
});
