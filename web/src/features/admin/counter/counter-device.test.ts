import 'fake-indexeddb/auto';
import { SaleInputSchema, type CounterBook, type CounterBooksPage, type Sale } from '@bookstore/contract';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { DELTA_EVERY_MS, FULL_EVERY_MS, OVERLAP_MS, PAGE_SIZE, syncCounterBooks, type FetchPage } from './counter-books-sync';
import { bookByIsbn, countBooks, counterDb, putQueued, queuedSales, readSyncState, resetCounterDbForTests, type QueuedSale } from './counter-store';
import { adviceFor, bodyToSend, flushQueue } from './sale-queue';

// The device side of the counter (issue 39) on an in-memory IndexedDB: the book list's full and
// delta copies stay bounded per request and follow the catalogue; the queue sends each sale until the
// server has it, keeps what it cannot send, and marks what the server refuses.

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  resetCounterDbForTests();
});

const book = (n: number, over: Partial<CounterBook> = {}): CounterBook => ({
  _id: `b${String(n).padStart(5, '0')}`, isbn: `978${String(n).padStart(10, '0')}`, title: `Book ${n}`, price: 10, updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(), ...over,
});

/** A catalogue served in (updatedAt, id) order, as GET /api/admin/sales/books pages it; records each request. */
function server(catalogue: CounterBook[]) {
  const requests: { since?: string; cursor?: string; limit: number }[] = [];
  const fetchPage: FetchPage = async (request) => {
    requests.push(request);
    const sorted = [...catalogue].sort((a, b) => a.updatedAt.localeCompare(b.updatedAt) || a._id.localeCompare(b._id));
    const from = sorted.filter((b) => !request.since || b.updatedAt >= request.since);
    const start = request.cursor ? from.findIndex((b) => b._id === request.cursor) + 1 : 0;
    const page = from.slice(start, start + request.limit);
    return { books: page, nextCursor: page.length === request.limit ? page[page.length - 1]!._id : null } satisfies CounterBooksPage;
  };
  return { fetchPage, requests };
}

describe('the device\'s book list', () => {
  it('copies the catalogue once in bounded pages, then asks only for what changed; a day later a full copy drops deleted books', async () => {
    const catalogue = Array.from({ length: 1_203 }, (_, i) => book(i + 1));
    catalogue.push(book(5_000, { isbn: null })); // no ISBN: never kept
    const { fetchPage, requests } = server(catalogue);
    const db = await counterDb();
    const t0 = Date.UTC(2026, 0, 2);

    const first = await syncCounterBooks(db, fetchPage, t0);
    expect(first).toMatchObject({ kind: 'full', pages: 3 });
    expect(requests.every((r) => r.limit === PAGE_SIZE && r.since === undefined)).toBe(true);
    expect(await countBooks(db)).toBe(1_203);
    expect((await bookByIsbn(db, book(42).isbn!))?.title).toBe('Book 42');

    // A price change and a new book: the next copy asks from the newest change seen, less the overlap.
    const newest = catalogue.map((b) => b.updatedAt).sort().at(-1)!; // books without an ISBN move it too
    catalogue[41] = book(42, { price: 12.5, updatedAt: '2026-01-02T00:01:00.000Z' });
    catalogue.push(book(6_000, { updatedAt: '2026-01-02T00:02:00.000Z' }));
    requests.length = 0;
    const delta = await syncCounterBooks(db, fetchPage, t0 + DELTA_EVERY_MS);
    expect(delta.kind).toBe('delta');
    expect(requests).toEqual([{ since: new Date(Date.parse(newest) - OVERLAP_MS).toISOString(), limit: PAGE_SIZE }]);
    expect((await bookByIsbn(db, book(42).isbn!))?.price).toBe(12.5);
    expect(await bookByIsbn(db, book(6_000).isbn!)).toBeDefined();

    // An ISBN cleared reaches the device as a changed book without one: it leaves the list.
    catalogue[9] = book(10, { isbn: null, updatedAt: '2026-01-02T00:03:00.000Z' });
    await syncCounterBooks(db, fetchPage, t0 + 2 * DELTA_EVERY_MS);
    expect(await bookByIsbn(db, book(10).isbn!)).toBeUndefined();

    // A deleted book is not in any delta; the day's full copy removes it.
    catalogue.splice(99, 1); // book 100
    await syncCounterBooks(db, fetchPage, t0 + 3 * DELTA_EVERY_MS);
    expect(await bookByIsbn(db, book(100).isbn!)).toBeDefined();
    const full = await syncCounterBooks(db, fetchPage, t0 + FULL_EVERY_MS);
    expect(full.kind).toBe('full');
    expect(await bookByIsbn(db, book(100).isbn!)).toBeUndefined();
    expect(await countBooks(db)).toBe(1_202); // 1,203 + 1 new - 1 without ISBN - 1 deleted
    expect((await readSyncState(db)).fullAt).toBe(t0 + FULL_EVERY_MS);
  });

  it('a copy that fails half-way saves nothing of its progress: the next one starts that copy again', async () => {
    const catalogue = Array.from({ length: 700 }, (_, i) => book(i + 1));
    const { fetchPage } = server(catalogue);
    const db = await counterDb();
    let calls = 0;
    const flaky: FetchPage = async (r) => {
      calls += 1;
      if (calls === 2) throw new ApiError('FETCH_ERROR', 'offline');
      return fetchPage(r);
    };
    await expect(syncCounterBooks(db, flaky, 1)).rejects.toThrow('offline');
    expect((await readSyncState(db)).fullAt).toBeNull();
    expect((await syncCounterBooks(db, flaky, 2)).kind).toBe('full');
    expect(await countBooks(db)).toBe(700);
  });
});

const queued = (n: number): QueuedSale => ({
  saleId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  body: { saleId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, lines: [{ bookId: 'b1', quantity: 1 }], payment: { method: 'cash' } },
  lines: [{ title: 'Book 1', isbn: '9780000000001', quantity: 1, unitPrice: 10 }],
  total: 10,
  queuedAt: new Date(Date.UTC(2026, 0, 1, 10, n)).toISOString(),
  state: 'waiting',
});

const saleFor = (q: QueuedSale) => ({ _id: q.saleId, total: q.total }) as Sale;

describe('the sale queue', () => {
  it('sends waiting sales oldest first, each until the server has it; stops at the first that cannot be sent now', async () => {
    const db = await counterDb();
    for (const n of [3, 1, 2]) await putQueued(db, queued(n));
    const sent: string[] = [];
    let online = true;
    const send = async (q: QueuedSale) => {
      if (!online) throw new ApiError('FETCH_ERROR', 'Could not reach the server');
      sent.push(q.saleId);
      if (sent.length === 2) online = false; // the network drops after two
      return saleFor(q);
    };
    const synced: Sale[] = [];
    expect(await flushQueue(db, send, (s) => synced.push(s))).toEqual({ sent: 2, waiting: 1 });
    expect(sent).toEqual([queued(1).saleId, queued(2).saleId]);
    expect(synced.map((s) => s._id)).toEqual(sent);
    expect((await queuedSales(db)).map((s) => [s.saleId, s.state])).toEqual([[queued(3).saleId, 'waiting']]);

    online = true;
    expect(await flushQueue(db, send)).toEqual({ sent: 1, waiting: 0 });
    expect(await queuedSales(db)).toEqual([]);
  });

  it('a sale the server refuses is kept, marked, with what to do; a 503 or an expired session leaves it waiting', async () => {
    const db = await counterDb();
    await putQueued(db, queued(1));
    await putQueued(db, queued(2));
    const refuse = async () => {
      throw new ApiError(409, 'Not enough copies in stock', { message: 'Not enough copies in stock', code: 'OUT_OF_STOCK', isbns: ['9780000000001'] } as never);
    };
    expect(await flushQueue(db, refuse)).toEqual({ sent: 0, waiting: 0 });
    const [first] = await queuedSales(db);
    expect(first).toMatchObject({ state: 'refused', problem: { message: 'Not enough copies in stock' } });
    expect(first!.problem!.advice).toContain('ISBN 9780000000001');
    expect(first!.problem!.advice).toContain('Send Again');

    await putQueued(db, queued(3));
    for (const error of [new ApiError(503, 'Busy'), new ApiError(401, 'Invalid or expired admin token')]) {
      expect(await flushQueue(db, async () => { throw error; })).toEqual({ sent: 0, waiting: 1 });
    }
  });
});

describe('what the queue sends (issue 54)', () => {
  it('a sale made now carries its time and the prices the till showed; one queued before carries its receipt\'s time and no prices', () => {
    const made: QueuedSale = {
      ...queued(4),
      body: { ...queued(4).body, lines: [{ bookId: 'b1', quantity: 2, unitPrice: '12.50' }], soldAt: '2026-01-01T10:04:00.000Z' },
    };
    expect(bodyToSend(made)).toEqual(made.body);
    // Stored by the counter before issue 54: neither soldAt nor unitPrice in its body.
    const old = queued(5);
    const sent = bodyToSend(old);
    expect(sent).toEqual({ ...old.body, soldAt: old.queuedAt });
    // Its lines as before: the shop knows the sale again by them if it was sent already.
    expect(SaleInputSchema.parse(sent).lines).toEqual(SaleInputSchema.parse(old.body).lines);
    expect(SaleInputSchema.parse(bodyToSend(made))).toMatchObject({ soldAt: '2026-01-01T10:04:00.000Z', lines: [{ bookId: 'b1', quantity: 2, unitPrice: 1250 }] });
  });

  it('a sale the shop refuses for its time says what to do', () => {
    const refused = (code: string) => adviceFor(new ApiError(400, 'soldAt', { message: 'soldAt', code } as never));
    expect(refused('SOLD_AT_TOO_OLD')).toContain('more than 7 days ago');
    expect(refused('SOLD_AT_IN_THE_FUTURE')).toContain("clock");
  });
});
