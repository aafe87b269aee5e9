import { recordsFromCsv, toCsv } from '@bookstore/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { commitImport, planImport } from '../src/books/import.repo';
import { validateRecords } from '../src/books/import.rows';
import { db, removeBooks } from './helpers';

// Issue 25 item 3: a re-import that does not name stock must not undo the copies sold between its
// read (the plan) and its write (the commit). The plan and the commit are the import's own two
// steps, over the real Firestore emulator; the sale in between is the write an order makes.

const owner = { username: 'owner', role: 'owner' } as const;
const made: { _id: string }[] = [];
afterAll(() => removeBooks(made));

function isbn(): string {
  const body = `9790${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + ((10 - (sum % 10)) % 10);
}

async function importCsv(records: string[][]) {
  const { rows, errors } = validateRecords(recordsFromCsv(toCsv(records)));
  expect(errors).toEqual([]);
  return planImport(rows);
}

describe('an import and a sale at the same time', () => {
  it('keeps the stock an order took while a price-only import was between its read and its write', async () => {
    const code = isbn();
    const title = `Race ${code}`;
    const first = await importCsv([['title', 'description', 'category', 'oldPrice', 'newPrice', 'stock', 'isbn', 'coverImage'], [title, 'd', 'fiction', '20', '12.50', '5', code, 'book-2']]);
    await commitImport(first.writes, owner);
    const ref = first.writes[0]!.ref;
    made.push({ _id: ref.id });

    const priceOnly = await importCsv([['title', 'description', 'category', 'oldPrice', 'newPrice', 'isbn'], [title, 'd', 'fiction', '20', '9.99', code]]);
    expect(priceOnly.updated).toBe(1);
    await ref.update({ stock: 4 }); // a copy sold after the import read the book
    await commitImport(priceOnly.writes, owner);

    const stored = (await db().collection('books').doc(ref.id).get()).data()!;
    expect(stored.stock).toBe(4);
    expect(stored.newPriceCents).toBe(999);
  });

  it('refuses to bring back a book deleted between the read and the write (409), writing nothing', async () => {
    const code = isbn();
    const first = await importCsv([['title', 'description', 'category', 'oldPrice', 'newPrice', 'stock', 'isbn', 'coverImage'], [`Race ${code}`, 'd', 'fiction', '20', '12.50', '5', code, 'book-2']]);
    await commitImport(first.writes, owner);
    const ref = first.writes[0]!.ref;
    const update = await importCsv([['title', 'description', 'category', 'oldPrice', 'newPrice', 'isbn'], [`Race ${code}`, 'd', 'fiction', '20', '8', code]]);
    await ref.delete();
    await expect(commitImport(update.writes, owner)).rejects.toMatchObject({ status: 409 });
    expect((await ref.get()).exists).toBe(false);
  });
});
