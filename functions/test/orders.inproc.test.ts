import { describe, expect, it } from 'vitest';
import { adminToken, db, expectUnchanged, http, makeBooks, newCustomer, removeBooks, validOrder } from './helpers';
import { ownShelf } from './shelf';

// Orders' logic, in-process (inproc-setup.ts): pricing, idempotency, product ids, concurrency.
const seededBooks = ownShelf();

describe('POST /api/orders', () => {
  it('returns the first order for a retried Idempotency-Key instead of storing a second', async () => {
    const me = await newCustomer();
    const books = (await seededBooks()).slice(0, 2);
    const headers = { 'Idempotency-Key': `retry-${Date.now()}` };
    const first = await http('/api/orders', { method: 'POST', token: me.token, headers, json: validOrder(me.email, books) });
    const second = await http('/api/orders', { method: 'POST', token: me.token, headers, json: validOrder(me.email, books) });
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.body._id).toBe(first.body._id);
    const mine = await db().collection('orders').where('uid', '==', me.uid).get();
    expect(mine.size).toBe(1);
    // The customer may read this document under the rules: the key lives only in the derived id.
    expect(mine.docs[0]!.data()).not.toHaveProperty('idempotencyKey');
  });

  it('answers 409 with the current total when the client total differs, storing nothing', async () => {
    const me = await newCustomer();
    const books = (await seededBooks()).slice(0, 2);
    await expectUnchanged(async () => {
      const res = await http('/api/orders', { method: 'POST', token: me.token, json: { ...validOrder(me.email, books), totalPrice: '0.01' } });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('PRICE_CHANGED');
      expect(res.body.totalPrice).toBe(books.reduce((s, b) => s + Math.round(b.newPrice * 100), 0) / 100);
    });
  });

  it('refuses unknown, repeated and malformed product ids with 400 naming them', async () => {
    const me = await newCustomer();
    const [a] = await seededBooks();
    await expectUnchanged(async () => {
      const unknown = await http('/api/orders', { method: 'POST', token: me.token, json: { ...validOrder(me.email, [a]), productIDs: [a._id, 'ghost-book'] } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toContain('ghost-book');
      expect(unknown.body).toMatchObject({ code: 'UNKNOWN_BOOKS', productIDs: ['ghost-book'] });
      const repeated = await http('/api/orders', { method: 'POST', token: me.token, json: { ...validOrder(me.email, [a, a]) } });
      expect(repeated.status).toBe(400);
      expect(repeated.body.message).toContain(a._id);
      const empty = await http('/api/orders', { method: 'POST', token: me.token, json: { ...validOrder(me.email, []), productIDs: [] } });
      expect(empty.status).toBe(400);
    });
  });
});

describe('concurrency', () => {
  // One order per customer: one account's placements serialize on its open-order count
  // (customers/{uid}, read in each placement's transaction), and the emulator resolves that slowly.
  it('50 concurrent orders from 50 customers, each for two books of its own: 50 stored, stock and counters exact', async () => {
    const token = await adminToken();
    const before = (await http('/api/admin', { token })).body;
    const shoppers = await Promise.all(Array.from({ length: 50 }, (_, i) => newCustomer(`burst${i}`)));
    const own = await makeBooks(100, 1);
    const carts = Array.from({ length: 50 }, (_, i) => [own[2 * i]!, own[2 * i + 1]!]);
    const replies = await Promise.all(
      carts.map((cart, i) => http('/api/orders', { method: 'POST', token: shoppers[i]!.token, json: validOrder(shoppers[i]!.email, cart) })),
    );
    const books = carts.flat();
    const stock = await db().getAll(...own.map((b) => db().collection('books').doc(b._id)));
    expect(stock.map((b) => b.data()!.stock)).toEqual(Array(100).fill(0));
    await removeBooks(own);
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(201));
    // 'in' takes at most 30 values: two queries of 25 uids.
    const halves = await Promise.all([0, 25].map((at) => db().collection('orders').where('uid', 'in', shoppers.slice(at, at + 25).map((s) => s.uid)).get()));
    const stored = { size: halves[0]!.size + halves[1]!.size, docs: [...halves[0]!.docs, ...halves[1]!.docs] };
    expect(stored.size).toBe(50);
    const cents = books.reduce((s, b) => s + Math.round(b.newPrice * 100), 0);
    expect(stored.docs.reduce((s, d) => s + d.data().totalCents, 0)).toBe(cents);
    expect(stored.docs.map((d) => d.data().items.length)).toEqual(Array(50).fill(2));
    const after = (await http('/api/admin', { token })).body;
    expect(after.totalOrders - before.totalOrders).toBe(50);
    expect(Math.round(after.totalSales * 100) - Math.round(before.totalSales * 100)).toBe(cents);
  });
});
