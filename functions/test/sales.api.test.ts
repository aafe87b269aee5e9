import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertMailId } from '../src/subscriptions/stock-alerts.repo';
import { adminToken, db, http, makeBooks, NEEDS_TRANSACTIONS, newCustomer, officialBackend, randomIsbn13, removeBooks, stockOf, type TestBook, staffToken } from './helpers';

// Counter sales (issue 39) over HTTP, through Hosting to the function, on the real emulators. Each
// test sells its own books (with ISBNs of this run); the whole-database checks and the day's
// summary against a recount are in sales.serial.api.test.ts.

const PASSWORD = 'margins-and-footnotes-9';
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
type Book = TestBook & { isbn: string };

const made: TestBook[] = [];
afterAll(async () => removeBooks(made));

async function books(count: number, stock: number, priceCents = 1250): Promise<Book[]> {
  const list = (await makeBooks(count, stock, priceCents, { isbn: true })) as Book[];
  made.push(...list);
  return list;
}

let owner: string;
let bookseller: string;
beforeAll(async () => {
  owner = await adminToken();
  const username = `till-${RUN}`;
  bookseller = await staffToken(owner, { username, displayName: `Till ${RUN}`, role: 'bookseller', password: PASSWORD });
  // Warm-up: the tests below send up to 5 requests at once, each needing a Functions emulator
  // worker; booting them on a loaded machine belongs here, not in a test's own time budget.
  await Promise.all(Array.from({ length: 5 }, () => http('/api/admin/sales/books?limit=1', { token: bookseller })));
});

const sell = (token: string, body: Record<string, unknown>) => http('/api/admin/sales', { method: 'POST', token, json: body });
const saleOf = (lines: { isbn?: string; bookId?: string; quantity: number }[], payment: Record<string, unknown> = { method: 'cash' }, saleId = randomUUID()) => ({ saleId, lines, payment });
const auditOf = async (target: string) => (await db().collection('audit').where('target', '==', target).get()).docs.map((d) => d.data());
const storedSale = async (id: string) => (await db().collection('sales').doc(id).get()).data();

/** The ISBN-10 of an ISBN-13 that starts 978 (the same book, as a scanner of old barcodes reads it). */
function isbn10Of(isbn13: string): string {
  const body = isbn13.slice(3, 12);
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (10 - i), 0);
  const check = (11 - (sum % 11)) % 11;
  return body + (check === 10 ? 'X' : String(check));
}

describe('POST /api/admin/sales', () => {
  it('sells by ISBN-13, ISBN-10 and book id at the server\'s prices: 201, copies taken, one audit event; the same saleId again is 200 with the same sale', async () => {
    const [a, b, c] = await books(3, 5, 1999);
    const body = saleOf([{ isbn: a!.isbn, quantity: 2 }, { isbn: isbn10Of(b!.isbn), quantity: 1 }, { bookId: c!._id, quantity: 1 }]);
    const first = await sell(bookseller, body);
    expect(first.status).toBe(201);
    const sale = first.body.sale;
    expect(sale._id).toBe(body.saleId);
    // makeBooks prices each book 1999 + i * 101 cents.
    expect(sale.lines).toEqual([
      { bookId: a!._id, isbn: a!.isbn, title: a!.title, quantity: 2, unitPrice: 19.99, lineTotal: 39.98 },
      { bookId: b!._id, isbn: b!.isbn, title: b!.title, quantity: 1, unitPrice: 21, lineTotal: 21 },
      { bookId: c!._id, isbn: c!.isbn, title: c!.title, quantity: 1, unitPrice: 22.01, lineTotal: 22.01 },
    ]);
    expect(sale.total).toBe(82.99);
    expect(sale.payment).toEqual({ method: 'cash' });
    expect(sale.change).toBeUndefined();
    expect(sale.by).toEqual({ username: `till-${RUN}`, name: `Till ${RUN}` });
    expect(sale.returns).toEqual([]);
    expect(first.headers.get('cache-control')).toBe('private, no-store');
    expect([await stockOf(a!._id), await stockOf(b!._id), await stockOf(c!._id)]).toEqual([3, 4, 4]);
    const events = await auditOf(`sales/${body.saleId}`);
    expect(events).toHaveLength(1);
    // The book write path's one event for the whole sale, with each book's copies before and after.
    expect(events[0]).toMatchObject({
      actor: `till-${RUN}`, role: 'bookseller', action: 'sale.create',
      changes: { total: { before: null, after: 8299 }, stock: { before: { [a!._id]: 5, [b!._id]: 5, [c!._id]: 5 }, after: { [a!._id]: 3, [b!._id]: 4, [c!._id]: 4 } } },
    });
    // No book.stock events: the sale's own event records why the stock moved.
    expect((await Promise.all([a, b, c].map((x) => auditOf(`books/${x!._id}`)))).flat()).toEqual([]);

    const again = await sell(bookseller, body);
    expect(again.status).toBe(200);
    expect(again.body.sale).toEqual(sale);
    expect([await stockOf(a!._id), await stockOf(b!._id), await stockOf(c!._id)]).toEqual([3, 4, 4]);
    expect(await auditOf(`sales/${body.saleId}`)).toHaveLength(1);
  });

  it.skipIf(!officialBackend)(`the same saleId five times at once: one sale, one stock change${officialBackend ? '' : ` ${NEEDS_TRANSACTIONS}`}`, { timeout: 180_000 }, async () => {
    const [book] = await books(1, 4);
    const body = saleOf([{ isbn: book!.isbn, quantity: 3 }]);
    const first = await Promise.all(Array.from({ length: 5 }, () => sell(bookseller, body)));
    // Each is the sale (201 once, 200 after) or, when the emulator's locks keep it past its time
    // budget, 503 with nothing written: the counter sends that one again, as here, under the same id.
    expect(first.every((r) => [200, 201, 503].includes(r.status)), first.map((r) => r.status).join(' ')).toBe(true);
    const replies = [...first.filter((r) => r.status !== 503), ...(await Promise.all(first.filter((r) => r.status === 503).map(() => sell(bookseller, body))))];
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    for (const reply of replies) expect(reply.body.sale).toEqual(replies[0]!.body.sale);
    expect(await stockOf(book!._id)).toBe(1);
    expect(await auditOf(`sales/${body.saleId}`)).toHaveLength(1);
  });

  it('cash with an amount tendered answers the change; less than the total is 400 and sells nothing; the card terminal is recorded', async () => {
    const [book] = await books(1, 3, 1250);
    const cash = await sell(owner, saleOf([{ isbn: book!.isbn, quantity: 1 }], { method: 'cash', tendered: '20' }));
    expect(cash.status).toBe(201);
    expect(cash.body.sale).toMatchObject({ total: 12.5, payment: { method: 'cash', tendered: 20 }, change: 7.5 });

    const short = saleOf([{ isbn: book!.isbn, quantity: 1 }], { method: 'cash', tendered: 12.49 });
    const refused = await sell(owner, short);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: 'Amount tendered is less than the total ($12.50)', code: 'TENDERED_TOO_LOW' });
    expect(await storedSale(short.saleId)).toBeUndefined();
    expect(await stockOf(book!._id)).toBe(2);

    // Issue 57: a card-terminal sale names the till's reader (terminal-sales.api.test.ts pays one).
    const card = saleOf([{ isbn: book!.isbn, quantity: 1 }], { method: 'card_terminal' });
    const noReader = await sell(owner, card);
    expect(noReader.status).toBe(400);
    expect(noReader.body.code).toBe('READER_REQUIRED');
    expect(await storedSale(card.saleId)).toBeUndefined();
    const exact = await sell(owner, saleOf([{ isbn: book!.isbn, quantity: 1 }]));
    expect(exact.status).toBe(201);
    expect(exact.body.sale.change).toBeUndefined();
    expect(await stockOf(book!._id)).toBe(1);
  });

  it('not enough copies: 409 OUT_OF_STOCK naming the ISBNs, nothing taken from any line, no sale stored', async () => {
    const [plenty, few] = await books(2, 2);
    const body = saleOf([{ isbn: plenty!.isbn, quantity: 1 }, { isbn: few!.isbn, quantity: 3 }]);
    const res = await sell(bookseller, body);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Not enough copies in stock', code: 'OUT_OF_STOCK', isbns: [few!.isbn], bookIds: [few!._id] });
    expect([await stockOf(plenty!._id), await stockOf(few!._id)]).toEqual([2, 2]);
    expect(await storedSale(body.saleId)).toBeUndefined();
    expect(await auditOf(`sales/${body.saleId}`)).toEqual([]);
  });

  it('an ISBN no book has: 400 UNKNOWN_BOOKS; a saleId reused for another sale: 422, the first sale unchanged', async () => {
    const [book] = await books(1, 3);
    const unknown = randomIsbn13();
    const res = await sell(bookseller, saleOf([{ isbn: book!.isbn, quantity: 1 }, { isbn: unknown, quantity: 1 }]));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'UNKNOWN_BOOKS', isbns: [unknown] });
    expect(await stockOf(book!._id)).toBe(3);

    const body = saleOf([{ isbn: book!.isbn, quantity: 1 }]);
    expect((await sell(bookseller, body)).status).toBe(201);
    const before = await storedSale(body.saleId);
    const reused = await sell(bookseller, { ...body, lines: [{ isbn: book!.isbn, quantity: 2 }] });
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('SALE_ID_REUSED');
    expect(await storedSale(body.saleId)).toEqual(before);
    expect(await stockOf(book!._id)).toBe(2);
  });

  it('a customer\'s token is 401, no token 401; a manager and a bookseller may sell', async () => {
    const [book] = await books(1, 5);
    const customer = await newCustomer('counter');
    const body = saleOf([{ isbn: book!.isbn, quantity: 1 }]);
    for (const token of [customer.token, null]) {
      const res = await sell(token as string, body);
      expect(res.status).toBe(401);
      expect(typeof res.body.message).toBe('string');
    }
    expect(await storedSale(body.saleId)).toBeUndefined();
    expect(await stockOf(book!._id)).toBe(5);
    const summary = await http(`/api/admin/sales/summary?date=2026-01-01`, { token: customer.token });
    expect(summary.status).toBe(401);
  });
});

describe('returns at the counter', () => {
  it('takes copies back at the price sold, puts them in stock, one audit event per return; never more than was sold', async () => {
    const [a, b] = await books(2, 5, 1000);
    const sale = (await sell(bookseller, saleOf([{ isbn: a!.isbn, quantity: 3 }, { isbn: b!.isbn, quantity: 1 }]))).body.sale;
    expect([await stockOf(a!._id), await stockOf(b!._id)]).toEqual([2, 4]);
    const url = `/api/admin/sales/${sale._id}/returns`;

    const returnId = randomUUID();
    const first = await http(url, { method: 'POST', token: bookseller, json: { returnId, lines: [{ isbn: a!.isbn, quantity: 2 }], refundMethod: 'cash' } });
    expect(first.status).toBe(201);
    expect(first.body.return).toMatchObject({ _id: returnId, saleId: sale._id, total: 20, refundMethod: 'cash', lines: [{ bookId: a!._id, quantity: 2, unitPrice: 10, lineTotal: 20 }] });
    expect(first.body.sale.returns).toHaveLength(1);
    expect(await stockOf(a!._id)).toBe(4);
    // The same returnId again: the same return, nothing more back.
    const again = await http(url, { method: 'POST', token: bookseller, json: { returnId, lines: [{ isbn: a!.isbn, quantity: 2 }], refundMethod: 'cash' } });
    expect(again.status).toBe(200);
    expect(again.body.return).toEqual(first.body.return);
    expect(await stockOf(a!._id)).toBe(4);

    // Two more of `a` would be three of the three sold: refused whole, nothing changes.
    const over = await http(url, { method: 'POST', token: bookseller, json: { returnId: randomUUID(), lines: [{ isbn: b!.isbn, quantity: 1 }, { isbn: a!.isbn, quantity: 2 }], refundMethod: 'card_terminal' } });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 'RETURN_EXCEEDS_SALE', lines: [{ bookId: a!._id, isbn: a!.isbn, returnable: 1 }] });
    expect([await stockOf(a!._id), await stockOf(b!._id)]).toEqual([4, 4]);

    const notSold = await http(url, { method: 'POST', token: bookseller, json: { lines: [{ isbn: randomIsbn13(), quantity: 1 }], refundMethod: 'cash' } });
    expect(notSold.status).toBe(400);
    expect(notSold.body.code).toBe('NOT_ON_SALE');

    const rest = await http(url, { method: 'POST', token: owner, json: { returnId: randomUUID(), lines: [{ bookId: a!._id, quantity: 1 }, { isbn: b!.isbn, quantity: 1 }], refundMethod: 'card_terminal' } });
    expect(rest.status).toBe(201);
    expect(rest.body.return.total).toBe(21.01); // 10.00 + 11.01 (makeBooks prices the second book 101 cents more)
    expect([await stockOf(a!._id), await stockOf(b!._id)]).toEqual([5, 5]);
    const nothingLeft = await http(url, { method: 'POST', token: owner, json: { lines: [{ isbn: b!.isbn, quantity: 1 }], refundMethod: 'cash' } });
    expect(nothingLeft.status).toBe(409);

    const stored = (await http(`/api/admin/sales/${sale._id}`, { token: bookseller })).body.sale;
    expect(stored.returns.map((r: any) => [r.total, r.refundMethod])).toEqual([[20, 'cash'], [21.01, 'card_terminal']]);
    const events = await auditOf(`sales/${sale._id}`);
    expect(events.map((e) => e.action).sort()).toEqual(['sale.create', 'sale.return', 'sale.return']);

    const unknown = await http(`/api/admin/sales/${randomUUID()}/returns`, { method: 'POST', token: owner, json: { lines: [{ isbn: b!.isbn, quantity: 1 }], refundMethod: 'cash' } });
    expect(unknown.status).toBe(404);
  });

  it('a return of a sold-out book releases its back-in-stock alerts through the book write path: one mail, the alert gone, the stock in the return\'s event', async () => {
    const [book] = await books(1, 1);
    const sale = (await sell(bookseller, saleOf([{ isbn: book!.isbn, quantity: 1 }]))).body.sale;
    expect(await stockOf(book!._id)).toBe(0);
    // A reader waiting for it, as the book page's 'Notify me' stores one.
    const alertId = `${book!._id}_${RUN}`;
    await db().collection('stockAlerts').doc(alertId).set({ bookId: book!._id, email: `waiting-${RUN}@example.com`, emailKey: `waiting-${RUN}`, nonce: RUN, createdAt: new Date().toISOString(), unsubscribeUrl: 'http://127.0.0.1/unsubscribe' });

    const back = await http(`/api/admin/sales/${sale._id}/returns`, { method: 'POST', token: bookseller, json: { returnId: randomUUID(), lines: [{ isbn: book!.isbn, quantity: 1 }], refundMethod: 'cash' } });
    expect(back.status).toBe(201);
    expect(await stockOf(book!._id)).toBe(1);
    expect((await db().collection('stockAlerts').doc(alertId).get()).exists).toBe(false);
    const mail = db().collection('mail').doc(alertMailId(alertId, RUN));
    expect((await mail.get()).data()).toMatchObject({ to: `waiting-${RUN}@example.com` });
    await mail.delete();
    const events = (await auditOf(`sales/${sale._id}`)).filter((e) => e.action === 'sale.return');
    expect(events).toHaveLength(1);
    expect(events[0]!.changes.stock).toEqual({ before: { [book!._id]: 0 }, after: { [book!._id]: 1 } });
  });

  it.skipIf(!officialBackend)(`two returns of the last returnable copy at once: one is taken back${officialBackend ? '' : ` ${NEEDS_TRANSACTIONS}`}`, async () => {
    const [book] = await books(1, 1);
    const sale = (await sell(bookseller, saleOf([{ isbn: book!.isbn, quantity: 1 }]))).body.sale;
    const send = (returnId: string) => http(`/api/admin/sales/${sale._id}/returns`, { method: 'POST', token: bookseller, json: { returnId, lines: [{ isbn: book!.isbn, quantity: 1 }], refundMethod: 'cash' } });
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const replies = await Promise.all(ids.map(send));
    // A loser may be told to try again (503 BUSY: a transaction closed while it waited for the
    // sale's lock); the counter sends the same return again, as its queue does.
    for (const [i, reply] of replies.entries()) {
      if (reply.status === 503) {
        expect(reply.body.code).toBe('BUSY');
        replies[i] = await send(ids[i]!);
      }
    }
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await stockOf(book!._id)).toBe(1);
  });
});

describe('the counter\'s ISBN list', () => {
  it('pages every book\'s id, ISBN, title and price; `since` brings only what changed; one ISBN answers with its stock', async () => {
    const [book] = await books(1, 7, 1599);
    // A fresh edit through the API moves the book's updatedAt (makeBooks dates books in 2001).
    const since = new Date().toISOString();
    const edited = await http('/api/admin/books/bulk', { method: 'POST', token: owner, json: { action: 'price', ids: [book!._id], newPrice: '16.49' } });
    expect(edited.status).toBe(200);
    const changed = await http(`/api/admin/sales/books?since=${encodeURIComponent(since)}&limit=1000`, { token: bookseller });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('cache-control')).toBe('private, no-store');
    expect(changed.body.books).toContainEqual(expect.objectContaining({ _id: book!._id, isbn: book!.isbn, title: book!.title, price: 16.49 }));
    expect(changed.body.books.every((b: any) => b.updatedAt >= since)).toBe(true);

    // Pages of 2 from the start: each page picks up after the last, no book twice.
    const seen = new Set<string>();
    let cursor: string | null = null;
    for (let page = 0; page < 3; page++) {
      const res: any = await http(`/api/admin/sales/books?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: bookseller });
      expect(res.status).toBe(200);
      expect(res.body.books).toHaveLength(2);
      for (const b of res.body.books) {
        expect(seen.has(b._id)).toBe(false);
        seen.add(b._id);
      }
      cursor = res.body.nextCursor;
      expect(cursor).toBeTruthy();
    }

    // What a device downloads per book (the figure behind decision 039's 1.2 MB at 10,000 books).
    const sample = (await http('/api/admin/sales/books?limit=200', { token: bookseller })).body.books;
    console.log(`counter book list: ${Math.round(JSON.stringify(sample).length / sample.length)} bytes of JSON per book (${sample.length} books sampled)`);

    const one = await http(`/api/admin/sales/books/${isbn10Of(book!.isbn)}`, { token: bookseller });
    expect(one.status).toBe(200);
    expect(one.body.book).toMatchObject({ _id: book!._id, isbn: book!.isbn, price: 16.49, stock: 7 });
    const none = await http(`/api/admin/sales/books/${randomIsbn13()}`, { token: bookseller });
    expect(none.status).toBe(404);
    expect(none.body.code).toBe('NO_BOOK_WITH_ISBN');
    const bad = await http('/api/admin/sales/books/9780306406158', { token: bookseller });
    expect(bad.status).toBe(400);
    expect((await http('/api/admin/sales/books?cursor=nope!', { token: bookseller })).status).toBe(400);
  });
});
