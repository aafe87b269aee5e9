import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FULFILMENT } from '../../scripts/lib/seed';
import { db, expectUnchangedIn, http, makeBooks, newCustomer, removeBooks, validOrder, type TestBook } from './helpers';

// Issue 36, items 1 and 5, through Hosting to the real function: prices no one dodges (an order
// without `delivery` is priced as the shop's default delivery to its address), places chosen from
// lists (countries ISO 3166-1 alpha-2, US states by code, postcodes by country), and the quote's
// budget per client address. SECURITY.md's round-four table names these tests.
// The demo shop's settings (scripts/lib/seed.ts): free local delivery in 627*, post in three zones
// ($19.99 up to 1 kg to the rest of the world), tax included at 6.25%.

type Shopper = Awaited<ReturnType<typeof newCustomer>>;
let shopper: Shopper;
let book: TestBook; // $9.99, 400 g (the shop's default weight)
let savedSettings: FirebaseFirestore.DocumentData | undefined;

const settingsRef = () => db().collection('settings').doc('shop');
const placeOrder = (json: unknown) => http('/api/orders', { method: 'POST', token: shopper.token, json });
/** A client address of the test's own (TEST-NET-3): the quote's budget is per address. */
const quote = (delivery: Record<string, unknown>, from = '203.0.113.1', productIDs = [book._id]) =>
  http('/api/checkout/quote', { method: 'POST', headers: { 'X-Forwarded-For': from }, json: { productIDs, delivery } });
/** What a refused order or quote could have written (the file runs beside others: docs/testing.md). */
const scope = () => [db().collection('orders').where('uid', '==', shopper.uid), db().collection('books').doc(book._id), db().collection('customers').doc(shopper.uid)];
const PARIS = { street: '5 Rue de Rivoli', city: 'Paris', country: 'FR', zipcode: '75001' };

beforeAll(async () => {
  shopper = await newCustomer('places');
  book = (await makeBooks(1, 1000, 999))[0]!;
  savedSettings = (await settingsRef().get()).data();
  await settingsRef().set({ fulfilment: DEMO_FULFILMENT }, { merge: true });
});

afterAll(async () => {
  if (savedSettings) await settingsRef().set(savedSettings);
  await removeBooks([book]);
});

describe('prices no one dodges', () => {
  it('an order without `delivery` to Paris is priced by post with postage and tax (29.98), the books alone (9.99) are 409 with that total, and it is stored as post', async () => {
    const body = { ...validOrder(shopper.email, [book]), address: PARIS };
    expect(body.totalPrice).toBe('9.99');
    await expectUnchangedIn(scope(), async () => {
      const res = await placeOrder(body);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: 'Prices have changed since you opened your cart', code: 'PRICE_CHANGED', totalPrice: 29.98 });
    });
    const res = await placeOrder({ ...body, totalPrice: '29.98' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const stored = (await db().collection('orders').doc(res.body._id).get()).data()!;
    // 9.99 + 19.99 postage; tax included at 6.25%, per part: 9.99 x 6.25/106.25 = 0.59, 19.99 x 6.25/106.25 = 1.18.
    expect({ total: stored.totalCents, delivery: stored.delivery, charges: stored.charges, address: stored.address }).toEqual({
      total: 2998,
      delivery: { method: 'post', zone: 'Rest of the world', weightGrams: 400 },
      charges: { subtotalCents: 999, shippingCents: 1999, taxCents: 59 + 118, shippingTaxCents: 118, taxRateBp: 625, taxIncluded: true, taxLabel: 'Sales tax' },
      address: { ...PARIS, state: '' },
    });
    expect(res.body.delivery.method).toBe('post');
  });

  it("the seed's own order (Springfield, IL, no `delivery`) keeps its total: free local delivery, tax included, stored as local", async () => {
    const res = await placeOrder(validOrder(shopper.email, [book]));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.totalPrice).toBe(9.99);
    expect(res.body.delivery).toEqual({ method: 'local', weightGrams: 400 });
  });
});

describe('places are chosen, not typed', () => {
  it("refuses 'U.S.A', 'Untied States', 'USA', a state by name, a wrong zipcode and a bare zipcode with 400 naming what to choose, in the quote and the order; nothing is written", async () => {
    const us = { street: '1 Main St', city: 'Springfield', country: 'US', state: 'IL', zipcode: '62701' };
    const cases: [string, Record<string, string>, string, RegExp][] = [
      ['U.S.A', { ...us, country: 'U.S.A' }, 'address.country', /^Choose a country from the list \(send its two-letter ISO 3166-1 code, such as US\)$/],
      ['Untied States', { ...us, country: 'Untied States' }, 'address.country', /^Choose a country from the list/],
      ['USA', { ...us, country: 'USA' }, 'address.country', /^Choose a country from the list/],
      ['a state by name', { ...us, state: 'Illinois' }, 'address.state', /^Choose a state of United States from the list/],
      ['a zipcode of another country', { ...us, zipcode: 'M5V 2T6' }, 'address.zipcode', /^Enter a United States zipcode, such as 62701$/],
      ['a French postcode of four digits', { ...PARIS, zipcode: '7500' }, 'address.zipcode', /^Enter a France postcode, such as/],
    ];
    for (const [what, address, field, message] of cases) {
      await expectUnchangedIn(scope(), async () => {
        const res = await placeOrder({ ...validOrder(shopper.email, [book]), address });
        expect(res.status, what).toBe(400);
        expect(res.body.message, what).toMatch(message);
        expect(res.body.details?.[field], what).toEqual([expect.stringMatching(message)]);
      });
    }
    const quotes: [string, Record<string, string>, RegExp][] = [
      ['U.S.A', { method: 'post', country: 'U.S.A' }, /^Choose a country from the list/],
      ['Untied States', { method: 'post', country: 'Untied States' }, /^Choose a country from the list/],
      ['a bare zipcode', { method: 'local', zipcode: '62701' }, /^Choose the country first/],
      ['a region of a country without a list', { method: 'post', country: 'FR', region: 'IDF' }, /^France has no regions to choose from/],
    ];
    for (const [what, delivery, message] of quotes) {
      await expectUnchangedIn(scope(), async () => {
        const res = await quote(delivery, '203.0.113.2');
        expect(res.status, what).toBe(400);
        expect(res.body.message, what).toMatch(message);
      });
    }
  });

  it('local delivery needs a street address: a street that is only a zipcode is 400, nothing written', async () => {
    await expectUnchangedIn(scope(), async () => {
      const res = await placeOrder({ ...validOrder(shopper.email, [book]), address: { street: '62701', city: 'Springfield', country: 'US', state: 'IL', zipcode: '62701' } });
      expect(res.status).toBe(400);
      expect(res.body.details?.['address.street']).toEqual(['Enter your street address (the street and house number)']);
    });
  });

  it('a quote without a place prices nothing but names the tax rate; for a country without its zipcode it offers no local delivery yet (the post is its default); the whole address does', async () => {
    // No place yet: nothing priced, but the shop's tax rate, so the checkout's tax row stands from the start.
    const empty = await quote({}, '203.0.113.3');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ method: null, available: false, shipping: null, tax: null, total: null, taxRate: 6.25, taxed: true, taxLabel: 'Sales tax' });
    const none = await quote({ country: 'US' }, '203.0.113.3');
    expect(none.status).toBe(200);
    expect(none.body.methods.find((m: { method: string }) => m.method === 'local')).toMatchObject({ available: false, needsAddress: true, reason: 'Enter your zipcode' });
    expect(none.body.method).toBe('post'); // the default for the country alone
    const full = await quote({ country: 'US', region: 'IL', zipcode: '62701' }, '203.0.113.3');
    expect({ method: full.body.method, total: full.body.total, countries: full.body.countries, everyCountry: full.body.everyCountry }).toEqual({ method: 'local', total: 9.99, countries: ['US', 'CA', 'MX'], everyCountry: true });
  });
});

describe("the quote's budget per client address", () => {
  it('answers 60 quotes a minute from one address, then 429 with Retry-After; a hop written in front of the address buys nothing; another address still answers', async () => {
    const from = `198.51.100.${Math.floor(Math.random() * 200) + 20}`;
    for (let i = 0; i < 60; i++) {
      const res = await quote({ country: 'US', region: 'IL', zipcode: '62701' }, from);
      expect(res.status, `quote ${i + 1}`).toBe(200);
    }
    const refused = await quote({ country: 'US', region: 'IL', zipcode: '62701' }, from);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: 'Too many price checks from your address. Try again in a minute.' });
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(refused.headers.get('Cache-Control')).toBe('no-store');
    // The client writes the start of X-Forwarded-For: a new first entry is not a new address.
    const forged = await quote({ country: 'US' }, `10.0.0.1, ${from}`);
    expect(forged.status).toBe(429);
    const other = await quote({ country: 'US', region: 'IL', zipcode: '62701' }, '198.51.100.7');
    expect(other.status).toBe(200);
  });
});
