import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { shopDay } from '@bookstore/contract';
import { adminToken, db, http, makeBooks, newBook, newCustomer, randomIsbn13, removeBooks, validOrder, type TestBook } from './helpers';

// The stock's value and the day's gross margin (issue 56) are shop-wide: every book's copies at its
// average cost, compared here with a recount of every book in stock, and every sale of the day, so
// nothing may move the stock or sell meanwhile (docs/testing.md: a serial file).

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

/**
 * Every copy in stock, and its value in cents at its book's stored average cost, read straight from
 * Firestore: the catalogue's books and the unlisted books' (decision 056, costs under `unlisted:<isbn>`).
 */
async function recount(): Promise<{ units: number; cents: number; fiction: number }> {
  const books = await db().collection('books').where('inStock', '==', true).get();
  const unlisted = await db().collection('unlistedBooks').where('stock', '>', 0).get();
  const held = [
    ...books.docs.map((b) => ({ costId: b.id, stock: b.get('stock') as number, category: b.get('category') as string })),
    ...unlisted.docs.map((u) => ({ costId: `unlisted:${u.id}`, stock: u.get('stock') as number, category: 'Unlisted' })),
  ];
  let units = 0;
  let total = 0;
  let fiction = 0;
  for (const book of held) {
    const cost = (await db().collection('bookCosts').doc(book.costId).get()).data()?.avgCostCents as number | undefined;
    units += book.stock;
    total += cost === undefined ? 0 : book.stock * cost;
    if (book.category === 'fiction') fiction += cost === undefined ? 0 : book.stock * cost;
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

  it('counts the copies of a book the catalogue does not list (unlisted, decision 056) at their cost, under Unlisted; listed, they move to its book', async () => {
    const isbn = randomIsbn13();
    const before = await valuation();
    await receive(isbn, 3, 8);
    const after = await valuation();
    expect(after.units - before.units).toBe(3);
    expect(cents(after.value) - cents(before.value)).toBe(3 * 800);
    expect(cents(after.byCategory.Unlisted!.value) - cents(before.byCategory.Unlisted?.value ?? 0)).toBe(3 * 800);
    const counted = await recount();
    expect([after.units, cents(after.value)]).toEqual([counted.units, counted.cents]);

    // Listed in Manage Books: the same copies at the same cost, now under the book's category.
    const created = await http('/api/books/create-book', { method: 'POST', token: await adminToken(), json: newBook({ title: `Valued ${randomUUID().slice(0, 8)}`, category: 'fiction', isbn, stock: 0 }) });
    expect(created.status).toBe(201);
    made.push({ _id: created.body.book._id, title: created.body.book.title, newPrice: 12.5, isbn });
    const listed = await valuation();
    expect([listed.units, cents(listed.value)]).toEqual([after.units, cents(after.value)]);
    expect(cents(listed.byCategory.Unlisted?.value ?? 0)).toBe(cents(before.byCategory.Unlisted?.value ?? 0));
    expect(cents(listed.byCategory.fiction!.value) - cents(after.byCategory.fiction?.value ?? 0)).toBe(3 * 800);
  });
});

type Channel = { units: number; sales: number; cost: number; margin: number | null; uncostedUnits: number };
const margin = async (date = shopDay(new Date())) => {
  const res = await http(`/api/admin/stock/margin?date=${date}`, { token: await adminToken() });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { date: string; web: Channel; counter: Channel };
};
const moved = (before: Channel, after: Channel) => ({
  units: after.units - before.units, sales: cents(after.sales) - cents(before.sales), cost: cents(after.cost) - cents(before.cost),
  margin: cents(after.margin ?? 0) - cents(before.margin ?? 0), uncostedUnits: after.uncostedUnits - before.uncostedUnits,
});

describe("the day's gross margin", () => {
  it('moves by what each channel sold at its price less the average cost: web and counter apart, returns taken off, uncosted copies counted apart', async () => {
    const [costed] = (await makeBooks(1, 0, 1000, { isbn: true })) as Book[];
    const [uncosted] = (await makeBooks(1, 3, 1000, { isbn: true })) as Book[];
    made.push(costed!, uncosted!);
    await receive(costed!.isbn, 6, 4); // average cost 4.00
    const before = await margin();
    const owner = await adminToken();
    // The counter: 3 copies at 10.00 and one uncosted; then 1 costed copy back.
    const sale = await http('/api/admin/sales', { method: 'POST', token: owner, json: { saleId: randomUUID(), lines: [{ isbn: costed!.isbn, quantity: 3 }, { isbn: uncosted!.isbn, quantity: 1 }], payment: { method: 'cash' } } });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    const back = await http(`/api/admin/sales/${sale.body.sale._id}/returns`, { method: 'POST', token: owner, json: { returnId: randomUUID(), lines: [{ isbn: costed!.isbn, quantity: 1 }], refundMethod: 'cash' } });
    expect(back.status, JSON.stringify(back.body)).toBe(201);
    // The web: one costed copy.
    const customer = await newCustomer('margin');
    const order = await http('/api/orders', { method: 'POST', token: customer.token, headers: { 'Idempotency-Key': randomUUID() }, json: validOrder(customer.email, [{ _id: costed!._id, newPrice: 10 }]) });
    expect(order.status, JSON.stringify(order.body)).toBe(201);

    const after = await margin();
    expect(moved(before.counter, after.counter)).toEqual({ units: 3, sales: 3000, cost: 800, margin: 2000 - 800, uncostedUnits: 1 });
    expect(moved(before.web, after.web)).toEqual({ units: 1, sales: 1000, cost: 400, margin: 600, uncostedUnits: 0 });
  });

  it('is the buyers\' only (cost is private) and names a bad date', async () => {
    const customer = await newCustomer('margin-peek');
    expect((await http(`/api/admin/stock/margin?date=${shopDay(new Date())}`, { token: customer.token })).status).toBe(401);
    expect((await http(`/api/admin/stock/margin?date=${shopDay(new Date())}`)).status).toBe(401);
    const bad = await http('/api/admin/stock/margin?date=2026-13-45', { token: await adminToken() });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/date/);
  });
});
