import { randomBytes } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { describe, expect, it, vi } from 'vitest';
import { adminToken, db, expectUnchanged, http, makeBooks, newCustomer, removeBooks, validOrder } from './helpers';
import { deliveredOnce, MAIL_TEST_TIMEOUT_MS, staffToken } from './mail-helpers';
import { pay, placeCardOrder } from './stripe-helpers';

vi.setConfig({ testTimeout: MAIL_TEST_TIMEOUT_MS }); // mail waits behind the run's backlog (mail-helpers.ts)

// The shop's own mail (issue 36), the tests that cannot run beside others: a collected pickup
// order, a card payment and a refund move the shop's figures (the overview's collected sales and
// refunds, which payments.api.test.ts compares), and the failed-mail list's refusals assert that
// nothing stored changed anywhere (expectUnchanged). docs/testing.md.

const RUN = randomBytes(4).toString('hex');

describe('mail that moves the shop\'s figures goes out through sendMail to the inbox', () => {
  it("a pickup order's placed, confirmed, ready and collected mails, each once", async () => {
    const customer = await newCustomer('pickup-mail');
    const books = await makeBooks(1, 3);
    try {
      const body = { ...validOrder(customer.email, books), delivery: { method: 'pickup' } };
      const key = `pickup-mail-${RUN}`;
      let placed = await http('/api/orders', { method: 'POST', token: customer.token, json: body, headers: { 'Idempotency-Key': key } });
      // The shop's pickup may be priced apart from the books: its 409 names the total to agree to.
      if (placed.status === 409) placed = await http('/api/orders', { method: 'POST', token: customer.token, json: { ...body, totalPrice: placed.body.totalPrice }, headers: { 'Idempotency-Key': `${key}-2` } });
      expect(placed.status).toBe(201);
      const orderId = placed.body._id as string;
      const short = orderId.slice(0, 8).toUpperCase();
      await deliveredOnce(customer.email, `We have received your order (order ${short})`, `${orderId}-placed`);
      const admin = await adminToken();
      for (const status of ['confirmed', 'ready_for_pickup', 'collected'] as const) {
        expect((await http(`/api/admin/orders/${orderId}/status`, { method: 'POST', token: admin, json: { status } })).status).toBe(200);
      }
      await deliveredOnce(customer.email, `Your order is confirmed (order ${short})`, `${orderId}-confirmed`);
      const ready = await deliveredOnce(customer.email, `Your order is ready for pickup (order ${short})`, `${orderId}-ready_for_pickup`);
      expect(ready.text).toMatch(/until/i); // where and until when: the hold
      await deliveredOnce(customer.email, `Thank you for collecting your order (order ${short})`, `${orderId}-collected`);
    } finally {
      await removeBooks(books);
    }
  });

  it("a card order's payment confirmation and a refund's mail (issue 35)", async () => {
    const order = await placeCardOrder();
    try {
      await pay(order);
      const { email } = (await db().collection('orders').doc(order.id).get()).data() as { email: string };
      const short = order.id.slice(0, 8).toUpperCase();
      await deliveredOnce(email, `Your payment was received (order ${short})`, `${order.id}-paid`);
      const refunded = await http(`/api/admin/orders/${order.id}/refunds`, { method: 'POST', token: await adminToken(), headers: { 'Idempotency-Key': `mail-refund-${RUN}` }, json: { amount: '10.00', reason: 'Mail test', restock: [] } });
      expect(refunded.status).toBe(201);
      await deliveredOnce(email, `Refund of $10.00 (order ${short})`);
    } finally {
      await removeBooks(order.books);
    }
  });
});

describe('GET /api/admin/mail/failed refuses', () => {
  it('401 without a staff token, 403 for a bookseller; a bad cursor or limit is 400 with its message; nothing changes', async () => {
    const bookseller = await staffToken('bookseller');
    await expectUnchanged(async () => {
      expect((await http('/api/admin/mail/failed')).status).toBe(401);
      expect((await http('/api/admin/mail/failed', { token: bookseller })).status).toBe(403);
      const admin = await adminToken();
      const badCursor = await http('/api/admin/mail/failed?cursor=bm90LWEtY3Vyc29y', { token: admin });
      expect(badCursor.status).toBe(400);
      expect(badCursor.body.message).toBe('cursor is not valid');
      const badLimit = await http('/api/admin/mail/failed?limit=500', { token: admin });
      expect(badLimit.status).toBe(400);
      expect(badLimit.body.message).toBe('limit is at most 100');
      expect((await http('/api/admin/mail/failed?state=SUCCESS', { token: admin })).status).toBe(400);
    });
  });
});

describe('POST /api/admin/mail/:id/resend refuses', () => {
  it('401 without a staff token, 403 for a bookseller, 404 for an unknown mail, 400 for a bad id, 409 for mail not failed; nothing changes', async () => {
    const bookseller = await staffToken('bookseller');
    const admin = await adminToken();
    // A mail still waiting (RETRY): only a failed one can be resent. Created before the digest.
    const waiting = `resend-waiting-${RUN}`;
    await db().collection('mail').doc(waiting).create({ to: `waiting-${RUN}@example.com`, message: { subject: 'Waiting', text: 'x' }, delivery: { state: 'RETRY', attempts: 1, nextAttemptAt: Timestamp.fromMillis(Date.now() + 3_600_000), error: '421 later' } });
    await expectUnchanged(async () => {
      expect((await http(`/api/admin/mail/${waiting}/resend`, { method: 'POST' })).status).toBe(401);
      expect((await http(`/api/admin/mail/${waiting}/resend`, { method: 'POST', token: bookseller })).status).toBe(403);
      const unknown = await http(`/api/admin/mail/no-such-mail-${RUN}/resend`, { method: 'POST', token: admin });
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('Mail not found');
      const bad = await http(`/api/admin/mail/${encodeURIComponent('a b')}/resend`, { method: 'POST', token: admin });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('id is not a mail id');
      const notFailed = await http(`/api/admin/mail/${waiting}/resend`, { method: 'POST', token: admin });
      expect(notFailed.status).toBe(409);
      expect(notFailed.body).toMatchObject({ code: 'MAIL_NOT_FAILED', message: 'This mail is already waiting to be sent' });
      expect((await http('/api/admin/mail/waiting', { token: bookseller })).status).toBe(403);
      expect((await http('/api/admin/mail/waiting?limit=0', { token: admin })).status).toBe(400);
    });
    expect((await db().collection('mail').doc(waiting).get()).data()?.delivery).toMatchObject({ state: 'RETRY', attempts: 1 });
  });
});
