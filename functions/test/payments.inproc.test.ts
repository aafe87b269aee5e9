import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { releaseHoldsJob } from '../src/orders/release-holds';
import { sessionIdempotencyKey, sessionParams } from '../src/payments/checkout-session';
import { siteOrigin } from '../src/pages/site-origin';
import { adminToken, db, expectUnchanged, http, makeBooks, newCustomer, stockOf, validOrder } from './helpers';
import { control, eventOf, mailsOf, placeCardOrder, postEvent, sdk, stored, until } from './stripe-helpers';

// Card payments in-process (functions-framework, the production runtime, in this process): the
// webhook's signature checked on the raw bytes functions-framework keeps; the hourly job that
// cancels an unpaid order whose expired event never came; card payments switched off.

const HOURS = 60 * 60 * 1000;
const saved = { key: process.env.STRIPE_SECRET_KEY, secret: process.env.STRIPE_WEBHOOK_SECRET, base: process.env.STRIPE_API_BASE };

const restore = (name: string, value: string | undefined) => (value === undefined ? delete process.env[name] : (process.env[name] = value));
afterEach(() => {
  restore('STRIPE_SECRET_KEY', saved.key);
  restore('STRIPE_WEBHOOK_SECRET', saved.secret);
  restore('STRIPE_API_BASE', saved.base);
});

/** A port nothing listens on: Stripe, unreachable. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

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

  it('refunds a cancelled paid pre-order whose refund Stripe did not make at the cancel, once, in the hourly job', async () => {
    const fields = { title: `Retry refund ${Date.now()}`, description: 'Not out yet.', category: 'Fiction', trending: false, oldPrice: 20, newPrice: 15, coverImage: 'book-2', stock: 0, publishedOn: `${new Date().getUTCFullYear() + 1}-06-15` };
    const book = (await http('/api/books/create-book', { method: 'POST', token: await adminToken(), json: fields })).body.book;
    const customer = await newCustomer('refund-retry');
    const placed = await http('/api/orders', {
      method: 'POST', token: customer.token, headers: { 'Idempotency-Key': `refund-retry-${Date.now()}` },
      json: { ...validOrder(customer.email, [book]), payment: { method: 'card' } },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const id = placed.body._id as string;
    const sessionId = placed.body.payment.sessionId as string;
    await control(`sessions/${sessionId}/pay`, { notify: false });
    expect((await postEvent(eventOf('checkout.session.completed', await sdk().checkout.sessions.retrieve(sessionId)))).status).toBe(200);
    const intent = (await stored(id)).payment.paymentIntentId as string;

    // Stripe does not answer the cancel's refund: the order is cancelled, its refund owed.
    process.env.STRIPE_API_BASE = `http://127.0.0.1:${await closedPort()}`;
    const cancelled = await http(`/api/orders/${id}/cancel`, { method: 'POST', token: customer.token });
    expect(cancelled.status).toBe(200);
    restore('STRIPE_API_BASE', saved.base);
    const owed = await stored(id);
    expect(owed).toMatchObject({ status: 'cancelled', refundDue: { cents: 1500 }, payment: { status: 'paid' } });
    expect(owed.refundRetryAt).toBeDefined();
    expect((await sdk().refunds.list({ payment_intent: intent })).data).toEqual([]);

    // Not yet (the cancel's own try has just had its turn); then two runs at once and a third.
    expect((await releaseHoldsJob()).refunds.refunded).not.toContain(id);
    const later = new Date(Date.now() + 2 * HOURS);
    const runs = await Promise.all([releaseHoldsJob(later), releaseHoldsJob(later)]);
    expect(runs.some((r) => r.refunds.refunded.includes(id))).toBe(true);
    expect((await releaseHoldsJob(later)).refunds.refunded).not.toContain(id);
    expect((await sdk().refunds.list({ payment_intent: intent })).data.map((r) => r.amount)).toEqual([1500]);
    const doc = await stored(id);
    expect(doc.payment).toMatchObject({ status: 'refunded', refundedCents: 1500 });
    expect(doc.payment.refunds).toHaveLength(1);
    expect(doc.refundRetryAt).toBeUndefined();
  });

  it('a checkout sent again minutes after Stripe opened its first session (the answer lost) gets a second session, not 502', async () => {
    const books = await makeBooks(1, 5, 2500);
    const customer = await newCustomer('lost-session');
    const send = () => http('/api/orders', {
      method: 'POST', token: customer.token, headers: { 'Idempotency-Key': `lost-session-${customer.uid}` },
      json: { ...validOrder(customer.email, books), payment: { method: 'card' } },
    });
    // Stripe unreachable: the order is stored, awaiting its first session.
    process.env.STRIPE_API_BASE = `http://127.0.0.1:${await closedPort()}`;
    expect((await send()).status).toBe(502);
    restore('STRIPE_API_BASE', saved.base);
    const [placed] = (await db().collection('orders').where('uid', '==', customer.uid).get()).docs;
    const id = placed!.id;
    // As if that request had reached Stripe two minutes ago and only its answer was lost: the order
    // is two minutes old, and Stripe holds the first attempt's key with that request's parameters
    // (another expiry than a retry's now; one Stripe still accepts today, 30 minutes at least).
    await placed!.ref.update({ createdAt: new Date(Date.parse(placed!.data().createdAt) - 120_000).toISOString() });
    const lost = await sdk().checkout.sessions.create(
      sessionParams({ orderId: id, order: placed!.data() as never, origin: siteOrigin(), attempt: 1, now: Date.now() + 5 * 60_000 }),
      { idempotencyKey: sessionIdempotencyKey(id, 1) },
    );

    const again = await send();
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body._id).toBe(id);
    expect(again.body.checkoutUrl).toMatch(/^http/);
    const doc = await stored(id);
    expect(doc.payment).toMatchObject({ status: 'awaiting', attempts: 2 });
    expect(doc.payment.sessionId).not.toBe(lost.id);
    expect(again.body.checkoutUrl).toBe(doc.payment.checkoutUrl);
    // Sent once more: the same session.
    expect((await send()).body.checkoutUrl).toBe(doc.payment.checkoutUrl);
    expect((await stored(id)).payment.attempts).toBe(2);
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
