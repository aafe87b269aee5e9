import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FULFILMENT } from '../../scripts/lib/seed';
import { adminToken, db, http, makeBooks, removeBooks, type TestBook } from './helpers';

// Issue 36, item 5: POST /api/checkout/quote keeps its answers per instance, keyed by cart, method,
// place, settings version and catalogue version, and its reads per call are bounded (docs/api.md):
// 1 for the client's budget, 2 for the versions, and 1 per book only when the answer is not kept.
// In-process (one instance), so every call meets the same cache; X-Firestore-Reads counts the reads.

let books: TestBook[] = [];
let savedSettings: FirebaseFirestore.DocumentData | undefined;
const settingsRef = () => db().collection('settings').doc('shop');
let client = 0;
/** Each call from an address of its own: the budget is not what this file tests. */
const quote = (delivery: Record<string, unknown>, productIDs = books.map((b) => b._id)) =>
  http('/api/checkout/quote', { method: 'POST', headers: { 'X-Forwarded-For': `192.0.2.${(client += 1)}` }, json: { productIDs, delivery } });
const reads = (res: { headers: Headers }) => Number(res.headers.get('X-Firestore-Reads'));
const PLACE = { method: 'post', country: 'CA', region: 'ON', zipcode: 'M5V 2T6' };

beforeAll(async () => {
  books = await makeBooks(5, 100, 1000); // 10.00, 11.01, 12.02, 13.03, 14.04: 60.10, free post from 50
  savedSettings = (await settingsRef().get()).data();
  await settingsRef().set({ fulfilment: DEMO_FULFILMENT }, { merge: true });
});

afterAll(async () => {
  if (savedSettings) await settingsRef().set(savedSettings);
  await removeBooks(books);
});

describe('the quote cache', () => {
  it('answers the same cart and place again without reading the books: 3 reads instead of 3 + 5', async () => {
    const first = await quote(PLACE);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(reads(first)).toBe(3 + books.length);
    const again = await quote({ ...PLACE, zipcode: 'm5v 2t6' }); // the same postcode, written differently
    expect(again.status).toBe(200);
    expect(reads(again)).toBe(3);
    expect(again.body).toEqual(first.body);
    // Another place, another method or another cart is priced afresh.
    expect(reads(await quote({ ...PLACE, region: 'QC' }))).toBe(3 + books.length);
    expect(reads(await quote({ ...PLACE, method: 'pickup' }))).toBe(3 + books.length);
    expect(reads(await quote(PLACE, books.slice(0, 2).map((b) => b._id)))).toBe(3 + 2);
  });

  it('a new price (catalogue version) or new settings (settings version) are never answered from the cache', async () => {
    const before = await quote(PLACE);
    expect(before.body.subtotal).toBe(60.1);
    // A reprice through the API: the one door for book writes, which bumps the catalogue version.
    const current = (await http(`/api/books/${books[0]!._id}`)).body;
    const { title, description, category, trending, oldPrice, coverImage } = current;
    const edit = await http(`/api/books/edit/${books[0]!._id}`, { method: 'PUT', token: await adminToken(), json: { title, description, category, trending, oldPrice: Math.max(oldPrice, 20), coverImage, newPrice: '20.00' } });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const repriced = await quote(PLACE);
    expect(reads(repriced)).toBe(3 + books.length);
    expect(repriced.body.subtotal).toBe(70.1);
    // The shop stops posting free: the next quote is priced with it.
    await settingsRef().set({ fulfilment: { ...DEMO_FULFILMENT, post: { ...DEMO_FULFILMENT.post, freeFromCents: null } } }, { merge: true });
    const resettled = await quote(PLACE);
    expect(reads(resettled)).toBe(3 + books.length);
    expect(resettled.body.shipping).toBe(19.99); // 5 books of 400 g: 2 kg, Canada and Mexico up to 3 kg
    expect(resettled.body.total).toBe(90.09);
  });
});
