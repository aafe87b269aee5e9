import { randomUUID } from 'node:crypto';
import { shopDay } from '@bookstore/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAKINGS_COLLECTION, TAKINGS_SHARDS, takingsDocId } from '../src/sales/takings';
import { adminToken, db, expectUnchangedIn, http, makeBooks, removeBooks, stockOf, type TestBook, staffToken } from './helpers';

// The till's money (issue 54) over HTTP, through Hosting to the function, on the real emulators: a
// counter sale is recorded as the till made it, whenever it reaches the shop: on the day of its
// `soldAt`, at the prices the till charged; a price other than the book's at soldAt is flagged,
// never refused; a soldAt too far ahead or behind is refused with nothing written. Only this file
// sends soldAt or prices, and only its own bookseller sells here, so its figures on a day's takings
// are its own (a parallel file: docs/testing.md).

const PASSWORD = 'margins-and-footnotes-9';
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const NAME = `Till Clock ${RUN}`;
const HOUR = 60 * 60 * 1000;
type Book = TestBook & { isbn: string };

const made: TestBook[] = [];
afterAll(async () => removeBooks(made));
async function books(count: number, stock: number, priceCents: number): Promise<Book[]> {
  const list = (await makeBooks(count, stock, priceCents, { isbn: true })) as Book[];
  made.push(...list);
  return list;
}

let owner: string;
let bookseller: string;
beforeAll(async () => {
  owner = await adminToken();
  const username = `till-clock-${RUN}`;
  bookseller = await staffToken(owner, { username, displayName: NAME, role: 'bookseller', password: PASSWORD });
});

const sell = (body: unknown) => http('/api/admin/sales', { method: 'POST', token: bookseller, json: body });
const summaryOf = async (day: string) => {
  const res = await http(`/api/admin/sales/summary?date=${day}`, { token: owner });
  expect(res.status).toBe(200);
  return res.body;
};
/** This file's bookseller's line of a day's takings. */
const mine = (summary: any) => summary.byStaff.find((s: any) => s.name === NAME) ?? { name: NAME, count: 0, total: 0 };
const listed = async (day: string) => (await http(`/api/admin/sales?date=${day}&limit=100`, { token: owner })).body.sales.map((s: any) => s._id);
const setPrice = async (book: Book, newPrice: string) =>
  expect((await http('/api/admin/books/bulk', { method: 'POST', token: owner, json: { action: 'price', ids: [book._id], newPrice } })).status).toBe(200);
const auditOf = async (target: string) => (await db().collection('audit').where('target', '==', target).get()).docs.map((d) => d.data());

/**
 * `ms` ago, or as long ago as the shop's day allows: the return below is a bookseller's, and an earlier
 * day's sale needs a manager's approval (403), so between midnight and 02:00 'two hours ago' is no good.
 */
async function earlierToday(ms: number): Promise<string> {
  if (Date.now() - midnightOf(Date.now()) < 5_000) await new Promise((resolve) => setTimeout(resolve, 5_000));
  const now = Date.now();
  return new Date(Math.max(now - ms, midnightOf(now) + 1_000)).toISOString();
}
/** The start of the shop's day holding `at` (its zone is UTC, contract/src/shop-zone.ts; checked, so a new zone fails here). */
function midnightOf(at: number): number {
  const midnight = Date.parse(`${shopDay(new Date(at))}T00:00:00Z`);
  expect([shopDay(new Date(midnight)), shopDay(new Date(midnight - 1))]).toEqual([shopDay(new Date(at)), shopDay(new Date(midnight - 86_400_000))]);
  return midnight;
}

describe('a sale made offline, synced the next day', () => {
  it('counts on the day it was made, at the till\'s price, though the book costs more by the time it arrives; not flagged; sent again, the same sale', async () => {
    const [book] = await books(1, 3, 1250);
    // Made 24 hours ago (the till's clock), so on the shop's previous day; the shop hears of it now.
    const soldAt = new Date(Date.now() - 24 * HOUR).toISOString();
    const saleDay = shopDay(soldAt);
    const today = shopDay(new Date());
    expect(saleDay).not.toBe(today);
    // Overnight the book went up from 12.50 to 14.00: the till charged the price of its day.
    await setPrice(book!, '14.00');
    const [dayBefore, todayBefore] = [await summaryOf(saleDay), await summaryOf(today)];

    const body = { saleId: randomUUID(), lines: [{ isbn: book!.isbn, quantity: 2, unitPrice: '12.50' }], payment: { method: 'cash', tendered: '30.00' }, soldAt };
    const res = await sell(body);
    expect(res.status).toBe(201);
    const sale = res.body.sale;
    expect(sale).toMatchObject({ _id: body.saleId, soldAt, createdAt: soldAt, day: saleDay, total: 25, change: 5, priceDiffers: false });
    expect(sale.lines).toEqual([{ bookId: book!._id, isbn: book!.isbn, title: book!.title, quantity: 2, unitPrice: 12.5, lineTotal: 25 }]);
    expect(shopDay(sale.receivedAt)).toBe(today);
    expect(await stockOf(book!._id)).toBe(1);
    expect((await db().collection('sales').doc(body.saleId).get()).data()).toMatchObject({ totalCents: 2500, day: saleDay, soldAt, priceDiffers: false });

    // The takings: on its own day, at what was charged; today's are as they were.
    const [dayAfter, todayAfter] = [await summaryOf(saleDay), await summaryOf(today)];
    expect(dayAfter.count - dayBefore.count).toBe(1);
    expect(Math.round((dayAfter.total - dayBefore.total) * 100)).toBe(2500);
    expect(Math.round((dayAfter.byMethod.cash - dayBefore.byMethod.cash) * 100)).toBe(2500);
    expect(mine(dayAfter)).toEqual({ name: NAME, count: mine(dayBefore).count + 1, total: (Math.round(mine(dayBefore).total * 100) + 2500) / 100 });
    expect(dayAfter.priceDiffers).toBe(dayBefore.priceDiffers);
    expect(mine(todayAfter)).toEqual(mine(todayBefore));
    expect(await listed(saleDay)).toContain(body.saleId);
    expect(await listed(today)).not.toContain(body.saleId);
    const [event] = await auditOf(`sales/${body.saleId}`);
    expect(event).toMatchObject({ action: 'sale.create', changes: { total: { after: 2500 }, soldAt: { after: soldAt } } });

    // The queue sends it again (its answer lost): the same sale, nothing counted twice.
    const again = await sell(body);
    expect(again.status).toBe(200);
    expect(again.body.sale).toEqual(sale);
    expect((await summaryOf(saleDay)).count).toBe(dayAfter.count);
    expect(await stockOf(book!._id)).toBe(1);
  });

  it('a sale queued by a till from before (no soldAt, no prices) is recorded when it arrives, at the book\'s price', async () => {
    const [book] = await books(1, 2, 1250);
    const body = { saleId: randomUUID(), lines: [{ isbn: book!.isbn, quantity: 1 }], payment: { method: 'cash' } };
    const before = Date.now();
    const res = await sell(body);
    expect(res.status).toBe(201);
    const sale = res.body.sale;
    expect(sale).toMatchObject({ total: 12.5, priceDiffers: false, day: shopDay(sale.soldAt) });
    expect(sale.soldAt).toBe(sale.receivedAt);
    expect(Date.parse(sale.soldAt)).toBeGreaterThanOrEqual(before - 60_000);
    expect(sale.lines[0]).toEqual({ bookId: book!._id, isbn: book!.isbn, title: book!.title, quantity: 1, unitPrice: 12.5, lineTotal: 12.5 });
  });
});

describe('a price the till charged that is not the shop\'s', () => {
  it('is recorded as charged and flagged on the sale and the line, for the manager, never refused; the book\'s price is the one at soldAt', async () => {
    const [cheap, dearer, same] = await books(3, 4, 2000); // 20.00, 21.01, 22.02
    // Two hours ago the till sold all three; since then `dearer` went down to 18.00 and `same` up to 25.00.
    const soldAt = await earlierToday(2 * HOUR);
    await setPrice(dearer!, '18.00');
    await setPrice(same!, '25.00');
    const day = shopDay(soldAt);
    const before = await summaryOf(day);
    const body = {
      saleId: randomUUID(),
      lines: [
        { isbn: cheap!.isbn, quantity: 1, unitPrice: '15.00' }, // a discount at the till: differs from 20.00
        { bookId: dearer!._id, quantity: 2, unitPrice: 18 }, // today's price, not the 21.01 of its time: differs
        { isbn: same!.isbn, quantity: 1, unitPrice: '22.02' }, // the price of its time: as the shop's
      ],
      payment: { method: 'cash' }, // issue 57: a card-terminal sale is paid on a reader, within minutes of soldAt
      soldAt,
    };
    const res = await sell(body);
    expect(res.status).toBe(201);
    const sale = res.body.sale;
    expect(sale.priceDiffers).toBe(true);
    expect(sale.total).toBe(73.02); // 15.00 + 2 x 18.00 + 22.02: the money taken
    expect(sale.lines).toEqual([
      { bookId: cheap!._id, isbn: cheap!.isbn, title: cheap!.title, quantity: 1, unitPrice: 15, lineTotal: 15, priceDiffers: true, bookPrice: 20 },
      { bookId: dearer!._id, isbn: dearer!.isbn, title: dearer!.title, quantity: 2, unitPrice: 18, lineTotal: 36, priceDiffers: true, bookPrice: 21.01 },
      { bookId: same!._id, isbn: same!.isbn, title: same!.title, quantity: 1, unitPrice: 22.02, lineTotal: 22.02 },
    ]);
    expect([await stockOf(cheap!._id), await stockOf(dearer!._id), await stockOf(same!._id)]).toEqual([3, 2, 3]);
    // What the manager reads: the sale, the day's takings (its count of flagged sales), the audit event.
    expect((await http(`/api/admin/sales/${body.saleId}`, { token: owner })).body.sale).toEqual(sale);
    const after = await summaryOf(day);
    expect(after.priceDiffers - before.priceDiffers).toBe(1);
    expect(Math.round((after.byMethod.cash - before.byMethod.cash) * 100)).toBe(7302);
    const [event] = await auditOf(`sales/${body.saleId}`);
    expect(event!.changes.priceDiffers).toEqual({ before: null, after: true });
    expect(event!.changes.lines.after).toEqual([
      { bookId: cheap!._id, quantity: 1, unitPriceCents: 1500, bookPriceCents: 2000 },
      { bookId: dearer!._id, quantity: 2, unitPriceCents: 1800, bookPriceCents: 2101 },
      { bookId: same!._id, quantity: 1, unitPriceCents: 2202 },
    ]);

    // A return gives back what was charged, and carries no flag of its own.
    const back = await http(`/api/admin/sales/${body.saleId}/returns`, { method: 'POST', token: bookseller, json: { returnId: randomUUID(), lines: [{ isbn: cheap!.isbn, quantity: 1 }], refundMethod: 'cash' } });
    expect(back.status).toBe(201);
    expect(back.body.return.total).toBe(15);
    expect(back.body.return.lines).toEqual([{ bookId: cheap!._id, isbn: cheap!.isbn, title: cheap!.title, quantity: 1, unitPrice: 15, lineTotal: 15 }]);
  });
});

describe('a soldAt the shop does not take', () => {
  it('10 minutes ahead or 8 days behind the shop\'s clock: 400 with its code, nothing stored, counted or taken; bad times and prices: 400', async () => {
    const [book] = await books(1, 5, 1250);
    const now = Date.now();
    // The takings of 8 days ago are nobody else's; today's, other files' too: there, this file's bookseller's line.
    const oldDay = shopDay(new Date(now - 8 * 24 * HOUR));
    const takings = Array.from({ length: TAKINGS_SHARDS }, (_, k) => db().collection(TAKINGS_COLLECTION).doc(takingsDocId(oldDay, k)));
    const todayBefore = mine(await summaryOf(shopDay(new Date(now))));
    const cases: [string, Record<string, unknown>, number, string?][] = [
      ['10 minutes ahead', { soldAt: new Date(now + 10 * 60_000).toISOString() }, 400, 'SOLD_AT_IN_THE_FUTURE'],
      ['8 days old', { soldAt: new Date(now - 8 * 24 * HOUR).toISOString() }, 400, 'SOLD_AT_TOO_OLD'],
      ['a soldAt that is no time', { soldAt: 'yesterday' }, 400],
      ['a soldAt without its zone', { soldAt: '2026-12-05T10:00:00' }, 400],
      ['a price of 3 decimals', { lines: [{ isbn: book!.isbn, quantity: 1, unitPrice: '12.505' }] }, 400],
      ['a negative price', { lines: [{ isbn: book!.isbn, quantity: 1, unitPrice: -1 }] }, 400],
      ['a price that is no number', { lines: [{ isbn: book!.isbn, quantity: 1, unitPrice: 'twelve' }] }, 400],
    ];
    for (const [name, change, status, code] of cases) {
      const body = { saleId: randomUUID(), lines: [{ isbn: book!.isbn, quantity: 1, unitPrice: '12.50' }], payment: { method: 'cash' }, soldAt: new Date(now).toISOString(), ...change };
      const scope = [db().collection('books').doc(book!._id), db().collection('sales').doc(body.saleId), db().collection('audit').where('target', '==', `sales/${body.saleId}`), ...takings];
      const res = await expectUnchangedIn(scope, () => sell(body));
      expect(res.status, name).toBe(status);
      expect(typeof res.body.message, name).toBe('string');
      if (code) expect(res.body, name).toMatchObject({ code, details: { soldAt: [res.body.message] } });
    }
    expect(await stockOf(book!._id)).toBe(5);
    expect(mine(await summaryOf(shopDay(new Date(now))))).toEqual(todayBefore);
    // 4 minutes ahead (a till's clock a little fast) and 6 days behind are taken.
    for (const soldAt of [new Date(now + 4 * 60_000), new Date(now - 6 * 24 * HOUR)]) {
      const res = await sell({ saleId: randomUUID(), lines: [{ isbn: book!.isbn, quantity: 1, unitPrice: '12.50' }], payment: { method: 'cash' }, soldAt: soldAt.toISOString() });
      expect(res.status).toBe(201);
      expect(res.body.sale.day).toBe(shopDay(soldAt));
    }
    expect(await stockOf(book!._id)).toBe(3);
  });
});
