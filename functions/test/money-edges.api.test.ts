import { describe, expect, it } from 'vitest';
import { adminToken, db, expectUnchangedIn, http, makeBooks, newCustomer, stockOf, validOrder } from './helpers';
import { control, mailsOf, pay, placeCardOrder, sdk, stored, until, type CardOrder } from './stripe-helpers';

// Issue 54: money exact at the edges, over HTTP through Hosting to the real function on the
// Firestore emulator, with our Stripe stand-in (its disputes, failed and refused refunds, and
// fail-next switch) delivering signed events to the webhook as Stripe does.

const admin = async (path: string, json?: unknown, headers: Record<string, string> = {}) =>
  http(path, { method: json === undefined ? 'GET' : 'POST', token: await adminToken(), headers, ...(json === undefined ? {} : { json }) });
const refund = (orderId: string, key: string, json: unknown) => admin(`/api/admin/orders/${orderId}/refunds`, json, { 'Idempotency-Key': key });
const setStatus = (orderId: string, status: string) => admin(`/api/admin/orders/${orderId}/status`, { status });
const intentOf = async (order: CardOrder) => (await sdk().checkout.sessions.retrieve(order.sessionId)).payment_intent as string;
const stripeRefundsOf = async (paymentIntent: string) => (await sdk().refunds.list({ payment_intent: paymentIntent, limit: 100 })).data;
/** `until` with room for a refund's round trip through Stripe and back (events are asynchronous); bounded by the test's own limit. */
async function settled(id: string, ok: (doc: any) => boolean, what: string): Promise<any> {
  for (let i = 0; i < 450; i++) {
    const doc = await stored(id);
    if (ok(doc)) return doc;
    await new Promise((r) => setTimeout(r, 100));
  }
  return until(id, ok, what);
}
const KEY = () => `edge-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** What a refused request could have written: the order, its books, its mails. */
const scopeOf = (order: CardOrder) => [db().collection('orders').doc(order.id), ...order.books.map((b) => db().collection('books').doc(b._id))];

describe('every cancel closes its payment', { timeout: 120_000 }, () => {
  it('the desk cancels an unpaid card order: its Checkout session is expired at Stripe, so the page cannot be paid; cards only were offered', async () => {
    const order = await placeCardOrder();
    const session = await sdk().checkout.sessions.retrieve(order.sessionId);
    expect(session.allowed_payment_method_types).toEqual(['card']);
    expect((await setStatus(order.id, 'cancelled')).status).toBe(200);
    expect((await sdk().checkout.sessions.retrieve(order.sessionId)).status).toBe('expired');
    expect(await stockOf(order.books[0]!._id)).toBe(5);
    const stillPayable = await fetch(`${process.env.STRIPE_API_BASE}/_fake/sessions/${order.sessionId}/pay`, { method: 'POST', body: JSON.stringify({ card: '4242424242424242' }) });
    expect(stillPayable.ok).toBe(false);
    expect((await stored(order.id)).payment.paidCents ?? 0).toBe(0);
  });

  it('a payment that still lands on a cancelled order (Stripe was down at the cancel) is refunded in full once, mailed and recorded', async () => {
    const order = await placeCardOrder();
    const rule = await control<{ id: string }>('fail-next', { path: `/v1/checkout/sessions/${order.sessionId}/expire`, count: 3 });
    expect((await setStatus(order.id, 'cancelled')).status).toBe(200); // the cancel goes on
    await fetch(`${process.env.STRIPE_API_BASE}/_fake/fail-next/${rule.id}`, { method: 'DELETE' });
    expect((await sdk().checkout.sessions.retrieve(order.sessionId)).status).toBe('open');
    await control(`sessions/${order.sessionId}/pay`, { card: '4242424242424242' });
    const refunded = await settled(order.id, (d) => d.payment?.status === 'refunded' && !!d.payment.problem?.resolvedAt, 'refunded after cancel');
    expect(refunded.status).toBe('cancelled');
    expect(refunded.payment).toMatchObject({ paidCents: order.totalCents, refundedCents: order.totalCents });
    expect(refunded.payment.refunds).toHaveLength(1);
    expect(refunded.payment.problem).toMatchObject({ code: 'PAID_AFTER_CANCEL', resolvedAt: expect.any(String), done: expect.stringContaining('automatically') });
    expect(refunded.problemOpenAt).toBeUndefined();
    const pi = await intentOf(order);
    expect((await stripeRefundsOf(pi)).map((r) => r.amount)).toEqual([order.totalCents]);
    expect((await mailsOf(order.id)).filter((m) => m.includes('-refund-'))).toHaveLength(1);
    // Stripe sends the payment's events again, three at once: still one refund.
    const events = await control<{ id: string; type: string }[]>(`events?session=${order.sessionId}`);
    const completed = events.find((e) => e.type === 'checkout.session.completed')!;
    await control(`events/${completed.id}/redeliver`, { times: 3, concurrent: 3 });
    expect((await stripeRefundsOf(pi))).toHaveLength(1);
    expect((await stored(order.id)).payment.refunds).toHaveLength(1);
  });
});

describe('refunds are one outcome', () => {
  it('a refund whose money part Stripe refuses leaves the gift card, the stock and the order untouched; sent again it makes both parts, mailed once', async () => {
    const [book] = await makeBooks(1, 5, 3000);
    const card = await admin('/api/admin/gift-cards', { amount: 10 });
    expect(card.status).toBe(201);
    const customer = await newCustomer('edge-gift');
    const placed = await http('/api/orders', {
      method: 'POST', token: customer.token, headers: { 'Idempotency-Key': KEY() },
      json: { ...validOrder(customer.email, [book!]), totalPrice: 20, giftCardCode: card.body.code, payment: { method: 'card' } },
    });
    expect(placed.status).toBe(201);
    const order: CardOrder = { id: placed.body._id, sessionId: placed.body.payment.sessionId, checkoutUrl: placed.body.checkoutUrl, books: [book!], token: customer.token, totalCents: 2000 };
    await pay(order);
    const pi = await intentOf(order);
    const balance = async () => (await db().collection('giftCards').doc(card.body.id).get()).get('balanceCents');
    expect(await balance()).toBe(0);
    await control('refunds/refuse-next', { payment_intent: pi });
    const key = KEY();
    const body = { amount: 30, reason: 'Never arrived', restock: [{ bookId: book!._id, quantity: 1 }] };
    await expectUnchangedIn([...scopeOf(order), db().collection('giftCards').doc(card.body.id)], async () => {
      const refused = await refund(order.id, key, body);
      expect(refused.status).toBe(502);
      expect(refused.body.code).toBe('PAYMENT_PROVIDER_ERROR');
    });
    expect(await balance()).toBe(0);
    // The refusal was Stripe's answer to that key (Stripe keeps it): a new key makes the refund.
    const made = await refund(order.id, KEY(), body);
    expect(made.status).toBe(201);
    expect(made.body.giftCard).toEqual({ amount: 10 });
    expect(made.body.refund).toMatchObject({ amount: 20 });
    expect(await balance()).toBe(1000);
    expect(await stockOf(book!._id)).toBe(5);
    expect((await stripeRefundsOf(pi)).map((r) => r.amount)).toEqual([2000]);
    const refundMails = (await mailsOf(order.id)).filter((m) => m.includes('-refund-'));
    expect(refundMails).toHaveLength(1);
    const mail = (await db().collection('mail').doc(refundMails[0]!).get()).data()!;
    expect(mail.message.text).toMatch(/\$10\.00 is back on your gift card ending/);
    expect(mail.message.text).toMatch(/\$20\.00 is on its way back to your card/);
  });

  it('the desk gives the money as store credit: a new gift card made by the server, nothing refunded at Stripe, mailed once; the same key makes no second card', async () => {
    const order = await placeCardOrder();
    await pay(order);
    const pi = await intentOf(order);
    const key = KEY();
    const body = { amount: 12.5, reason: 'Changed their mind', destination: 'store_credit' };
    const made = await refund(order.id, key, body);
    expect(made.status).toBe(201);
    expect(made.body.storeCredit).toMatchObject({ amount: 12.5, code: expect.stringMatching(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/) });
    expect(await stripeRefundsOf(pi)).toEqual([]);
    const doc = await stored(order.id);
    expect(doc.payment).toMatchObject({ refundedCents: 1250, status: 'partially_refunded' });
    const card = (await db().collection('giftCards').doc(doc.payment.refunds[0].storeCredit.giftCardId).get()).data()!;
    expect(card).toMatchObject({ balanceCents: 1250, last4: made.body.storeCredit.last4 });
    const again = await refund(order.id, key, body);
    expect(again.status).toBe(201);
    expect(again.body.storeCredit.code).toBeUndefined();
    expect((await db().collection('giftCards').where('createdBy', '==', 'admin').where('last4', '==', card.last4).count().get()).data().count).toBe(1);
    const mails = (await mailsOf(order.id)).filter((m) => m.includes('-refund-'));
    expect(mails).toHaveLength(1);
    expect((await db().collection('mail').doc(mails[0]!).get()).get('message.text')).toContain(made.body.storeCredit.code);
    const bad = await refund(order.id, KEY(), { ...body, destination: 'elsewhere' });
    expect(bad.status).toBe(400);
  });

  it('two desks refund the same line at once with their own keys: one refund at Stripe, the other refused before any money moved', async () => {
    const order = await placeCardOrder(2);
    await pay(order);
    const pi = await intentOf(order);
    const line = order.books[0]!;
    const body = { amount: line.newPrice, reason: 'Damaged', restock: [{ bookId: line._id, quantity: 1 }] };
    const answers = await Promise.all([refund(order.id, KEY(), body), refund(order.id, KEY(), body)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(['REFUND_IN_PROGRESS', 'ALREADY_RESTOCKED']).toContain(answers.find((a) => a.status === 409)!.body.code);
    expect(await stripeRefundsOf(pi)).toHaveLength(1);
    expect(await stockOf(line._id)).toBe(5);
    expect((await stored(order.id)).refundLock).toBeUndefined();
  });

  it('a refund that fails at the bank marks it failed, keeps the order honest, lists it and mails the customer a correction', async () => {
    const order = await placeCardOrder();
    await pay(order);
    const made = await refund(order.id, KEY(), { amount: 5, reason: 'Goodwill' });
    expect(made.status).toBe(201);
    const doc = await stored(order.id);
    const stripeRefundId = doc.payment.refunds[0].stripeRefundId;
    await control(`refunds/${stripeRefundId}/fail`, {});
    const failed = await until(order.id, (d) => d.payment.refunds[0].status === 'failed', 'marked the refund failed');
    expect(failed.payment).toMatchObject({ status: 'paid', refundedCents: 0, problem: { code: 'REFUND_FAILED' } });
    expect(failed.payment.refunds[0].failureReason).toBe('expired or canceled card');
    expect(failed.problemOpenAt).toBe(failed.payment.problem.at);
    expect(await mailsOf(order.id)).toContain(`${order.id}-refund-${failed.payment.refunds[0].id}-failed`);
    const queue = await admin('/api/admin/payment-problems?limit=100');
    expect(queue.status).toBe(200);
    expect(queue.body.problems.find((p: { orderId: string }) => p.orderId === order.id)).toMatchObject({ problem: { code: 'REFUND_FAILED' }, payment: { status: 'paid' } });
    // Refunded again from the desk: the problem is settled and leaves the queue.
    expect((await refund(order.id, KEY(), { amount: 5, reason: 'Goodwill, again' })).status).toBe(201);
    const settled = await stored(order.id);
    expect(settled.payment.problem.resolvedAt).toBeDefined();
    expect(settled.problemOpenAt).toBeUndefined();
  });
});

describe('disputes', () => {
  it('a dispute opened: on the order and the queue; the desk will not ship it nor refund it (409, not 502); lost: settled and counted off', async () => {
    const order = await placeCardOrder();
    await pay(order);
    const pi = await intentOf(order);
    const dispute = await control<{ id: string }>('disputes', { payment_intent: pi, reason: 'product_not_received' });
    const opened = await until(order.id, (d) => d.payment.dispute?.status === 'needs_response', 'disputed');
    expect(opened.payment.dispute).toMatchObject({ id: dispute.id, amountCents: order.totalCents, reason: 'product not received', evidenceDueBy: expect.any(String) });
    expect(opened.payment.problem).toMatchObject({ code: 'DISPUTED' });
    expect((await setStatus(order.id, 'confirmed')).status).toBe(200);
    await expectUnchangedIn(scopeOf(order), async () => {
      const ship = await setStatus(order.id, 'shipped');
      expect(ship.status).toBe(409);
      expect(ship.body.code).toBe('PAYMENT_DISPUTED');
      const refused = await refund(order.id, KEY(), { amount: 1, reason: 'Sorry' });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('CHARGE_DISPUTED');
    });
    const queue = await admin('/api/admin/payment-problems?limit=100');
    expect(queue.body.problems.find((p: { orderId: string }) => p.orderId === order.id)).toMatchObject({ problem: { code: 'DISPUTED' }, dispute: { status: 'needs_response' } });
    expect(queue.body.count).toBeGreaterThanOrEqual(1);
    const anonymous = await http('/api/admin/payment-problems', { token: null });
    expect(anonymous.status).toBe(401);

    await control(`disputes/${dispute.id}/close`, { status: 'lost' });
    const lost = await until(order.id, (d) => d.payment.dispute?.status === 'lost', 'lost the dispute');
    expect(lost.payment.dispute.lostCounted).toBe(true);
    expect(lost.payment.problem).toMatchObject({ code: 'DISPUTED', resolvedAt: expect.any(String) });
    expect(lost.problemOpenAt).toBeUndefined();
  });
});

describe('Pay Now and the card minimum', () => {
  it('Pay Now with Stripe down: 502, and the order keeps its session, whose end still cancels it and gives its stock back', async () => {
    const order = await placeCardOrder();
    const email = (await stored(order.id)).email as string;
    await control('fail-next', { path: '/v1/checkout/sessions', params: { customer_email: email }, count: 3 });
    const again = await http(`/api/orders/${order.id}/payment`, { method: 'POST', token: order.token });
    expect(again.status).toBe(502);
    const doc = await stored(order.id);
    expect(doc.payment.sessionId).toBe(order.sessionId);
    expect(doc.payment.retiredSessions ?? []).not.toContain(order.sessionId);
    expect(doc.payment.openingSince).toBeUndefined();
    await control(`sessions/${order.sessionId}/expire`, {});
    const ended = await until(order.id, (d) => d.status === 'cancelled', 'cancelled at its session\'s end');
    expect(ended.payment.status).toBe('expired');
    expect(await stockOf(order.books[0]!._id)).toBe(5);
  });

  it('0.30 due by card is refused before Stripe (BELOW_CARD_MINIMUM), nothing stored; the quote says the card cannot pay it', async () => {
    const [book] = await makeBooks(1, 5, 30);
    const customer = await newCustomer('edge-minimum');
    const quote = await http('/api/checkout/quote', { method: 'POST', json: { productIDs: [book!._id], delivery: { country: 'US', region: 'IL', zipcode: '62701' } } });
    expect(quote.status).toBe(200);
    const due = quote.body.due ?? quote.body.total;
    expect(due).toBeLessThan(0.5);
    expect(quote.body.cardProblem).toMatch(/A card payment must be at least \$0\.50/);
    const orders = async () => (await db().collection('orders').where('uid', '==', customer.uid).count().get()).data().count;
    const res = await http('/api/orders', {
      method: 'POST', token: customer.token, headers: { 'Idempotency-Key': KEY() },
      json: { ...validOrder(customer.email, [book!]), totalPrice: due, payment: { method: 'card' } },
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'BELOW_CARD_MINIMUM', message: expect.stringContaining('cash') });
    expect(await orders()).toBe(0);
    expect(await stockOf(book!._id)).toBe(5);
  });
});
