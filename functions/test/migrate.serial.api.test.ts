import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_STOCK, DELETED_BOOK_TITLE, migrateOrders } from '../../scripts/lib/migrate-orders';
import { adminToken, db, http, makeBooks, removeBooks, type TestBook } from './helpers';

// Orders stored before issue 11 (no lines, no events, counters in stats/totals) are brought up to
// date by scripts/lib/migrate-orders.ts, which the launcher runs once on old local data.

let shelf: TestBook[] = [];
afterAll(async () => removeBooks(shelf));

describe('migrateOrders', () => {
  it('gives old orders snapshot lines (or a Deleted book line), old books a stock, and rebuilds the counters; a second run changes nothing', async () => {
    shelf = await makeBooks(2, 4);
    const [kept, gone] = shelf as [TestBook, TestBook];
    const noStock = db().collection('books').doc();
    await noStock.set({ title: 'Old book', description: 'd', category: 'fiction', trending: false, coverImage: 'book-2', oldPriceCents: 500, newPriceCents: 500, createdAt: '2001-01-01T00:00:00.000Z', updatedAt: '2001-01-01T00:00:00.000Z' });
    shelf.push({ _id: noStock.id, title: 'Old book', newPrice: 5 });
    const keptCents = Math.round(kept.newPrice * 100);
    const old = db().collection('orders').doc();
    await old.set({
      uid: 'old-uid', name: 'Old', email: 'old@example.com', phone: '5551234567',
      address: { street: '1', city: 'c', country: 'x', state: 's', zipcode: '1' },
      productIDs: [kept._id, gone._id], totalCents: keptCents + 777, status: 'cancelled', createdAt: '2026-01-05T10:00:00.000Z',
    });
    await removeBooks([gone]);
    await db().collection('stats').doc('totals').set({ totalOrders: 999, totalSalesCents: 1 });
    await db().collection('stats').doc('month-2026-01').set({ month: '2026-01', totalOrders: 5, totalSalesCents: 5 });
    await db().collection('migrations').doc('issue-11-orders').delete();

    const report = await migrateOrders(db());
    expect(report).toMatchObject({ alreadyDone: false, orders: 1 });
    expect(report.books).toBeGreaterThanOrEqual(1);
    const migrated = (await db().collection('orders').doc(old.id).get()).data()!;
    expect(migrated.items).toEqual([
      { bookId: kept._id, title: kept.title, unitPriceCents: keptCents, coverImage: 'book-1' },
      { bookId: gone._id, title: DELETED_BOOK_TITLE, unitPriceCents: 777, coverImage: '' },
    ]);
    expect(migrated.events).toEqual([]);
    expect(migrated.updatedAt).toBe('2026-01-05T10:00:00.000Z');
    expect((await db().collection('books').doc(noStock.id).get()).data()!.stock).toBe(DEFAULT_STOCK);
    expect((await db().collection('stats').doc('totals').get()).exists).toBe(false);
    expect((await db().collection('stats').doc('month-2026-01').get()).exists).toBe(false);

    // The API now reads it as a new order, and the counters equal a recount (cancelled out of revenue).
    const admin = await adminToken();
    const one = await http(`/api/orders/${old.id}`, { token: admin });
    expect(one.body.items.map((l: any) => l.unitPrice)).toEqual([kept.newPrice, 7.77]);
    const all = (await db().collection('orders').get()).docs.map((d) => d.data());
    const live = all.filter((o) => o.status !== 'cancelled' && o.status !== 'refused');
    const stats = (await http('/api/admin', { token: admin })).body;
    expect(stats.totalOrders).toBe(live.length);
    expect(Math.round(stats.totalSales * 100)).toBe(live.reduce((s, o) => s + o.totalCents, 0));
    expect(stats.orderCounts.all).toBe(all.length);
    expect(stats.orderCounts.cancelled).toBe(all.filter((o) => o.status === 'cancelled').length);

    expect(await migrateOrders(db())).toEqual({ alreadyDone: true, books: 0, orders: 0, counters: 0 });
  });
});
