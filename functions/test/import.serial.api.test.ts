import { toCsv } from '@bookstore/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { adminToken, db, expectUnchanged, http, newCustomer } from './helpers';

// POST /api/books/import over HTTP through Hosting: dry run, real import, re-import, refusals.

const HEADER = ['title', 'author', 'description', 'category', 'oldPrice', 'newPrice', 'stock', 'isbn', 'coverImage'];
const RUN = String(Math.floor(Math.random() * 90) + 10); // keeps this run's ISBNs apart from other books

/** A valid ISBN-13 for a sequence number: 979-8-RUN-nnnnnn plus its check digit. */
function isbn(n: number): string {
  const body = `9798${RUN}${String(n).padStart(6, '0')}`;
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + ((10 - (sum % 10)) % 10);
}

const BAD = { 17: ['newPrice', 'abc'], 88: ['category', 'poetry'], 150: ['isbn', '9780306406158'] } as const;

function catalogue(rows = 200): string {
  const records = [HEADER];
  for (let n = 1; n <= rows; n += 1) {
    const row = [`Imported ${RUN}-${n}`, 'Ada, Writer', `A "quoted" description, with a comma\nand a second line (${n}).`, 'fiction', '20', '12.50', String(n % 7), isbn(n), `book-${(n % 23) + 1}`];
    const bad = BAD[n as keyof typeof BAD];
    if (bad) row[HEADER.indexOf(bad[0])] = bad[1];
    records.push(row);
  }
  return toCsv(records);
}

async function importCsv(body: string, query = '', token?: string | null, type = 'text/csv') {
  return http(`/api/books/import${query}`, { method: 'POST', body, headers: { 'Content-Type': type }, token: token === undefined ? await adminToken() : token });
}

async function importedCount(): Promise<number> {
  const snap = await db().collection('books').where('isbn', '>=', `9798${RUN}`).where('isbn', '<', `9798${RUN}~`).get();
  return snap.size;
}

afterAll(async () => {
  // Leave the catalogue as the other test files expect it.
  const snap = await db().collection('books').where('isbn', '>=', `9798${RUN}`).where('isbn', '<', `9798${RUN}~`).get();
  const writer = db().bulkWriter();
  for (const doc of snap.docs) void writer.delete(doc.ref);
  await writer.close();
});

describe('POST /api/books/import', () => {
  const file = catalogue();

  it('dry run: reports exactly the 3 bad rows (row and field) and writes nothing', async () => {
    const res = await expectUnchanged(() => importCsv(file, '?dryRun=1'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 197, updated: 0, unchanged: 0, dryRun: true });
    expect(res.body.errors.map((e: any) => [e.row, e.field])).toEqual([[17, 'newPrice'], [88, 'category'], [150, 'isbn']]);
    expect(res.body.errors.every((e: any) => typeof e.message === 'string' && e.message.length > 0)).toBe(true);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  });

  it('imports the 197 good rows, quotes, commas and newlines intact', async () => {
    const res = await importCsv(file);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 197, updated: 0, unchanged: 0, dryRun: false });
    expect(res.body.errors).toHaveLength(3);
    expect(await importedCount()).toBe(197);
    const book = (await db().collection('books').doc(`isbn-${isbn(5)}`).get()).data()!;
    expect(book).toMatchObject({ title: `Imported ${RUN}-5`, author: 'Ada, Writer', category: 'fiction', newPriceCents: 1250, oldPriceCents: 2000, stock: 5, isbn: isbn(5) });
    expect(book.description).toBe('A "quoted" description, with a comma\nand a second line (5).');
    const listed = await http(`/api/books/isbn-${isbn(5)}`);
    expect(listed.body).toMatchObject({ _id: `isbn-${isbn(5)}`, newPrice: 12.5, stock: 5 });
  });

  it('importing the same file again creates nothing and changes nothing', async () => {
    const before = await db().collection('books').doc(`isbn-${isbn(9)}`).get();
    const res = await importCsv(file);
    expect(res.body).toMatchObject({ created: 0, updated: 0, unchanged: 197 });
    expect(await importedCount()).toBe(197);
    const after = await db().collection('books').doc(`isbn-${isbn(9)}`).get();
    expect(after.updateTime?.isEqual(before.updateTime!)).toBe(true);
  });

  it('updates a changed row in place, keeping what its empty cells leave out', async () => {
    const csv = toCsv([HEADER, [`Imported ${RUN}-9 (2nd ed.)`, 'Ada, Writer', 'New text', 'fiction', '20', '9.99', '', isbn(9), '']]);
    const res = await importCsv(csv);
    expect(res.body).toMatchObject({ created: 0, updated: 1, unchanged: 0, errors: [] });
    const book = (await db().collection('books').doc(`isbn-${isbn(9)}`).get()).data()!;
    expect(book).toMatchObject({ title: `Imported ${RUN}-9 (2nd ed.)`, newPriceCents: 999, stock: 2, coverImage: 'book-10' });
  });

  it('matches a book added by hand (random id) by its ISBN instead of adding it twice', async () => {
    const token = await adminToken();
    const created = await http('/api/books/create-book', {
      method: 'POST', token,
      json: { title: 'Hand made', description: 'D', category: 'fiction', oldPrice: 5, newPrice: 4, coverImage: 'book-1', isbn: isbn(900), stock: 1 },
    });
    expect(created.status).toBe(201);
    const res = await importCsv(toCsv([HEADER, ['Hand made, imported', '', 'D', 'fiction', '5', '4', '8', isbn(900), '']]));
    expect(res.body).toMatchObject({ created: 0, updated: 1 });
    const same = await db().collection('books').where('isbn', '==', isbn(900)).get();
    expect(same.docs.map((d) => d.id)).toEqual([created.body.book._id]);
    expect(same.docs[0]!.data()).toMatchObject({ title: 'Hand made, imported', stock: 8 });
  });

  it('takes JSON lines, numbering rows from firstRow', async () => {
    const lines = [
      JSON.stringify({ title: 'Line book', description: 'D', category: 'horror', oldPrice: 3, newPrice: 2, stock: 1, isbn: isbn(901), coverImage: 'book-2' }),
      JSON.stringify({ title: '', description: 'D', category: 'horror', oldPrice: 3, newPrice: 2, isbn: isbn(902), coverImage: 'book-2' }),
    ].join('\n');
    const res = await importCsv(lines, '?firstRow=501', undefined, 'application/x-ndjson');
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(1);
    expect(res.body.errors).toEqual([{ row: 502, field: 'title', message: expect.any(String) }]);
  });

  it('refuses another content type with 415 and changes nothing', async () => {
    const res = await expectUnchanged(() => importCsv(JSON.stringify({ title: 'x' }), '', undefined, 'application/json'));
    expect(res.status).toBe(415);
    expect(res.body.message).toMatch(/text\/csv/);
  });

  it('refuses anyone but an admin with 401 and changes nothing', async () => {
    const anonymous = await expectUnchanged(() => importCsv(file, '', null));
    expect(anonymous.status).toBe(401);
    const customer = await newCustomer('importer');
    const asCustomer = await expectUnchanged(() => importCsv(file, '', customer.token));
    expect(asCustomer.status).toBe(401);
    expect(asCustomer.body).toHaveProperty('message');
  });

  it('refuses a broken file as a whole with 400: bad header, unclosed quote, no rows', async () => {
    for (const body of ['title,price\nA,1\n', `${HEADER.join(',')}\n"open,x\n`, `${HEADER.join(',')}\n`]) {
      const res = await expectUnchanged(() => importCsv(body));
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('refuses more than 1000 rows per request with 413', async () => {
    const res = await expectUnchanged(() => importCsv(catalogue(1001)));
    expect(res.status).toBe(413);
  });
});
