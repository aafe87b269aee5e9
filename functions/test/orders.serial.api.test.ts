import { describe, expect, it } from 'vitest';
import { adminToken, db, expectUnchanged, http, newCustomer, validOrder } from './helpers';
import { ownShelf } from './shelf';
import { FOREIGN_LOOKUPS } from '../src/orders/lookup-limit.repo';

// Orders end to end, through Hosting: placing, reading and moving an order. Pricing, idempotency,
// product ids, stock races and every transition are in orders.inproc.test.ts and
// lifecycle.inproc.test.ts, against the same handlers in-process.
const seededBooks = ownShelf();

describe('POST /api/orders', () => {
  it('stores an order priced by the server, owned by the caller, pending', async () => {
    const me = await newCustomer();
    const books = (await seededBooks()).slice(0, 3);
    const res = await http('/api/orders', { method: 'POST', token: me.token, json: validOrder(me.email, books) });
    expect(res.status).toBe(201);
    const cents = books.reduce((s, b) => s + Math.round(b.newPrice * 100), 0);
    expect(res.body).toMatchObject({ uid: me.uid, status: 'pending', totalPrice: cents / 100, productIDs: books.map((b) => b._id), events: [] });
    expect(res.body.items).toEqual(books.map((b) => ({ bookId: b._id, title: b.title, unitPrice: b.newPrice, coverImage: 'book-1' })));
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const stored = await db().collection('orders').doc(res.body._id).get();
    expect(stored.data()?.totalCents).toBe(cents);
  });

  it('refuses orders without a token (401) or for another email (403)', async () => {
    const me = await newCustomer();
    const books = (await seededBooks()).slice(0, 1);
    await expectUnchanged(async () => {
      expect((await http('/api/orders', { method: 'POST', json: validOrder(me.email, books) })).status).toBe(401);
      const other = await http('/api/orders', { method: 'POST', token: me.token, json: validOrder('someone@else.com', books) });
      expect(other.status).toBe(403);
      const asAdmin = await http('/api/orders', { method: 'POST', token: await adminToken(), json: validOrder(me.email, books) });
      expect(asAdmin.status).toBe(401);
    });
  });
});

describe('GET /api/orders/email/:email', () => {
  it('returns only the caller’s orders, newest first; 403 for another email; admin may read any', async () => {
    const me = await newCustomer();
    const other = await newCustomer();
    const books = await seededBooks();
    await http('/api/orders', { method: 'POST', token: me.token, json: validOrder(me.email, books.slice(0, 1)) });
    await http('/api/orders', { method: 'POST', token: me.token, json: validOrder(me.email, books.slice(1, 3)) });
    const mine = await http(`/api/orders/email/${encodeURIComponent(me.email.toUpperCase())}`, { token: me.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toHaveLength(2);
    expect(mine.body[0].createdAt >= mine.body[1].createdAt).toBe(true);
    expect(mine.body.every((o: any) => o.uid === me.uid)).toBe(true);

    const snoop = await http(`/api/orders/email/${encodeURIComponent(me.email)}`, { token: other.token });
    expect(snoop.status).toBe(403);
    expect((await http(`/api/orders/email/${encodeURIComponent(me.email)}`)).status).toBe(401);
    const admin = await http(`/api/orders/email/${encodeURIComponent(me.email)}`, { token: await adminToken() });
    expect(admin.status).toBe(200);
    expect(admin.body).toHaveLength(2);
    expect((await http('/api/orders/email/not-an-email', { token: me.token })).status).toBe(400);
  });
});

describe('GET /api/orders/email/:email for other addresses (issue 25)', () => {
  it(`answers an account ${FOREIGN_LOOKUPS} refusals per 15 minutes, then 429 with Retry-After; its own orders still answer`, async () => {
    const me = await newCustomer();
    for (let i = 0; i < FOREIGN_LOOKUPS; i += 1) {
      expect((await http(`/api/orders/email/someone${i}@example.com`, { token: me.token })).status).toBe(403);
    }
    const limited = await http('/api/orders/email/someone-else@example.com', { token: me.token });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/Too many lookups/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await http(`/api/orders/email/${encodeURIComponent(me.email)}`, { token: me.token })).status).toBe(200);
    const other = await newCustomer(); // another account is not affected
    expect((await http('/api/orders/email/someone0@example.com', { token: other.token })).status).toBe(403);
  });
});

describe('order lifecycle', () => {
  // The transition routes end to end; every transition, race and stock rule: lifecycle.inproc.test.ts.
  it('the admin confirms and ships; the customer may cancel a pending order but not a shipped one', async () => {
    const me = await newCustomer('lifecycle');
    const admin = await adminToken();
    const [a, b] = (await seededBooks()).slice(0, 2);
    const first = await http('/api/orders', { method: 'POST', token: me.token, json: validOrder(me.email, [a]) });
    const second = await http('/api/orders', { method: 'POST', token: me.token, json: validOrder(me.email, [b]) });
    expect([first.status, second.status]).toEqual([201, 201]);
    for (const status of ['confirmed', 'shipped']) {
      const moved = await http(`/api/admin/orders/${first.body._id}/status`, { method: 'POST', token: admin, json: { status } });
      expect(moved.status).toBe(200);
      expect(moved.body.order.status).toBe(status);
    }
    await expectUnchanged(async () => {
      const late = await http(`/api/orders/${first.body._id}/cancel`, { method: 'POST', token: me.token, json: {} });
      expect(late.status).toBe(409);
      expect(late.body).toMatchObject({ code: 'INVALID_TRANSITION', status: 'shipped' });
    });
    const cancelled = await http(`/api/orders/${second.body._id}/cancel`, { method: 'POST', token: me.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ message: 'Order cancelled', order: { status: 'cancelled' } });
    const read = await http(`/api/orders/${first.body._id}`, { token: me.token });
    expect(read.body.events.map((e: any) => e.to)).toEqual(['confirmed', 'shipped']);
  });
});
