import { randomUUID } from 'node:crypto';
import { toCsv } from '@bookstore/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { adminToken, base, db, expectUnchangedIn, http, NEEDS_TRANSACTIONS, newBook, newCustomer, officialBackend, randomIsbn13, validOrder } from './helpers';

// Unlisted books (issue 56, decision 056) over HTTP to the real function on the emulators: copies
// received of an ISBN the catalogue does not list are counted on an unlisted book (one, however
// often or concurrently the receipt is sent), which no shopper reaches (lists, search, sitemap, the
// served book page, an order), staff list, and the book created with that ISBN takes over, once.
// The stock's value with them: purchasing.serial.api.test.ts (shop-wide).

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
/** A word of this run's own (letters only), so a search finds only this file's books. */
const WORD = `wombat${RUN.replace(/[0-9]/g, '')}`;
const madeViaApi: string[] = [];
afterAll(async () => {
  const token = await adminToken();
  for (const id of madeViaApi) await http(`/api/books/${id}`, { method: 'DELETE', token });
});

const receive = async (json: Record<string, unknown>, token?: string) => http('/api/admin/receipts', { method: 'POST', token: token ?? (await adminToken()), json });
const unlistedDoc = (isbn: string) => db().collection('unlistedBooks').doc(isbn);
const unlisted = async (isbn: string) => (await unlistedDoc(isbn).get()).data();
const cost = async (id: string) => (await db().collection('bookCosts').doc(id).get()).data()?.avgCostCents as number | undefined;

/** A book created in Manage Books (POST /api/books/create-book, the write path). */
async function createBook(over: Record<string, unknown>) {
  const res = await http('/api/books/create-book', { method: 'POST', token: await adminToken(), json: newBook({ title: `Listed ${RUN} ${Math.random().toString(36).slice(2, 6)}`, ...over }) });
  if (res.status === 201) madeViaApi.push(res.body.book._id);
  return res;
}

async function searchUntil(q: string, done: (books: { _id: string; title: string; isbn?: string }[]) => boolean) {
  for (let attempt = 0; ; attempt += 1) {
    const found = ((await http(`/api/books/search?q=${encodeURIComponent(q)}`)).body.books ?? []) as { _id: string; title: string; isbn?: string }[];
    if (done(found) || attempt >= 120) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('receiving an ISBN the catalogue does not list', () => {
  it('counts its copies on one unlisted book, titled by the line, its cost kept apart; the answer says so; one audit event', async () => {
    const isbn = randomIsbn13();
    const receiptId = randomUUID();
    const res = await receive({ receiptId, lines: [{ isbn, quantity: 3, unitCost: 8, title: `The ${WORD} Almanac` }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.receipt).toEqual({ _id: receiptId, lines: [{ isbn, received: 3, toSpecialOrders: 0, toPreorders: 0, toShelf: 3, unlisted: true }] });
    expect(await unlisted(isbn)).toMatchObject({ isbn, title: `The ${WORD} Almanac`, stock: 3 });
    expect(JSON.stringify(await unlisted(isbn))).not.toMatch(/cost/i);
    expect(await cost(`unlisted:${isbn}`)).toBe(800);
    expect((await db().collection('books').where('isbn', '==', isbn).get()).empty).toBe(true);
    const events = (await db().collection('audit').where('target', '==', `receipts/${receiptId}`).get()).docs.map((d) => d.data());
    expect(events).toHaveLength(1);
    expect(events[0]!.changes.stock).toEqual({ before: { [`unlistedBooks/${isbn}`]: 0 }, after: { [`unlistedBooks/${isbn}`]: 3 } });

    // More copies later, without a title: the same book, its average cost moved ((3 x 8 + 1 x 12) / 4 = 9).
    expect((await receive({ receiptId: randomUUID(), lines: [{ isbn, quantity: 1, unitCost: 12 }] })).status).toBe(201);
    expect(await unlisted(isbn)).toMatchObject({ title: `The ${WORD} Almanac`, stock: 4 });
    expect(await cost(`unlisted:${isbn}`)).toBe(900);

    // Without a title at all: named by its ISBN (no network lookup inside the receipt's transaction).
    const bare = randomIsbn13();
    expect((await receive({ receiptId: randomUUID(), lines: [{ isbn: bare, quantity: 2 }] })).status).toBe(201);
    expect(await unlisted(bare)).toMatchObject({ title: `Unlisted ISBN ${bare}`, stock: 2 });
  });

  it.skipIf(!officialBackend)(`a receipt sent 5 times at once is one receipt and one book; two receipts at once add up ${officialBackend ? '' : NEEDS_TRANSACTIONS}`, async () => {
    const isbn = randomIsbn13();
    const receiptId = randomUUID();
    const line = { isbn, quantity: 3, unitCost: 5, title: `Five at once ${RUN}` };
    const answers = await Promise.all(Array.from({ length: 5 }, () => receive({ receiptId, lines: [line] })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 201]);
    for (const a of answers) expect(a.body.receipt.lines).toEqual([{ isbn, received: 3, toSpecialOrders: 0, toPreorders: 0, toShelf: 3, unlisted: true }]);
    expect(await unlisted(isbn)).toMatchObject({ stock: 3 });
    expect((await db().collection('unlistedBooks').where('isbn', '==', isbn).get()).size).toBe(1);
    expect((await db().collection('audit').where('target', '==', `receipts/${receiptId}`).get()).size).toBe(1);

    const other = randomIsbn13();
    const both = await Promise.all([2, 4].map((quantity) => receive({ receiptId: randomUUID(), lines: [{ isbn: other, quantity }] })));
    expect(both.map((a) => a.status)).toEqual([201, 201]);
    expect(await unlisted(other)).toMatchObject({ stock: 6 });
  });

  it('a bad check digit is still 400 naming the field; nothing made', async () => {
    const isbn = randomIsbn13();
    const bad = `${isbn.slice(0, 12)}${(Number(isbn[12]) + 1) % 10}`;
    const receiptId = randomUUID();
    await expectUnchangedIn([unlistedDoc(isbn), unlistedDoc(bad), db().collection('receipts').doc(receiptId)], async () => {
      const res = await receive({ receiptId, lines: [{ isbn: bad, quantity: 1, title: 'Bad digit' }] });
      expect([res.status, Object.keys(res.body.details ?? {})]).toEqual([400, ['lines.0.isbn']]);
    });
  });
});

describe('an unlisted book never reaches a shopper', () => {
  it('is in no list, no search, no sitemap; its page is 404; an order for it is refused; Firestore is closed to it', async () => {
    const isbn = randomIsbn13();
    const title = `The ${WORD} Hidden Atlas`;
    expect((await receive({ receiptId: randomUUID(), lines: [{ isbn, quantity: 2, unitCost: 6, title }] })).status).toBe(201);
    const leaks = (books: { _id: string; title: string; isbn?: string }[]) => books.filter((b) => b._id === isbn || b.isbn === isbn || b.title === title);

    // Lists: the newest books (it would be first), by category, a page further.
    const newest = (await http('/api/books?limit=24')).body as { _id: string; title: string; isbn?: string }[];
    expect(newest.length).toBeGreaterThan(0);
    expect(leaks(newest)).toEqual([]);
    for (const path of ['/api/books?category=Fiction&limit=24', `/api/books?limit=24&after=${newest[newest.length - 1]!._id}`]) {
      const res = await http(path);
      expect(res.status, path).toBe(200);
      expect(leaks(res.body), path).toEqual([]);
    }
    expect((await http(`/api/books/${isbn}`)).status).toBe(404);

    // Search: a listed book of the same word is found once the index holding it is published; the unlisted one is not.
    const listed = await createBook({ title: `A ${WORD} Field Guide` });
    expect(listed.status).toBe(201);
    const found = await searchUntil(WORD, (books) => books.some((b) => b._id === listed.body.book._id));
    expect(found.map((b) => b._id)).toContain(listed.body.book._id);
    expect(leaks(found)).toEqual([]);
    expect(leaks(await searchUntil(isbn, () => true))).toEqual([]);

    // Sitemaps: every file the index names.
    const index = await (await fetch(`${base()}/sitemap.xml`)).text();
    const files = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const xml = await (await fetch(`${base()}${file}`)).text();
      expect(xml, file).toContain('<urlset');
      expect(xml, file).not.toContain(isbn);
    }

    // The served book page.
    const page = await fetch(`${base()}/books/${isbn}`);
    expect(page.status).toBe(404);
    expect(await page.text()).not.toContain(title);

    // A web order naming it: refused, nothing taken.
    const shopper = await newCustomer('unlisted-order');
    await expectUnchangedIn([unlistedDoc(isbn), db().collection('orders').where('uid', '==', shopper.uid)], async () => {
      const order = await http('/api/orders', { method: 'POST', token: shopper.token, json: validOrder(shopper.email, [{ _id: isbn, newPrice: 6 }]) });
      expect(order.status).toBe(400);
      expect(order.body).toMatchObject({ code: 'UNKNOWN_BOOKS' });
    });
  });
});

describe('staff see unlisted books and list them in the catalogue', () => {
  it('GET /api/admin/unlisted-books: every receiving role, paged, titles and copies and no cost; a shopper and a stranger cannot', async () => {
    const isbns = [randomIsbn13(), randomIsbn13(), randomIsbn13()];
    for (const [i, isbn] of isbns.entries()) expect((await receive({ receiptId: randomUUID(), lines: [{ isbn, quantity: i + 1, unitCost: 3, title: `Paged ${RUN} ${i}` }] })).status).toBe(201);
    const seen: { isbn: string; title: string; stock: number }[] = [];
    let cursor = '';
    for (let page = 0; page < 200 && !isbns.every((isbn) => seen.some((b) => b.isbn === isbn)); page++) {
      const res = await http(`/api/admin/unlisted-books?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: await adminToken() });
      expect(res.status).toBe(200);
      expect(res.body.unlistedBooks.length).toBeLessThanOrEqual(2);
      expect(JSON.stringify(res.body)).not.toMatch(/cost/i);
      seen.push(...res.body.unlistedBooks);
      if (!res.body.nextCursor) break;
      cursor = res.body.nextCursor;
    }
    for (const [i, isbn] of isbns.entries()) expect(seen.filter((b) => b.isbn === isbn)).toEqual([expect.objectContaining({ title: `Paged ${RUN} ${i}`, stock: i + 1 })]);

    const bookseller = await bookseller_();
    expect((await http('/api/admin/unlisted-books?limit=5', { token: bookseller })).status).toBe(200);
    const shopper = await newCustomer('unlisted-list');
    expect((await http('/api/admin/unlisted-books', { token: shopper.token })).status).toBe(401);
    expect((await http('/api/admin/unlisted-books')).status).toBe(401);
    const bad = await http('/api/admin/unlisted-books?limit=0', { token: bookseller });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.details ?? {})).toEqual(['limit']);
  });

  it('creating the book with that ISBN takes its copies and cost over, once; the next delivery goes to the book', async () => {
    const isbn = randomIsbn13();
    expect((await receive({ receiptId: randomUUID(), lines: [{ isbn, quantity: 3, unitCost: 8, title: `Carried ${RUN}` }] })).status).toBe(201);
    const created = await createBook({ isbn, stock: 1, title: `Carried ${RUN}` });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.book._id as string;
    expect(created.body.book.stock).toBe(4); // the 1 the form said and the 3 received
    expect((await db().collection('books').doc(id).get()).data()).toMatchObject({ stock: 4, inStock: true, isbn });
    expect(await unlisted(isbn)).toBeUndefined();
    expect(await cost(`unlisted:${isbn}`)).toBeUndefined();
    expect(await cost(id)).toBe(800); // the form's copy has no cost: the received ones' average
    // The create's audit event shows the stock it was made with.
    const audit = (await db().collection('audit').where('target', '==', `books/${id}`).get()).docs.map((d) => d.data());
    expect(audit).toHaveLength(1);
    expect(audit[0]!.changes.stock).toEqual({ before: null, after: 4 });
    // Now for sale, with its copies.
    expect((await http(`/api/books/${id}`)).body).toMatchObject({ stock: 4 });

    // Once: a second book with the same ISBN (a hand-made duplicate) gets nothing; the next delivery is the listed book's.
    const twin = await createBook({ isbn, stock: 0 });
    expect(twin.status).toBe(201);
    expect(twin.body.book.stock).toBe(0);
    const next = await receive({ receiptId: randomUUID(), lines: [{ isbn, quantity: 2, unitCost: 11 }] });
    expect(next.status).toBe(201);
    expect(next.body.receipt.lines[0]).not.toHaveProperty('unlisted');
    expect(await unlisted(isbn)).toBeUndefined();
    const stocks = (await Promise.all([id, twin.body.book._id].map((b) => db().collection('books').doc(b).get()))).map((s) => s.data()!.stock);
    expect(stocks[0]! + stocks[1]!).toBe(6);
  });

  it('an edit that gives a book the ISBN takes the copies over too', async () => {
    const isbn = randomIsbn13();
    expect((await receive({ receiptId: randomUUID(), lines: [{ isbn, quantity: 2, title: `Edited ${RUN}` }] })).status).toBe(201);
    const created = await createBook({ stock: 5 });
    expect(created.status).toBe(201);
    const { _id, createdAt: _c, updatedAt: _u, ...body } = created.body.book;
    const edited = await http(`/api/books/edit/${_id}`, { method: 'PUT', token: await adminToken(), json: { ...body, isbn } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await db().collection('books').doc(_id).get()).data()).toMatchObject({ stock: 7, isbn });
    expect(await unlisted(isbn)).toBeUndefined();
  });

  it('an import that creates the book takes the copies over too', async () => {
    const isbn = randomIsbn13();
    expect((await receive({ receiptId: randomUUID(), lines: [{ isbn, quantity: 2, unitCost: 4, title: `Imported ${RUN}` }] })).status).toBe(201);
    const csv = toCsv([
      ['title', 'description', 'category', 'oldPrice', 'newPrice', 'stock', 'isbn', 'coverImage'],
      [`Imported ${RUN}`, 'Listed by the import.', 'fiction', '20', '15', '1', isbn, 'book-1'],
    ]);
    const res = await http('/api/books/import', { method: 'POST', body: csv, headers: { 'Content-Type': 'text/csv' }, token: await adminToken() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ created: 1 });
    const [book] = (await db().collection('books').where('isbn', '==', isbn).get()).docs;
    madeViaApi.push(book!.id);
    expect(book!.data()).toMatchObject({ stock: 3 });
    expect(await unlisted(isbn)).toBeUndefined();
    expect(await cost(book!.id)).toBe(400);
  });

  it.skipIf(!officialBackend)(`two books created with the ISBN at once share its copies exactly once ${officialBackend ? '' : NEEDS_TRANSACTIONS}`, async () => {
    const isbn = randomIsbn13();
    expect((await receive({ receiptId: randomUUID(), lines: [{ isbn, quantity: 3, title: `Raced ${RUN}` }] })).status).toBe(201);
    const both = await Promise.all([createBook({ isbn, stock: 0 }), createBook({ isbn, stock: 0 })]);
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    expect(both.map((r) => r.body.book.stock as number).sort()).toEqual([0, 3]);
    expect(await unlisted(isbn)).toBeUndefined();
  });
});

/** A bookseller's token (every receiving role may list unlisted books). */
async function bookseller_(): Promise<string> {
  const username = `unlisted-till-${RUN}`;
  const password = 'unlisted-desk-7-owl-lamp';
  const created = await http('/api/admin/staff', { method: 'POST', token: await adminToken(), json: { username, displayName: `Unlisted Till ${RUN}`, role: 'bookseller', password } });
  expect(created.status).toBe(201);
  return (await http('/api/auth/admin', { method: 'POST', json: { username, password } })).body.token;
}
