import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { adminToken, db, http, makeBooks, removeBooks, type TestBook } from './helpers';

// The stock's value (issue 56) is shop-wide: every book's copies at its average cost, compared here
// with a recount of every book in stock, so nothing may move the stock meanwhile (docs/testing.md:
// a serial file).

type Book = TestBook & { isbn: string };
const made: Book[] = [];
afterAll(async () => removeBooks(made));

const receive = async (isbn: string, quantity: number, unitCost: number) => {
  const res = await http('/api/admin/receipts', { method: 'POST', token: await adminToken(), json: { receiptId: randomUUID(), lines: [{ isbn, quantity, unitCost }] } });
  expect(res.status).toBe(201);
};
const valuation = async () => {
  const res = await http('/api/admin/stock/valuation', { token: await adminToken() });
  expect(res.status).toBe(200);
  return res.body as { units: number; value: number; uncostedUnits: number; byCategory: Record<string, { units: number; value: number }> };
};
const cents = (dollars: number) => Math.round(dollars * 100);

/** Every copy in stock, and its value in cents at its book's stored average cost, read straight from Firestore. */
async function recount(): Promise<{ units: number; cents: number; fiction: number }> {
  const books = await db().collection('books').where('inStock', '==', true).get();
  let units = 0;
  let total = 0;
  let fiction = 0;
  for (const book of books.docs) {
    const stock = book.get('stock') as number;
    const cost = (await db().collection('bookCosts').doc(book.id).get()).data()?.avgCostCents as number | undefined;
    units += stock;
    total += cost === undefined ? 0 : stock * cost;
    if (book.get('category') === 'fiction') fiction += cost === undefined ? 0 : stock * cost;
  }
  return { units, cents: total, fiction };
}

describe('the stock valuation', () => {
  it('equals a recount of every copy on hand at its average cost, to the cent, and moves by exactly what was received', async () => {
    const [a, b] = (await makeBooks(2, 0, 1500, { isbn: true })) as Book[];
    made.push(a!, b!);
    const before = await valuation();
    await receive(a!.isbn, 3, 10);
    await receive(a!.isbn, 1, 12.5); // (3 x 10.00 + 12.50) / 4 = 10.625 -> 10.63
    await receive(b!.isbn, 2, 7.99);
    const after = await valuation();
    const counted = await recount();
    expect(after.units).toBe(counted.units);
    expect(cents(after.value)).toBe(counted.cents);
    expect(cents(after.byCategory.fiction!.value)).toBe(counted.fiction);
    expect(after.units - before.units).toBe(6);
    expect(cents(after.value) - cents(before.value)).toBe(4 * 1063 + 2 * 799);
    expect(cents(after.byCategory.fiction!.value) - cents(before.byCategory.fiction?.value ?? 0)).toBe(4 * 1063 + 2 * 799);
  });
});
