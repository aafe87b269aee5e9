import { giftCardCheckSymbol } from '@bookstore/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey } from '../src/admin/client-address';
import { ORDER_REFUSALS_PER_ACCOUNT } from '../src/lib/order-refusals';
import { limitKeyHash } from '../src/lib/window-limit';
import { adminToken, db, expectUnchangedIn, http, makeBooks, newCustomer, removeBooks, validOrder, type TestBook } from './helpers';

// Issue 55, hostile, through Hosting to the real function: probes learn nothing (the quote answers
// every discount code that does not apply alike), limits key on the client address Google's front
// end appends (the LAST X-Forwarded-For entry), refused orders are budgeted, the balance check takes
// its code in the body, and a US zipcode must belong to its state. SECURITY.md's round-five table
// names these tests. (The forged audit event: audit-chain.serial.api.test.ts, which owns the chain.)

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
let seq = 0;
const codeName = (prefix: string) => `${prefix}-${RUN}-${(seq += 1)}`;
const hex = () => Math.floor(Math.random() * 0xffff).toString(16);
/**
 * A client address of this test's own: an IPv6 /64 of the documentation range (2001:db8::/32), so no
 * other test shares its budgets. The Hosting emulator passes X-Forwarded-For on as written and the
 * Functions emulator appends nothing, so the last entry a test writes stands for the one Google's
 * front end appends in production; everything before it is the caller's own text.
 */
const ownAddress = () => `2001:db8:${hex()}:${hex()}::7`;

let book: TestBook;
beforeAll(async () => {
  book = (await makeBooks(1, 1000, 1800))[0]!;
});
afterAll(() => removeBooks([book]));

describe('probes learn nothing', () => {
  it('a paused code and an unknown code are answered alike by the quote: one reason, no value, nothing else apart', async () => {
    const paused = codeName('HELD');
    const token = await adminToken();
    expect((await http('/api/admin/discounts', { method: 'POST', token, json: { code: paused, percentOff: 25, minSubtotal: 5 } })).status).toBe(201);
    expect((await http(`/api/admin/discounts/${paused}`, { method: 'PATCH', token, json: { paused: true } })).status).toBe(200);
    const unknown = codeName('NOSUCH');
    const ask = (discountCode: string) => http('/api/checkout/quote', { method: 'POST', headers: { 'X-Forwarded-For': ownAddress() }, json: { productIDs: [book._id], delivery: { method: 'pickup' }, discountCode } });
    const [a, b] = [await ask(paused), await ask(unknown)];
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.discountProblem).toEqual({ code: paused, error: 'DISCOUNT_UNAVAILABLE', reason: 'This code cannot be used' });
    // Everything but the code echoed back is the same: no 25%, no minimum, no "paused".
    const withoutCode = (body: Record<string, unknown>) => ({ ...body, discountProblem: { ...(body.discountProblem as object), code: '' } });
    expect(withoutCode(a.body)).toEqual(withoutCode(b.body));
    expect(a.body.discountApplied).toBeUndefined();
    expect(JSON.stringify(withoutCode(a.body))).not.toMatch(/paus|minimum|25%/i);
  });
});

describe('limits key on the last X-Forwarded-For entry', () => {
  it('twelve balance checks with twelve different forged X-Forwarded-For values are one client: 10 answered, then 429; another last entry is another client', async () => {
    const body = `Z${RUN.replace(/[^0-9A-HJKMNP-TV-Z]/g, '0')}ZZZZZZZZZZZZZZ`.slice(0, 15);
    const code = body + giftCardCheckSymbol(body); // well formed, on no card: a 404 after a lookup
    const client = ownAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      // What a caller controls: any number of entries, different each time, in front of the real one.
      const forged = `198.51.100.${i + 1}, 10.${i}.0.1, ${i % 2 ? '2001:db8::dead' : 'unknown'}`;
      const res = await http('/api/gift-cards/balance', { method: 'POST', headers: { 'X-Forwarded-For': `${forged}, ${client}` }, json: { code } });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body).toEqual({ message: 'Too many gift card checks from your address. Try again in a minute.' });
        expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([...Array<number>(10).fill(404), 429, 429]);
    // Counted under the last entry (its /64), and under nothing the caller wrote.
    const counted = await db().collection('giftCardLookups').doc(limitKeyHash(addressKey(client))).get();
    expect((counted.get('stamps') as number[]).length).toBe(10);
    expect((await db().collection('giftCardLookups').doc(limitKeyHash('198.51.100.1')).get()).exists).toBe(false);
    // The same forged entries in front of another client's address: that client is not limited.
    const other = await http('/api/gift-cards/balance', { method: 'POST', headers: { 'X-Forwarded-For': `198.51.100.1, 10.0.0.1, ${ownAddress()}` }, json: { code } });
    expect(other.status).toBe(404);
  });

  it('the balance check takes its code in the body only: the old GET with the code in its path is gone', async () => {
    const body = '7K3M9QXR2T4VW8H';
    const code = body + giftCardCheckSymbol(body);
    const old = await http(`/api/gift-cards/${code}/balance`, { headers: { 'X-Forwarded-For': ownAddress() } });
    expect([404, 405]).toContain(old.status);
    expect(typeof old.body.message).toBe('string');
    const bad = await http('/api/gift-cards/balance', { method: 'POST', headers: { 'X-Forwarded-For': ownAddress() }, json: { code: 'not a code' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'GIFT_CARD_TYPO' });
    const none = await http('/api/gift-cards/balance', { method: 'POST', headers: { 'X-Forwarded-For': ownAddress() }, json: {} });
    expect(none.status).toBe(400);
  });
});

describe('refused orders are budgeted', () => {
  it(`an account's ${ORDER_REFUSALS_PER_ACCOUNT} refusals that probe codes (unknown discount codes here) are its budget: then 429 before anything is read, even for a good order; a form error never counts`, { timeout: 120_000 }, async () => {
    const shopper = await newCustomer('refusals');
    const from = ownAddress();
    const place = (json: unknown) => http('/api/orders', { method: 'POST', token: shopper.token, headers: { 'X-Forwarded-For': from }, json });
    const good = validOrder(shopper.email, [book]);
    const accountSlots = async () => ((await db().collection('orderRefusals').doc(limitKeyHash(`account:${shopper.uid}`)).get()).get('stamps') as number[] | undefined)?.length ?? 0;
    // Decided from the request alone (400): not counted.
    for (let i = 0; i < 3; i++) expect((await place({ ...good, phone: 'not a phone' })).status).toBe(400);
    expect(await accountSlots()).toBe(0);
    // About what the shop shows anyway (a total that is not the price: 409 PRICE_CHANGED): not counted.
    for (let i = 0; i < 3; i++) expect((await place({ ...good, totalPrice: '0.01' })).status).toBe(409);
    expect(await accountSlots()).toBe(0);
    // Probing codes: each unknown discount code (404 DISCOUNT_UNKNOWN) takes a slot.
    for (let i = 0; i < ORDER_REFUSALS_PER_ACCOUNT; i++) {
      const res = await place({ ...good, discountCode: `NOPE${i}X${Date.now().toString(36).toUpperCase()}` });
      expect(res.status, `refusal ${i + 1}`).toBe(404);
    }
    expect(await accountSlots()).toBe(ORDER_REFUSALS_PER_ACCOUNT);
    const scope = [db().collection('orders').where('uid', '==', shopper.uid), db().collection('books').doc(book._id)];
    await expectUnchangedIn(scope, async () => {
      const refused = await place(good);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ message: 'Too many refused orders. Try again later.', code: 'TOO_MANY_REFUSED_ORDERS' });
      expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    });
    // The address counted them too (its budget is larger: a household or an office shares one).
    const addressSlots = (await db().collection('orderRefusals').doc(limitKeyHash(`address:${addressKey(from)}`)).get()).get('stamps') as number[];
    expect(addressSlots).toHaveLength(ORDER_REFUSALS_PER_ACCOUNT);
    // Another account from the same address still orders.
    const neighbour = await newCustomer('refusals-neighbour');
    const placed = await http('/api/orders', { method: 'POST', token: neighbour.token, headers: { 'X-Forwarded-For': from }, json: validOrder(neighbour.email, [book]) });
    expect(placed.status).toBe(201);
    await http(`/api/orders/${placed.body._id}/cancel`, { method: 'POST', token: neighbour.token });
  });
});

describe('places: a US zipcode belongs to its state', () => {
  it('90210 with OR is refused (400 naming address.zipcode), in the order and the quote, nothing stored; 97201 with OR is priced and ordered', async () => {
    const shopper = await newCustomer('zip-state');
    const from = ownAddress();
    const portland = { street: '1 SW Main St', city: 'Portland', country: 'US', state: 'OR', zipcode: '97201' };
    const message = '90210 is not a zipcode in Oregon: check the zipcode and the state';
    const scope = [db().collection('orders').where('uid', '==', shopper.uid), db().collection('books').doc(book._id)];
    await expectUnchangedIn(scope, async () => {
      const res = await http('/api/orders', { method: 'POST', token: shopper.token, headers: { 'X-Forwarded-For': from }, json: { ...validOrder(shopper.email, [book]), address: { ...portland, zipcode: '90210' } } });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
      expect(res.body.details['address.zipcode']).toEqual([message]);
    });
    const quote = (zipcode: string) => http('/api/checkout/quote', { method: 'POST', headers: { 'X-Forwarded-For': from }, json: { productIDs: [book._id], delivery: { country: 'US', region: 'OR', zipcode } } });
    const refused = await quote('90210');
    expect(refused.status).toBe(400);
    expect(refused.body.details['delivery.zipcode']).toEqual([message]);
    const priced = await quote('97201');
    expect(priced.status).toBe(200);
    expect(priced.body.total).toBeGreaterThan(0);
    const placed = await http('/api/orders', { method: 'POST', token: shopper.token, headers: { 'X-Forwarded-For': from }, json: { ...validOrder(shopper.email, [book]), address: portland, totalPrice: priced.body.total.toFixed(2) } });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.address).toMatchObject({ state: 'OR', zipcode: '97201' });
    await http(`/api/orders/${placed.body._id}/cancel`, { method: 'POST', token: shopper.token });
  });
});
