import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, db, http, makeBooks, newCustomer, NEEDS_TRANSACTIONS, officialBackend, removeBooks, stockOf, validOrder, type TestBook } from './helpers';

// Discount codes (issue 40) over HTTP through Hosting to the real function on the Firestore emulator:
// the admin API and its audit, the quote's discount against a recomputation written here, the order's
// redemption counted in its own transaction (a limit of 4 against 10 checkouts at once, 10 times),
// refusals that change nothing, and a cancel that gives the redemption back once; a sharded code's
// limit (its uses spread over several documents for a flash sale) holds the same way.

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
let seq = 0;
const codeName = (prefix: string) => `${prefix}-${RUN}-${(seq += 1)}`;
const PASSWORD = 'margins-and-footnotes-9';

const createDiscount = async (json: Record<string, unknown>, token?: string) =>
  http('/api/admin/discounts', { method: 'POST', token: token ?? (await adminToken()), json });
const discountDoc = async (code: string) => (await db().collection('discounts').doc(code).get()).data();
const redemptionsOf = async (code: string) => (await db().collection('discounts').doc(code).collection('redemptions').get()).docs.map((d) => d.data());
const placeOrder = (customer: { token: string; email: string }, body: Record<string, unknown>) =>
  http('/api/orders', { method: 'POST', token: customer.token, json: body });
const ordersOf = async (uid: string) => (await db().collection('orders').where('uid', '==', uid).get()).docs;

async function staffToken(role: 'bookseller' | 'manager'): Promise<string> {
  const username = `promo-${role}-${RUN.toLowerCase()}`;
  const made = await http('/api/admin/staff', { method: 'POST', token: await adminToken(), json: { username, displayName: `Promotions ${role}`, role, password: PASSWORD } });
  if (made.status !== 201 && made.status !== 409) throw new Error(`staff ${username}: ${made.status}`);
  return (await http('/api/auth/admin', { method: 'POST', json: { username, password: PASSWORD } })).body.token;
}

/** The discount rule as docs/api.md writes it, recomputed here: eligible books' sum x percent, half up, once. */
function expectedDiscountCents(prices: number[], percent: number): number {
  const sum = prices.reduce((s, p) => s + p, 0);
  const exact = sum * Math.round(percent * 100); // in 1/10,000 of a cent: an integer, no float rounding
  const whole = Math.floor(exact / 10_000);
  return (exact % 10_000) * 2 >= 10_000 ? whole + 1 : whole;
}

const books: TestBook[] = [];
beforeAll(async () => {
  books.push(...(await makeBooks(8, 50, 1999)));
});
afterAll(async () => {
  await removeBooks(books);
});

describe('discount codes: the admin API', () => {
  it('owner and manager create one (one audit event); a bookseller is refused; a bad body is 400 and stores nothing', async () => {
    const code = codeName('SPRING');
    const res = await createDiscount({ code: code.toLowerCase(), percentOff: 15, maxRedemptions: 3, categories: ['fiction'] });
    expect(res.status).toBe(201);
    expect(res.body.discount).toMatchObject({ code, percentOff: 15, amountOff: null, maxRedemptions: 3, categories: ['fiction'], paused: false, redemptions: 0 });
    const audits = (await db().collection('audit').where('target', '==', `discounts/${code}`).get()).docs.map((d) => d.data());
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ action: 'discount.create', actor: 'admin' });

    const manager = await staffToken('manager');
    const byManager = await createDiscount({ code: codeName('MGR'), amountOff: '5.00' }, manager);
    expect(byManager.status).toBe(201);
    expect(byManager.body.discount.amountOff).toBe(5);

    const bookseller = await staffToken('bookseller');
    const refusedCode = codeName('NOPE');
    const refused = await createDiscount({ code: refusedCode, percentOff: 10 }, bookseller);
    expect(refused.status).toBe(403);
    expect(await discountDoc(refusedCode)).toBeUndefined();

    for (const body of [{ code: codeName('BOTH'), percentOff: 10, amountOff: 2 }, { code: codeName('NONE') }, { code: 'x', percentOff: 10 }, { code: codeName('PCT'), percentOff: 120 }]) {
      const bad = await createDiscount(body);
      expect(bad.status).toBe(400);
      expect(typeof bad.body.message).toBe('string');
      expect(await discountDoc(String(body.code).toUpperCase())).toBeUndefined();
    }
    const again = await createDiscount({ code, percentOff: 5 });
    expect(again.status).toBe(409);
    expect((await discountDoc(code))!.percentOffBp).toBe(1500);
  });

  it('pauses and resumes a code (audited), and a paused code does not apply', async () => {
    const code = codeName('PAUSE');
    await createDiscount({ code, percentOff: 10 });
    const paused = await http(`/api/admin/discounts/${code}`, { method: 'PATCH', token: await adminToken(), json: { paused: true } });
    expect(paused.status).toBe(200);
    expect(paused.body.discount.paused).toBe(true);
    const quote = await http('/api/checkout/quote', { method: 'POST', json: { productIDs: [books[0]!._id], delivery: { method: 'pickup' }, discountCode: code } });
    // Answered as an unknown code would be (issue 55): the quote tells no reason.
    expect(quote.body.discountProblem).toEqual({ code, error: 'DISCOUNT_UNAVAILABLE', reason: 'This code cannot be used' });
    const resumed = await http(`/api/admin/discounts/${code}`, { method: 'PATCH', token: await adminToken(), json: { paused: false } });
    expect(resumed.body.discount.paused).toBe(false);
    const audits = (await db().collection('audit').where('target', '==', `discounts/${code}`).get()).docs.map((d) => d.data().action).sort();
    expect(audits).toEqual(['discount.create', 'discount.pause', 'discount.pause']);
    const list = await http('/api/admin/discounts?limit=100', { token: await adminToken() });
    expect(list.body.discounts.some((d: { code: string }) => d.code === code)).toBe(true);
  });
});

describe('discount codes: the quote', () => {
  it('takes the discount off the books before shipping and tax, rounded once, equal to the recomputation', async () => {
    // 3 books of 19.99, 21.00, 22.01: 14.99% of 63.00 = 9.4437 -> 9.44; rounded per book it would be 3.00 + 3.15 + 3.30 = 9.45.
    const code = codeName('ODD');
    await createDiscount({ code, percentOff: 14.99 });
    const cart = books.slice(0, 3);
    const prices = cart.map((b) => Math.round(b.newPrice * 100));
    const plain = await http('/api/checkout/quote', { method: 'POST', json: { productIDs: cart.map((b) => b._id), delivery: { method: 'pickup' } } });
    const res = await http('/api/checkout/quote', { method: 'POST', json: { productIDs: cart.map((b) => b._id), delivery: { method: 'pickup' }, discountCode: code.toLowerCase() } });
    expect(res.status).toBe(200);
    const discountCents = expectedDiscountCents(prices, 14.99);
    const perBook = prices.reduce((s, p) => s + expectedDiscountCents([p], 14.99), 0);
    expect(discountCents).not.toBe(perBook); // this cart tells rounding once from rounding per book
    expect(Math.round(res.body.discount * 100)).toBe(discountCents);
    expect(res.body.discountApplied).toEqual({ code, label: '14.99% off' });
    expect(res.body.subtotal).toBe(plain.body.subtotal);
    // The demo shop includes tax: the tax part is of the discounted books (rate r: amount x r / (1 + r), half up).
    const rate = Math.round(plain.body.taxRate * 100);
    const net = prices.reduce((s, p) => s + p, 0) - discountCents;
    expect(Math.round(res.body.tax * 100)).toBe(Math.floor((2 * net * rate + 10_000 + rate) / (2 * (10_000 + rate))));
    expect(Math.round(res.body.total * 100)).toBe(net + Math.round(res.body.shipping * 100));
    expect(res.body.due).toBe(res.body.total);
  });

  it('answers every code that does not apply alike (issue 55): unknown, not yet valid, expired, under the minimum, wrong category', async () => {
    const soon = codeName('SOON');
    await createDiscount({ code: soon, percentOff: 10, startsAt: new Date(Date.now() + 86_400_000).toISOString() });
    const gone = codeName('GONE');
    await createDiscount({ code: gone, percentOff: 10, startsAt: '2020-01-01T00:00:00Z', endsAt: '2020-02-01T00:00:00Z' });
    const big = codeName('BIG');
    await createDiscount({ code: big, amountOff: 10, minSubtotal: 500 });
    const horror = codeName('HORROR');
    await createDiscount({ code: horror, percentOff: 10, categories: ['horror'] });
    for (const code of [codeName('UNKNOWN'), soon, gone, big, horror]) {
      const res = await http('/api/checkout/quote', { method: 'POST', json: { productIDs: [books[0]!._id], delivery: { method: 'pickup' }, discountCode: code } });
      expect(res.status).toBe(200);
      expect(res.body.discountProblem).toEqual({ code, error: 'DISCOUNT_UNAVAILABLE', reason: 'This code cannot be used' });
      expect(res.body.discountApplied).toBeUndefined();
      expect(res.body.discount).toBe(0);
      expect(res.body.total).toBe(books[0]!.newPrice);
    }
  });
});

describe('discount codes: orders', () => {
  it('an order with a code stores the discount and counts one redemption; unknown, expired and not-yet-valid codes are refused with nothing changed', async () => {
    const customer = await newCustomer('discount');
    const code = codeName('TEN');
    await createDiscount({ code, amountOff: '3.50', maxRedemptions: 10 });
    const book = books[3]!;
    const gone = codeName('OLD');
    await createDiscount({ code: gone, percentOff: 10, endsAt: '2021-01-01T00:00:00Z' });
    const soon = codeName('LATER');
    await createDiscount({ code: soon, percentOff: 10, startsAt: '2099-01-01T00:00:00Z' });
    const stockBefore = await stockOf(book._id);
    for (const [bad, status, error] of [[codeName('NOSUCH'), 404, 'DISCOUNT_UNKNOWN'], [gone, 422, 'DISCOUNT_EXPIRED'], [soon, 422, 'DISCOUNT_NOT_STARTED'], ['!!', 400, undefined]] as const) {
      const res = await placeOrder(customer, { ...validOrder(customer.email, [book]), totalPrice: (book.newPrice - 3.5).toFixed(2), discountCode: bad });
      expect(res.status).toBe(status);
      expect(typeof res.body.message).toBe('string');
      if (error) expect(res.body.code).toBe(error);
    }
    expect(await stockOf(book._id)).toBe(stockBefore);
    expect(await ordersOf(customer.uid)).toHaveLength(0);
    expect((await discountDoc(gone))!.redemptions).toBe(0);

    // The total the client sends is the discounted one: the full price is a changed price (409 with the right one).
    const full = await placeOrder(customer, { ...validOrder(customer.email, [book]), discountCode: code });
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ code: 'PRICE_CHANGED', totalPrice: Number((book.newPrice - 3.5).toFixed(2)) });
    const res = await placeOrder(customer, { ...validOrder(customer.email, [book]), totalPrice: (book.newPrice - 3.5).toFixed(2), discountCode: code });
    expect(res.status).toBe(201);
    expect(res.body.totalPrice).toBe(Number((book.newPrice - 3.5).toFixed(2)));
    expect(res.body.discount).toEqual({ code, amount: 3.5, returned: false });
    expect(res.body.charges.discount).toBe(3.5);
    expect((await discountDoc(code))!.redemptions).toBe(1);
    const listed = await http(`/api/admin/discounts/${code}/redemptions`, { token: await adminToken() });
    expect(listed.body.redemptions).toEqual([expect.objectContaining({ orderId: res.body._id, email: customer.email.toLowerCase(), discount: 3.5, returnedAt: null })]);
  });

  it('a cancelled order gives its redemption back exactly once (a second cancel is 409, nothing more given back)', async () => {
    const customer = await newCustomer('discount-cancel');
    const code = codeName('ONCE');
    await createDiscount({ code, percentOff: 10, maxRedemptions: 1, oncePerCustomer: true });
    const book = books[4]!;
    const due = (Math.round(book.newPrice * 100) - expectedDiscountCents([Math.round(book.newPrice * 100)], 10)) / 100;
    const body = { ...validOrder(customer.email, [book]), totalPrice: due.toFixed(2), discountCode: code };
    const placed = await placeOrder(customer, body);
    expect(placed.status).toBe(201);
    expect((await discountDoc(code))!.redemptions).toBe(1);
    // Used up (and used by this customer): the same customer is told so; another is told it is used up.
    const again = await placeOrder(customer, body);
    expect(again.status).toBe(422);
    expect(again.body.code).toBe('DISCOUNT_ALREADY_USED');
    const other = await newCustomer('discount-other');
    const exhausted = await placeOrder(other, { ...body, email: other.email });
    expect(exhausted.status).toBe(409);
    expect(exhausted.body).toMatchObject({ code: 'DISCOUNT_EXHAUSTED', message: 'This discount code has been used up' });

    const [first, second] = await Promise.all([
      http(`/api/orders/${placed.body._id}/cancel`, { method: 'POST', token: customer.token }),
      http(`/api/orders/${placed.body._id}/cancel`, { method: 'POST', token: customer.token }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    expect((await discountDoc(code))!.redemptions).toBe(0);
    const third = await http(`/api/orders/${placed.body._id}/cancel`, { method: 'POST', token: await adminToken() });
    expect(third.status).toBe(409);
    expect((await discountDoc(code))!.redemptions).toBe(0);
    const [redemption] = await redemptionsOf(code);
    expect(typeof redemption!.returnedAt).toBe('string');
    const order = await http(`/api/orders/${placed.body._id}`, { token: customer.token });
    expect(order.body.discount).toEqual({ code, amount: placed.body.discount.amount, returned: true });
    // Given back: the customer may use it again.
    const reused = await placeOrder(customer, body);
    expect(reused.status).toBe(201);
    expect((await discountDoc(code))!.redemptions).toBe(1);
  });

  type Shopper = Awaited<ReturnType<typeof newCustomer>>;
  /** Each shopper checks out their own book (index i) with the 20% code, all at once, agreeing to the discounted total. */
  const checkoutAtOnce = (shoppers: Shopper[], books: Awaited<ReturnType<typeof makeBooks>>, code: string) =>
    Promise.all(shoppers.map((s, i) => {
      const book = books[i]!;
      const cents = Math.round(book.newPrice * 100);
      const due = (cents - expectedDiscountCents([cents], 20)) / 100;
      return placeOrder(s, { ...validOrder(s.email, [book]), totalPrice: due.toFixed(2), discountCode: code });
    }));
  /** The placed order cancelled by the shopper who placed it. */
  const cancelAs = (shoppers: Shopper[], placed: { body: { _id: string; email: string } }) =>
    http(`/api/orders/${placed.body._id}/cancel`, { method: 'POST', token: shoppers.find((s) => s.email.toLowerCase() === placed.body.email)!.token });

  it.skipIf(!officialBackend)(`a code limited to 4 uses, 10 checkouts at once: 4 placed with the discount, 6 refused; 10 times ${officialBackend ? '' : NEEDS_TRANSACTIONS}`, { timeout: 300_000 }, async () => {
    const shoppers = await Promise.all(Array.from({ length: 10 }, (_, i) => newCustomer(`flash${i}`)));
    const ownBooks = await makeBooks(10, 20, 1500);
    try {
      for (let round = 0; round < 10; round++) {
        const code = codeName(`FLASH${round}`);
        await createDiscount({ code, percentOff: 20, maxRedemptions: 4 });
        const results = await checkoutAtOnce(shoppers, ownBooks, code);
        const statuses = results.map((r) => r.status).sort();
        expect(statuses, `round ${round}: ${JSON.stringify(results.map((r) => r.body.code ?? r.status))}`).toEqual([201, 201, 201, 201, 409, 409, 409, 409, 409, 409]);
        for (const r of results.filter((x) => x.status === 409)) expect(r.body).toMatchObject({ code: 'DISCOUNT_EXHAUSTED', message: expect.any(String) });
        for (const r of results.filter((x) => x.status === 201)) expect(r.body.discount.code).toBe(code);
        expect((await discountDoc(code))!.redemptions).toBe(4);
        expect(await redemptionsOf(code)).toHaveLength(4);
        // Cancelled again (the shoppers' open-order slots and the stock come back for the next round).
        for (const r of results.filter((x) => x.status === 201)) {
          expect((await cancelAs(shoppers, r)).status).toBe(200);
        }
        expect((await discountDoc(code))!.redemptions).toBe(0);
      }
    } finally {
      await removeBooks(ownBooks);
    }
  });
  it.skipIf(!officialBackend)(`a sharded code (7 uses over 3 shards), 10 checkouts at once: 7 placed, 3 refused, no shard past its allowance; a cancel gives back to its shard; 5 times ${officialBackend ? '' : NEEDS_TRANSACTIONS}`, { timeout: 300_000 }, async () => {
    // Bad shard settings are 400 and store nothing.
    for (const json of [{ shards: 0, maxRedemptions: 5 }, { shards: 51, maxRedemptions: 500 }, { shards: 4, maxRedemptions: 3 }, { shards: 3 }, { shards: 2.5, maxRedemptions: 5 }]) {
      const code = codeName('BADSHARD');
      const res = await createDiscount({ code, percentOff: 10, ...json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(await discountDoc(code)).toBeUndefined();
    }
    const shoppers = await Promise.all(Array.from({ length: 10 }, (_, i) => newCustomer(`shard${i}`)));
    const ownBooks = await makeBooks(10, 20, 1500);
    const shardsOf = async (code: string) => (await db().collection('discounts').doc(code).collection('shards').get()).docs.map((d) => ({ k: Number(d.id), ...d.data() }) as { k: number; allowance: number; used: number });
    try {
      for (let round = 0; round < 5; round++) {
        const code = codeName(`SHARD${round}`);
        const made = await createDiscount({ code, percentOff: 20, maxRedemptions: 7, shards: 3 });
        expect(made.status).toBe(201);
        expect(made.body.discount).toMatchObject({ shards: 3, maxRedemptions: 7, redemptions: 0 });
        expect((await shardsOf(code)).map((x) => x.allowance)).toEqual([3, 2, 2]);
        const results = await checkoutAtOnce(shoppers, ownBooks, code);
        const statuses = results.map((r) => r.status).sort();
        expect(statuses, `round ${round}: ${JSON.stringify(results.map((r) => r.body.code ?? r.status))}`).toEqual([201, 201, 201, 201, 201, 201, 201, 409, 409, 409]);
        for (const r of results.filter((x) => x.status === 409)) expect(r.body).toMatchObject({ code: 'DISCOUNT_EXHAUSTED', message: expect.any(String) });
        const shards = await shardsOf(code);
        for (const shard of shards) expect(shard.used, `shard ${shard.k}`).toBeLessThanOrEqual(shard.allowance);
        expect(shards.reduce((t, x) => t + x.used, 0)).toBe(7);
        expect((await discountDoc(code))!.redemptions).toBe(0); // the hot document is not written by orders
        expect(await redemptionsOf(code)).toHaveLength(7);
        const listed = (await http('/api/admin/discounts?limit=100', { token: await adminToken() })).body.discounts.find((d: any) => d.code === code);
        expect(listed).toMatchObject({ redemptions: 7, shards: 3 });
        // Each order's shard is the one it counted in; a cancel gives back to it (and the next round starts clean).
        const placed = results.filter((x) => x.status === 201);
        const stored = await Promise.all(placed.map(async (r) => (await db().collection('orders').doc(r.body._id).get()).data()!.discount));
        expect(stored.map((d) => d.shard).sort()).toEqual(shards.flatMap((x) => Array(x.used).fill(x.k)).sort());
        const firstShard = stored[0]!.shard as number;
        const usedBefore = shards.find((x) => x.k === firstShard)!.used;
        for (const [i, r] of placed.entries()) {
          expect((await cancelAs(shoppers, r)).status).toBe(200);
          if (i === 0) expect((await shardsOf(code)).find((x) => x.k === firstShard)!.used).toBe(usedBefore - 1);
        }
        expect((await shardsOf(code)).map((x) => x.used)).toEqual([0, 0, 0]);
      }
    } finally {
      await removeBooks(ownBooks);
    }
  });
});
