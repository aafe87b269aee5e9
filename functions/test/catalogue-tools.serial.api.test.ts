import { toIsbn13 } from '@bookstore/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { SHOP_URL } from '../../scripts/lib/env';
import { jsonLdOf, schemaOrgBookProblems } from './schema-org-book';
import { adminToken, base, bucket, coverForm, db, expectUnchanged, http, makeBooks, newBook, PNG_1x1, removeBooks, type TestBook } from './helpers';

// Issue 26 over HTTP through Hosting: a book page with every detail (the `pages` function) and its
// JSON-LD checked against schema.org's Book; Manage Books' bulk changes (one request, one audit
// event per book changed); covers attached by ISBN (the import page's bulk covers).

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const PASSWORD = 'margins-and-footnotes-9';
const made: TestBook[] = [];
afterAll(async () => {
  await removeBooks(made);
});

const STAMP = String(Date.now() % 1e5).padStart(5, '0');
function isbnOf(n: number): string {
  const body = `97913${STAMP}${String(n % 100).padStart(2, '0')}`.slice(0, 12);
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + ((10 - (sum % 10)) % 10);
}

/** A random ISBN-10 of this run (and so its own ISBN-13). */
function randomIsbn10(): string {
  const body = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10)).join('');
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (10 - i), 0);
  const check = (11 - (sum % 11)) % 11;
  return body + (check === 10 ? 'X' : String(check));
}

const auditOf = async (id: string) => (await db().collection('audit').where('target', '==', `books/${id}`).get()).docs.map((d) => d.data());

async function staffToken(role: 'bookseller' | 'manager'): Promise<string> {
  const username = `tools-${role}-${RUN}`;
  const made = await http('/api/admin/staff', { method: 'POST', token: await adminToken(), json: { username, displayName: `Tools ${role}`, role, password: PASSWORD } });
  if (made.status !== 201 && made.status !== 409) throw new Error(`staff ${username}: ${made.status}`);
  return (await http('/api/auth/admin', { method: 'POST', json: { username, password: PASSWORD } })).body.token;
}

describe('a book page with every detail', () => {
  it('shows the details list and JSON-LD valid for schema.org\'s Book', async () => {
    const created = await http('/api/books/create-book', {
      method: 'POST', token: await adminToken(),
      json: newBook({ title: `Detailed ${RUN}`, isbn: isbnOf(1), publisher: 'Harbour Light Press', publishedOn: '2004-03', pages: 288, format: 'paperback', language: 'fr', stock: 5 }),
    });
    expect(created.status).toBe(201);
    const book = created.body.book;
    expect(book).toMatchObject({ publisher: 'Harbour Light Press', publishedOn: '2004-03', pages: 288, format: 'paperback', language: 'fr' });
    const res = await fetch(`${base()}/books/${book._id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const text = html.replace(/<[^>]+>/g, '|');
    for (const [term, value] of [['ISBN', isbnOf(1)], ['Publisher', 'Harbour Light Press'], ['Publication date', 'March 2004'], ['Pages', '288'], ['Format', 'Paperback'], ['Language', 'French']]) {
      expect(text).toContain(`|${term}||${value}|`);
    }
    const [ld] = jsonLdOf(html);
    expect(ld).toMatchObject({ isbn: isbnOf(1), numberOfPages: 288, bookFormat: 'https://schema.org/Paperback', inLanguage: 'fr', publisher: { '@type': 'Organization', name: 'Harbour Light Press' }, datePublished: '2004-03' });
    expect(schemaOrgBookProblems(ld!)).toEqual([]);
  });
});

describe('robots.txt', () => {
  it('names the sitemap with the absolute URL of the configured origin (the emulators\' Hosting here)', async () => {
    const res = await fetch(`${base()}/robots.txt`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(`Sitemap: ${SHOP_URL}/sitemap.xml`);
    expect(text).toContain('Disallow: /dashboard');
    expect((await fetch(`${base()}/sitemap.xml`)).status).toBe(200);
  });
});

describe('POST /api/admin/books/bulk', () => {
  it('sets the price of several books in one request, one audit event per book changed', async () => {
    const books = await makeBooks(3, 5, 1000);
    made.push(...books);
    const token = await adminToken();
    await http('/api/admin/books/bulk', { method: 'POST', token, json: { action: 'price', ids: [books[0]!._id], newPrice: '8.25' } });
    const res = await http('/api/admin/books/bulk', { method: 'POST', token, json: { action: 'price', ids: books.map((b) => b._id), newPrice: '8.25' } });
    expect(res.status).toBe(200);
    // The first book was already at 8.25: not changed, no second event.
    expect(res.body).toEqual({ message: '2 books repriced', changed: [books[1]!._id, books[2]!._id], missing: [] });
    for (const b of books) {
      expect((await db().collection('books').doc(b._id).get()).data()).toMatchObject({ newPriceCents: 825 });
      const events = await auditOf(b._id);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ action: 'book.price', changes: { newPriceCents: { before: expect.any(Number), after: 825 } } });
    }
  });

  it('sets the stock (and the in-stock flag) and deletes, reporting books already gone', async () => {
    const books = await makeBooks(3, 2);
    made.push(...books);
    const token = await adminToken();
    const stock = await http('/api/admin/books/bulk', { method: 'POST', token, json: { action: 'stock', ids: books.map((b) => b._id), stock: 0 } });
    expect(stock.body.changed).toHaveLength(3);
    for (const b of books) expect((await db().collection('books').doc(b._id).get()).data()).toMatchObject({ stock: 0, inStock: false });
    await db().collection('books').doc(books[2]!._id).delete();
    const del = await http('/api/admin/books/bulk', { method: 'POST', token, json: { action: 'delete', ids: books.map((b) => b._id) } });
    expect(del.body).toEqual({ message: '2 books deleted', changed: [books[0]!._id, books[1]!._id], missing: [books[2]!._id] });
    for (const b of books) expect((await db().collection('books').doc(b._id).get()).exists).toBe(false);
    expect((await auditOf(books[0]!._id)).map((e) => e.action).sort()).toEqual(['book.delete', 'book.stock']);
  });

  it('a bookseller may set the stock but not the price nor delete: 403, nothing changed', async () => {
    const books = await makeBooks(2, 4);
    made.push(...books);
    const token = await staffToken('bookseller');
    for (const json of [{ action: 'price', ids: books.map((b) => b._id), newPrice: 1 }, { action: 'delete', ids: books.map((b) => b._id) }]) {
      const res = await expectUnchanged(() => http('/api/admin/books/bulk', { method: 'POST', token, json }));
      expect(res.status).toBe(403);
    }
    const ok = await http('/api/admin/books/bulk', { method: 'POST', token, json: { action: 'stock', ids: books.map((b) => b._id), stock: 9 } });
    expect(ok.status).toBe(200);
  });

  it('refuses a bad body with 400 and changes nothing; anonymous 401', async () => {
    const token = await adminToken();
    for (const json of [{ action: 'price', ids: ['x'], newPrice: -1 }, { action: 'stock', ids: [], stock: 1 }, { action: 'rename', ids: ['x'] }, { action: 'delete', ids: ['../x'] }]) {
      const res = await expectUnchanged(() => http('/api/admin/books/bulk', { method: 'POST', token, json }));
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    expect((await expectUnchanged(() => http('/api/admin/books/bulk', { method: 'POST', json: { action: 'delete', ids: ['x'] } }))).status).toBe(401);
  });
});

describe('POST /api/books/cover?isbn= (bulk covers)', () => {
  it('stores the cover and attaches it to the book with that ISBN (an ISBN-10 finds its ISBN-13), one audit event', async () => {
    const isbn10 = randomIsbn10();
    const isbn13 = toIsbn13(isbn10)!;
    const created = await http('/api/books/create-book', { method: 'POST', token: await adminToken(), json: newBook({ title: `Bulk cover ${RUN}`, isbn: isbn13 }) });
    expect(created.status).toBe(201);
    const png = Buffer.concat([PNG_1x1, Buffer.from(RUN)]);
    const res = await http(`/api/books/cover?isbn=${isbn10}`, { method: 'POST', token: await adminToken(), body: coverForm(png, `${isbn10}.png`) });
    expect(res.status).toBe(201);
    expect(res.body.book._id).toBe(created.body.book._id);
    expect(res.body.book.coverImage).toBe(res.body.coverImage);
    expect((await bucket().file(res.body.coverImage).exists())[0]).toBe(true);
    const events = await auditOf(created.body.book._id);
    expect(events.filter((e) => e.action === 'book.edit')).toEqual([expect.objectContaining({ changes: { coverImage: { before: 'book-3', after: res.body.coverImage } } })]);
  });

  it('404 for an ISBN no book has, 400 for a bad one: nothing stored', async () => {
    const token = await adminToken();
    const png = Buffer.concat([PNG_1x1, Buffer.from(`unmatched-${RUN}`)]);
    const missing = await expectUnchanged(() => http('/api/books/cover?isbn=9780000000002', { method: 'POST', token, body: coverForm(png) }));
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'NO_BOOK_WITH_ISBN', isbn: '9780000000002' });
    const bad = await expectUnchanged(() => http('/api/books/cover?isbn=12345', { method: 'POST', token, body: coverForm(png) }));
    expect(bad.status).toBe(400);
  });
});
