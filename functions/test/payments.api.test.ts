import type { Role } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import { adminToken, ageProofs, db, expectUnchangedIn, http, stockOf } from './helpers';
import { control, delivered, eventOf, mailsOf, pay, placeCardOrder, postEvent, sdk, stored, until, type CardOrder } from './stripe-helpers';

/** What a refused webhook or refund could write: the order, its books, its audit trail (the file runs beside others: docs/testing.md). */
const orderScope = (order: CardOrder) => [
  db().collection('orders').doc(order.id),
  ...order.books.map((b) => db().collection('books').doc(b._id)),
  db().collection('audit').where('target', '==', `orders/${order.id}`),
];

// Card payments (issue 35) over HTTP through Hosting to the real function over the Firestore
// emulator, with our stand-in for Stripe: its webhooks reach POST /api/stripe/webhook as Stripe's do.
// The shop-wide figures they move are checked alone, in payments.serial.api.test.ts.

const refund = (orderId: string, key: string | null, json: unknown, token?: string) =>
  (async () =>
    http(`/api/admin/orders/${orderId}/refunds`, { method: 'POST', token: token ?? (await adminToken()), headers: key ? { 'Idempotency-Key': key } : {}, json }))();

const paymentEventsOf = async (eventId: string) => (await db().collection('paymentEvents').doc(eventId).get()).data();

describe('card payments', () => {
  it('offers card at checkout when both Stripe secrets are set', async () => {
    const res = await http('/api/checkout/payment-methods');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ methods: ['cash', 'card'] });
  });

  it('places a card order: stock held, a Checkout session made from the stored order, no card data here, then paid once', async () => {
    const order = await placeCardOrder(2);
    expect(order.checkoutUrl).toBe(`${process.env.STRIPE_API_BASE}/pay/${order.sessionId}`);
    for (const book of order.books) expect(await stockOf(book._id)).toBe(4);
    const awaiting = await stored(order.id);
    expect(awaiting.payment).toMatchObject({ method: 'card', status: 'awaiting', amountCents: order.totalCents, refundedCents: 0, attempts: 1 });
    expect(awaiting.payBy > new Date(Date.now() + 29 * 60_000).toISOString()).toBe(true);
    // Stripe's session: built on the server from the order (its lines, its id twice, 30 minutes).
    const session = await sdk().checkout.sessions.retrieve(order.sessionId);
    expect(session).toMatchObject({ mode: 'payment', amount_total: order.totalCents, currency: 'usd', client_reference_id: order.id, metadata: { orderId: order.id } });
    expect(session.expires_at - Math.floor(Date.now() / 1000)).toBeGreaterThan(29 * 60);
    expect(await mailsOf(order.id)).toEqual([]); // a card order's first mail is its payment's confirmation

    const paid = await pay(order);
    expect(paid.payment).toMatchObject({ status: 'paid', paidCents: order.totalCents });
    expect(paid.payBy).toBeUndefined();
    expect(paid.status).toBe('pending'); // the shop confirms it as any other order
    expect(await mailsOf(order.id)).toEqual([`${order.id}-paid`]);
    const res = await http(`/api/orders/${order.id}`, { token: order.token });
    expect(res.body.payment).toMatchObject({ method: 'card', status: 'paid', amount: order.totalCents / 100, refunded: 0, refunds: [] });
  });

  it('applies the completed event once when it comes 10 more times, 5 at once: paid once, one mail', async () => {
    const order = await placeCardOrder();
    await pay(order);
    const [completed] = await delivered(order.sessionId);
    const before = { doc: await stored(order.id) };
    const { statuses } = await control<{ statuses: number[] }>(`events/${completed!.id}/redeliver`, { times: 10, concurrent: 5 });
    expect(statuses).toEqual(Array(10).fill(200));
    const after = await stored(order.id);
    expect(after.payment).toEqual(before.doc.payment);
    expect(after.updatedAt).toBe(before.doc.updatedAt);
    expect(await mailsOf(order.id)).toEqual([`${order.id}-paid`]);
    expect(await paymentEventsOf(completed!.id)).toMatchObject({ type: 'checkout.session.completed', orderId: order.id, result: 'applied' });
  });

  it('takes events in any order: an expired event after completed changes nothing; a refund before completed counts once paid', async () => {
    const paidFirst = await placeCardOrder();
    const session = (await pay(paidFirst)) && (await sdk().checkout.sessions.retrieve(paidFirst.sessionId));
    const late = await postEvent(eventOf('checkout.session.expired', { ...session, status: 'expired' }));
    expect(late.status).toBe(200);
    expect(late.body.result).toBe('no-change');
    const still = await stored(paidFirst.id);
    expect(still.status).toBe('pending');
    expect(still.payment.status).toBe('paid');
    expect(await stockOf(paidFirst.books[0]!._id)).toBe(4);

    // The completed event is lost on the way; a refund made in Stripe's dashboard arrives first.
    const refundFirst = await placeCardOrder();
    await control(`sessions/${refundFirst.sessionId}/pay`, { card: '4242424242424242', notify: false });
    const pi = (await sdk().checkout.sessions.retrieve(refundFirst.sessionId)).payment_intent as string;
    await control('refunds', { payment_intent: pi, amount: 700 });
    const refunded = await until(refundFirst.id, (d) => d.payment.refunds.length === 1, 'recorded the refund');
    expect(refunded.payment).toMatchObject({ status: 'awaiting', refundedCents: 700 });
    const [completed] = (await control<{ id: string; type: string }[]>(`events?session=${refundFirst.sessionId}`)).filter((e) => e.type === 'checkout.session.completed');
    await control(`events/${completed!.id}/redeliver`, { times: 1 });
    const settled = await until(refundFirst.id, (d) => d.payment.status === 'partially_refunded', 'partly refunded');
    expect(settled.payment).toMatchObject({ paidCents: refundFirst.totalCents, refundedCents: 700 });
    expect(settled.payment.refunds).toMatchObject([{ source: 'stripe', amountCents: 700, status: 'succeeded' }]);
  });

  it('refuses a bad or missing signature with 400 and changes nothing', async () => {
    const order = await placeCardOrder();
    const session = await sdk().checkout.sessions.retrieve(order.sessionId);
    const forged = eventOf('checkout.session.completed', { ...session, status: 'complete', payment_status: 'paid' });
    await expectUnchangedIn(orderScope(order), async () => {
      const wrongSecret = await postEvent(forged, 'whsec_notTheShopsSecret000000');
      expect(wrongSecret.status).toBe(400);
      expect(wrongSecret.body).toEqual({ message: 'Invalid Stripe signature' });
      // Signed bytes, then one byte changed (the amount): the signature is over the raw body.
      const tampered = await postEvent(forged, undefined, (payload) => payload.replace(`"amount_total":${order.totalCents}`, `"amount_total":${order.totalCents - 1}`));
      expect(tampered.status).toBe(400);
      // The same JSON re-serialised with other whitespace: not the bytes Stripe signed.
      const reformatted = await postEvent(forged, undefined, (payload) => JSON.stringify(JSON.parse(payload), null, 2));
      expect(reformatted.status).toBe(400);
      const unsigned = await http('/api/stripe/webhook', { method: 'POST', json: forged });
      expect(unsigned.status).toBe(400);
      expect(unsigned.body.message).toMatch(/Stripe-Signature/);
    });
    expect((await stored(order.id)).payment.status).toBe('awaiting');
  });

  it('acknowledges an event for an order it does not have', async () => {
    const res = await postEvent(eventOf('checkout.session.completed', { id: 'cs_test_nobody', object: 'checkout.session', payment_status: 'paid', amount_total: 100, currency: 'usd', metadata: { orderId: 'no-such-order-123' }, client_reference_id: null, payment_intent: 'pi_x' }));
    expect(res.status).toBe(200);
    expect(res.body.result).toBe('unknown-order');
  });

  it('flags an amount that is not the order\'s: never accepted as paid', async () => {
    const order = await placeCardOrder();
    const session = await sdk().checkout.sessions.retrieve(order.sessionId);
    const res = await postEvent(eventOf('checkout.session.completed', { ...session, status: 'complete', payment_status: 'paid', amount_total: order.totalCents - 500 }));
    expect(res.status).toBe(200);
    const flagged = await stored(order.id);
    expect(flagged.payment).toMatchObject({ status: 'awaiting', paidCents: order.totalCents - 500, problem: { code: 'AMOUNT_MISMATCH' } });
    expect(flagged.payBy).toBeUndefined(); // money is at Stripe: not cancelled by the job
    expect(await mailsOf(order.id)).toEqual([]);
    const desk = await http(`/api/orders/${order.id}`, { token: await adminToken() });
    expect(desk.body.payment.problem.message).toMatch(/Stripe received USD .* for an order of USD/);
    const confirm = await http(`/api/admin/orders/${order.id}/status`, { method: 'POST', token: await adminToken(), json: { status: 'confirmed' } });
    expect(confirm.status).toBe(409);
    expect(confirm.body.code).toBe('PAYMENT_NOT_RECEIVED');
  });

  describe('refunds from the desk', () => {
    let order: CardOrder;

    it('refunds a third three times, then one cent more is 409 REFUND_EXCEEDS_PAYMENT with nothing changed', async () => {
      order = await placeCardOrder(1, 3000);
      await pay(order);
      for (let i = 1; i <= 3; i++) {
        const res = await refund(order.id, `third-${order.id}-${i}`, { amount: '10.00', reason: `Part ${i}`, restock: [] });
        expect(res.status).toBe(201);
        expect(res.body.refund).toMatchObject({ amount: 10, status: 'succeeded', source: 'desk', reason: `Part ${i}`, by: 'owner' });
        expect(res.body.order.payment.refunded).toBe(10 * i);
      }
      expect((await stored(order.id)).payment.status).toBe('refunded');
      await delivered(order.sessionId); // Stripe's events for the three refunds, each recorded once
      const done = await stored(order.id);
      expect(done.payment.refunds).toHaveLength(3);
      expect(done.payment.refundedCents).toBe(3000);
      await expectUnchangedIn(orderScope(order), async () => {
        const more = await refund(order.id, `third-${order.id}-4`, { amount: 0.01, reason: 'One cent more', restock: [] });
        expect(more.status).toBe(409);
        expect(more.body).toMatchObject({ code: 'REFUND_EXCEEDS_PAYMENT', refundable: 0 });
      });
      const audits = await db().collection('audit').where('target', '==', `orders/${order.id}`).where('action', '==', 'order.refund').get();
      expect(audits.size).toBe(3);
      expect((await sdk().refunds.list({ payment_intent: done.payment.paymentIntentId })).data).toHaveLength(3);
    });

    it('makes one refund of the same Idempotency-Key sent twice, and restocks the lines chosen once', async () => {
      const two = await placeCardOrder(2, 2000);
      await pay(two);
      const body = { amount: 20.25, reason: 'Damaged in transit', restock: [{ bookId: two.books[0]!._id, quantity: 1 }] };
      const key = `same-${two.id}`;
      const first = await refund(two.id, key, body);
      const second = await refund(two.id, key, body);
      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(second.body.refund).toEqual(first.body.refund);
      const doc = await stored(two.id);
      expect(doc.payment.refunds).toHaveLength(1);
      expect(doc.restocked).toEqual([two.books[0]!._id]);
      expect(await stockOf(two.books[0]!._id)).toBe(5);
      expect(await stockOf(two.books[1]!._id)).toBe(4);
      expect((await sdk().refunds.list({ payment_intent: doc.payment.paymentIntentId })).data).toHaveLength(1);
      const reused = await refund(two.id, key, { ...body, amount: 1 });
      expect(reused.status).toBe(422);
      // Cancelling the order afterwards puts back only the line the refund did not.
      const cancel = await http(`/api/admin/orders/${two.id}/status`, { method: 'POST', token: await adminToken(), json: { status: 'cancelled' } });
      expect(cancel.status).toBe(200);
      expect(await stockOf(two.books[0]!._id)).toBe(5);
      expect(await stockOf(two.books[1]!._id)).toBe(5);
    });

    it('refuses refunds without a key, with bad input or from a bookseller, changing nothing', async () => {
      const username = `refund-bookseller-${Date.now().toString(36)}`;
      const made = await http('/api/admin/staff', { method: 'POST', token: await adminToken(), json: { username, displayName: 'Refund Test', role: 'bookseller' satisfies Role, password: 'margins-and-footnotes-9' } });
      expect(made.status).toBe(201);
      const bookseller = (await http('/api/auth/admin', { method: 'POST', json: { username, password: 'margins-and-footnotes-9' } })).body.token as string;
      const target = await placeCardOrder();
      await pay(target);
      await delivered(target.sessionId);
      await expectUnchangedIn(orderScope(target), async () => {
        expect((await refund(target.id, null, { amount: 1, reason: 'x', restock: [] })).status).toBe(400);
        expect((await refund(target.id, `k-${target.id}-1`, { amount: -1, reason: 'x', restock: [] })).status).toBe(400);
        expect((await refund(target.id, `k-${target.id}-2`, { amount: 1.001, reason: 'x', restock: [] })).status).toBe(400);
        expect((await refund(target.id, `k-${target.id}-3`, { amount: 1, reason: '', restock: [] })).status).toBe(400);
        expect((await refund(target.id, `k-${target.id}-4`, { amount: 1, reason: 'x', restock: [{ bookId: 'not-a-line', quantity: 1 }] })).status).toBe(400);
        expect((await refund(target.id, `k-${target.id}-5`, { amount: 1, reason: 'x', restock: [{ bookId: target.books[0]!._id, quantity: 2 }] })).status).toBe(400);
        expect((await refund('no-such-order', `k-${target.id}-6`, { amount: 1, reason: 'x', restock: [] })).status).toBe(404);
        const denied = await refund(target.id, `k-${target.id}-7`, { amount: 1, reason: 'x', restock: [] }, bookseller);
        expect(denied.status).toBe(403);
      });
    });

    it('asks again before refunding (issue 36): a manager\'s proof older than 5 minutes is 401 REAUTH_REQUIRED with nothing refunded; after the password, the refund goes through', async () => {
      // A manager of its own (proofs are aged per person: the demo owner's are other tests' too).
      const username = `refund-manager-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
      const password = 'margins-and-footnotes-9';
      const made = await http('/api/admin/staff', { method: 'POST', token: await adminToken(), json: { username, displayName: 'Refund Manager', role: 'manager' satisfies Role, password } });
      expect(made.status).toBe(201);
      const manager = (await http('/api/auth/admin', { method: 'POST', json: { username, password } })).body.token as string;
      const target = await placeCardOrder(1, 2500);
      await pay(target);
      await delivered(target.sessionId);
      const paidBefore = (await stored(target.id)).payment;
      await ageProofs(username); // as 6 minutes would
      const key = `reauth-${target.id}`;
      // Nothing stored (the order, its books, its events), nothing asked of Stripe.
      const asked = await expectUnchangedIn(orderScope(target), () => refund(target.id, key, { amount: 5, reason: 'Damaged corner', restock: [] }, manager));
      expect(asked.status).toBe(401);
      expect(asked.body).toEqual({ message: 'Confirm your password to continue', code: 'REAUTH_REQUIRED' });
      expect((await sdk().refunds.list({ payment_intent: paidBefore.paymentIntentId })).data).toHaveLength(0);
      const events = () => db().collection('audit').where('target', '==', `orders/${target.id}`).where('action', '==', 'order.refund').get();
      // The dashboard's dialog: the password again, then the same request (same key) once more.
      const proof = await http('/api/auth/admin/reauth', { method: 'POST', token: manager, json: { password } });
      expect(proof.status).toBe(200);
      const done = await refund(target.id, key, { amount: 5, reason: 'Damaged corner', restock: [] }, manager);
      expect(done.status).toBe(201);
      expect(done.body.refund).toMatchObject({ amount: 5, source: 'desk', by: 'manager' });
      expect((await sdk().refunds.list({ payment_intent: paidBefore.paymentIntentId })).data).toHaveLength(1);
      expect((await events()).docs.map((d) => d.data().actor)).toEqual([username]);
    });

    it('records a refund made in Stripe\'s dashboard like one from the desk', async () => {
      const dash = await placeCardOrder(1, 4000);
      await pay(dash);
      const pi = (await stored(dash.id)).payment.paymentIntentId;
      await control('refunds', { payment_intent: pi, amount: 1500 });
      const doc = await until(dash.id, (d) => d.payment.refunds?.length === 1, 'recorded the dashboard refund');
      expect(doc.payment).toMatchObject({ status: 'partially_refunded', refundedCents: 1500 });
      expect(doc.payment.refunds[0]).toMatchObject({ source: 'stripe', amountCents: 1500, status: 'succeeded', applied: true });
      await delivered(dash.sessionId);
      expect((await stored(dash.id)).payment.refunds).toHaveLength(1); // refund.created and charge.refunded: one refund
      expect(await mailsOf(dash.id)).toEqual([`${dash.id}-paid`, `${dash.id}-refund-stripe-${doc.payment.refunds[0].stripeRefundId}`]);
    });

    it('records a cash refund of a delivered order, and refuses one of an order not paid yet', async () => {
      const { makeBooks, newCustomer, validOrder } = await import('./helpers');
      const books = await makeBooks(1, 3, 1800);
      const customer = await newCustomer('cash');
      const placed = await http('/api/orders', { method: 'POST', token: customer.token, json: validOrder(customer.email, books) });
      expect(placed.status).toBe(201);
      expect(placed.body.payment).toEqual({ method: 'cash', status: 'due', amount: 18, paid: 0, refunded: 0, refunds: [] });
      const id = placed.body._id as string;
      const early = await refund(id, `cash-early-${id}`, { amount: 1, reason: 'Too early', restock: [] });
      expect(early.status).toBe(409);
      expect(early.body.code).toBe('REFUND_EXCEEDS_PAYMENT');
      for (const status of ['confirmed', 'shipped', 'delivered']) {
        expect((await http(`/api/admin/orders/${id}/status`, { method: 'POST', token: await adminToken(), json: { status } })).status).toBe(200);
      }
      const cash = await refund(id, `cash-${id}`, { amount: 5, reason: 'Price match', restock: [] });
      expect(cash.status).toBe(201);
      expect(cash.body.order.payment).toMatchObject({ method: 'cash', status: 'partially_refunded', refunded: 5 });
    });
  });

  describe('an unpaid session', () => {
    it('cancels the order and puts its stock back once when the session expires', async () => {
      const order = await placeCardOrder();
      expect(await stockOf(order.books[0]!._id)).toBe(4);
      await sdk().checkout.sessions.expire(order.sessionId);
      const cancelled = await until(order.id, (d) => d.status === 'cancelled', 'cancelled');
      expect(cancelled.payment.status).toBe('expired');
      expect(cancelled.payBy).toBeUndefined();
      expect(await stockOf(order.books[0]!._id)).toBe(5);
      const [expired] = await delivered(order.sessionId);
      const { statuses } = await control<{ statuses: number[] }>(`events/${expired!.id}/redeliver`, { times: 4, concurrent: 4 });
      expect(statuses).toEqual([200, 200, 200, 200]);
      expect(await stockOf(order.books[0]!._id)).toBe(5);
      expect(await mailsOf(order.id)).toEqual([`${order.id}-cancelled`]);
      expect((await stored(order.id)).events).toHaveLength(1);
    });

    it("'Pay Now' pressed twice at once leaves one payable session, the order's own: any other made meanwhile is closed at Stripe", async () => {
      const order = await placeCardOrder();
      const answers = await Promise.all([1, 2].map(() => http(`/api/orders/${order.id}/payment`, { method: 'POST', token: order.token })));
      // Usually one opens and the other waits (409 PAYMENT_IN_PROGRESS); on a slow machine the second may come after the first is done.
      for (const a of answers) expect(a.status === 201 || a.body.code === 'PAYMENT_IN_PROGRESS', JSON.stringify(a.body)).toBe(true);
      const doc = await stored(order.id);
      expect(answers.filter((x) => x.status === 201).map((a) => a.body.sessionId)).toContain(doc.payment.sessionId);
      expect(doc.payment.openingSince).toBeUndefined();
      const sessions = await control<{ id: string; status: string }[]>(`sessions?order=${order.id}`);
      expect(sessions.length).toBeGreaterThanOrEqual(2); // the placement's, and at least one Pay Now's
      expect(sessions.filter((x) => x.status === 'open').map((x) => x.id)).toEqual([doc.payment.sessionId]);
    });

    it('lets the shopper try again with a new session while the order lives; the old session\'s expiry then changes nothing', async () => {
      const order = await placeCardOrder();
      const again = await http(`/api/orders/${order.id}/payment`, { method: 'POST', token: order.token });
      expect(again.status).toBe(201);
      expect(again.body.sessionId).not.toBe(order.sessionId);
      expect((await sdk().checkout.sessions.retrieve(order.sessionId)).status).toBe('expired'); // the old page takes no card
      await delivered(order.sessionId);
      const doc = await stored(order.id);
      expect(doc.status).toBe('pending');
      expect(doc.payment).toMatchObject({ status: 'awaiting', sessionId: again.body.sessionId, attempts: 2, retiredSessions: [order.sessionId] });
      await pay({ ...order, sessionId: again.body.sessionId });
      const someoneElse = await placeCardOrder();
      expect((await http(`/api/orders/${order.id}/payment`, { method: 'POST', token: someoneElse.token })).status).toBe(404);
      expect((await http(`/api/orders/${order.id}/payment`, { method: 'POST', token: order.token })).status).toBe(409);
    });
  });
});
