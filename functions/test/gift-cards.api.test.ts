import { giftCardCheckSymbol, normaliseGiftCardCode } from '@bookstore/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, db, http, makeBooks, newCustomer, NEEDS_TRANSACTIONS, officialBackend, removeBooks, stockOf, validOrder, type TestBook } from './helpers';

// Gift cards (issue 40) over HTTP through Hosting to the real function on the Firestore emulator:
// issued by staff, the balance check (rate-limited per client address), paying an order with one
// (wholly or in part), two orders racing for one card, and cancel and refund giving back exactly once.

const PASSWORD = 'margins-and-footnotes-9';
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
/** A client address of this test's own (the emulator reads the last X-Forwarded-For entry): its own balance budget. */
const clientIp = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}, 203.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;

const issue = async (json: unknown, token?: string) => http('/api/admin/gift-cards', { method: 'POST', token: token ?? (await adminToken()), json });
const balanceOf = async (code: string) => (await http('/api/gift-cards/balance', { method: 'POST', headers: { 'X-Forwarded-For': clientIp() }, json: { code } })).body.balance as number;
const cardDoc = async (id: string) => (await db().collection('giftCards').doc(id).get()).data()!;
const ledgerOf = async (id: string) => (await http(`/api/admin/gift-cards/${id}?limit=100`, { token: await adminToken() })).body.ledger as { kind: string; amount: number; balanceAfter: number; orderId?: string }[];
const place = (customer: { token: string }, body: Record<string, unknown>) => http('/api/orders', { method: 'POST', token: customer.token, json: body });
const refund = async (orderId: string, key: string, json: unknown) =>
  http(`/api/admin/orders/${orderId}/refunds`, { method: 'POST', token: await adminToken(), headers: { 'Idempotency-Key': key }, json });
const setStatus = async (orderId: string, status: string) => http(`/api/admin/orders/${orderId}/status`, { method: 'POST', token: await adminToken(), json: { status } });

async function newCard(amount: number): Promise<{ code: string; id: string }> {
  const res = await issue({ amount });
  expect(res.status).toBe(201);
  return res.body;
}

const books: TestBook[] = [];
beforeAll(async () => {
  books.push(...(await makeBooks(6, 40, 1800))); // 18.00, 19.01, 20.02, ...
});
afterAll(async () => {
  await removeBooks(books);
});

describe('gift cards: issuing and the balance check', () => {
  it('staff issue a card: 201 {code, balance}, a checksummed unguessable code stored only as a hash, one audit event', async () => {
    const res = await issue({ amount: '25.00', recipientEmail: 'friend@example.com' });
    expect(res.status).toBe(201);
    expect(res.body.balance).toBe(25);
    expect(res.body.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    const canonical = normaliseGiftCardCode(res.body.code);
    expect(giftCardCheckSymbol(canonical.slice(0, 15))).toBe(canonical[15]);
    const stored = await cardDoc(res.body.id);
    expect(stored).toMatchObject({ balanceCents: 2500, initialCents: 2500, recipientEmail: 'friend@example.com', last4: canonical.slice(-4) });
    expect(JSON.stringify(stored)).not.toContain(canonical.slice(0, 12));
    const audits = (await db().collection('audit').where('target', '==', `giftCards/${res.body.id}`).get()).docs.map((d) => d.data());
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ action: 'giftcard.issue', actor: 'admin' });
    // Two cards never share a code.
    const other = await newCard(5);
    expect(other.code).not.toBe(res.body.code);

    // (the tests of this file run one after another, and no other file issues cards as the demo owner:
    // counter sales and store credit, counter-gift-cards.api.test.ts, sell as a bookseller of their own)
    const count = async () => (await db().collection('giftCards').where('createdBy', '==', 'admin').count().get()).data().count;
    const before = await count();
    for (const body of [{ amount: 0 }, { amount: -5 }, { amount: '1.234' }, { amount: 5000 }, {}, { amount: 10, recipientEmail: 'nope' }]) {
      const bad = await issue(body);
      expect(bad.status).toBe(400);
      expect(typeof bad.body.message).toBe('string');
    }
    expect(await count()).toBe(before);
    const username = `gift-bookseller-${RUN}`;
    await http('/api/admin/staff', { method: 'POST', token: await adminToken(), json: { username, displayName: 'Gift bookseller', role: 'bookseller', password: PASSWORD } });
    const bookseller = (await http('/api/auth/admin', { method: 'POST', json: { username, password: PASSWORD } })).body.token;
    expect((await issue({ amount: 10 }, bookseller)).status).toBe(403);
  });

  it('the balance check answers the balance; a typo is caught by the check symbol (400), an unknown code is 404; rate-limited per client', async () => {
    const card = await newCard(12.34);
    const ip = clientIp();
    const check = (code: string) => http('/api/gift-cards/balance', { method: 'POST', headers: { 'X-Forwarded-For': ip }, json: { code } });
    const ok = await check(card.code.toLowerCase().replace(/-/g, ' '));
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ balance: 12.34 });
    const canonical = normaliseGiftCardCode(card.code);
    const typo = canonical.slice(0, 5) + (canonical[5] === 'A' ? 'B' : 'A') + canonical.slice(6);
    const bad = await check(typo);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('This gift card code has a typo: check it and try again');
    const body = 'ZZZZZZZZZZZZZZZ';
    const unknown = await check(body + giftCardCheckSymbol(body));
    expect(unknown.status).toBe(404);
    // 3 used; 7 more fit in the minute, the 11th is 429 with Retry-After. Another client is not affected.
    for (let i = 0; i < 7; i++) expect((await check(card.code)).status).toBe(200);
    const limited = await check(card.code);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await balanceOf(card.code)).toBe(12.34);
  });
});

describe('gift cards: paying orders', () => {
  it('pays an order in part: the card pays its balance, totalPrice is what remains; the quote says the same', async () => {
    const customer = await newCustomer('gift-part');
    const card = await newCard(10);
    const book = books[0]!; // 18.00
    const quote = await http('/api/checkout/quote', { method: 'POST', json: { productIDs: [book._id], delivery: { method: 'pickup' }, giftCardCode: card.code } });
    expect(quote.body).toMatchObject({ total: 18, giftCard: { amount: 10, balance: 10 }, due: 8 });
    const res = await place(customer, { ...validOrder(customer.email, [book]), totalPrice: '8.00', giftCardCode: card.code });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ totalPrice: 8, giftCard: { amount: 10, returned: 0 } });
    expect(await balanceOf(card.code)).toBe(0);
    expect((await ledgerOf(card.id)).map((l) => [l.kind, l.amount, l.balanceAfter])).toEqual([['spent', -10, 0], ['issued', 10, 10]]);
    // A spent card pays nothing more: refused with a message, nothing stored.
    const other = await newCustomer('gift-empty');
    const empty = await place(other, { ...validOrder(other.email, [books[1]!]), giftCardCode: card.code });
    expect(empty.status).toBe(422);
    expect(empty.body.code).toBe('GIFT_CARD_EMPTY');
    expect((await db().collection('orders').where('uid', '==', other.uid).get()).size).toBe(0);
  });

  it('an order wholly paid by a card placed "by card" has no payment step: totalPrice 0, no Checkout session', async () => {
    const customer = await newCustomer('gift-whole');
    const card = await newCard(50);
    const book = books[1]!; // 19.01
    const res = await place(customer, { ...validOrder(customer.email, [book]), totalPrice: 0, giftCardCode: card.code, payment: { method: 'card' } });
    expect(res.status).toBe(201);
    expect(res.body.totalPrice).toBe(0);
    expect(res.body.checkoutUrl).toBeUndefined();
    expect(res.body.payment.method).toBe('cash');
    expect(await balanceOf(card.code)).toBe(30.99);
    // totalPrice 0 without a card is refused (400).
    const zero = await place(customer, { ...validOrder(customer.email, [books[2]!]), totalPrice: 0 });
    expect(zero.status).toBe(400);
  });

  it.skipIf(!officialBackend)(`two orders racing for one card: one spends it, the other is refused, the balance never below zero (5 times) ${officialBackend ? '' : NEEDS_TRANSACTIONS}`, { timeout: 120_000 }, async () => {
    const [a, b] = await Promise.all([newCustomer('race-a'), newCustomer('race-b')]);
    for (let round = 0; round < 5; round++) {
      const card = await newCard(18);
      const [ra, rb] = await Promise.all([
        place(a, { ...validOrder(a.email, [books[0]!]), totalPrice: 0, giftCardCode: card.code }),
        place(b, { ...validOrder(b.email, [books[0]!]), totalPrice: 0, giftCardCode: card.code }),
      ]);
      const statuses = [ra.status, rb.status].sort();
      expect(statuses, JSON.stringify([ra.body, rb.body].map((x) => x.code ?? x._id))).toEqual([201, 422]);
      const loser = ra.status === 422 ? ra : rb;
      expect(loser.body.code).toBe('GIFT_CARD_EMPTY');
      expect((await cardDoc(card.id)).balanceCents).toBe(0);
      const ledger = await ledgerOf(card.id);
      expect(ledger.filter((l) => l.kind === 'spent')).toHaveLength(1);
      const winner = ra.status === 201 ? { res: ra, who: a } : { res: rb, who: b };
      expect((await http(`/api/orders/${winner.res.body._id}/cancel`, { method: 'POST', token: winner.who.token })).status).toBe(200);
    }
  });

  it('a cancel puts the card\'s part back exactly once, even cancelled twice at once', async () => {
    const customer = await newCustomer('gift-cancel');
    const card = await newCard(10);
    const book = books[2]!; // 20.02
    const stock = await stockOf(book._id);
    const placed = await place(customer, { ...validOrder(customer.email, [book]), totalPrice: '10.02', giftCardCode: card.code });
    expect(placed.status).toBe(201);
    const [x, y] = await Promise.all([
      http(`/api/orders/${placed.body._id}/cancel`, { method: 'POST', token: customer.token }),
      http(`/api/orders/${placed.body._id}/cancel`, { method: 'POST', token: await adminToken() }),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    expect(await balanceOf(card.code)).toBe(10);
    expect(await stockOf(book._id)).toBe(stock);
    expect((await ledgerOf(card.id)).map((l) => l.kind)).toEqual(['returned', 'spent', 'issued']);
    const order = await http(`/api/orders/${placed.body._id}`, { token: customer.token });
    expect(order.body.giftCard).toEqual({ last4: normaliseGiftCardCode(card.code).slice(-4), amount: 10, returned: 10 });
  });

  it('a refund goes back on the gift card first, the rest in money; replayed with its key it gives nothing twice; a later cancel gives back only the rest', async () => {
    const customer = await newCustomer('gift-refund');
    const card = await newCard(10);
    const book = books[3]!; // 21.03: 10.00 by the card, 11.03 in cash on delivery
    const placed = await place(customer, { ...validOrder(customer.email, [book]), totalPrice: '11.03', giftCardCode: card.code });
    expect(placed.status).toBe(201);
    const id = placed.body._id as string;
    // Wholly within the card's part: back on the card; the same key again replays, nothing more.
    const first = await refund(id, `gift-${RUN}-1`, { amount: '4.00', reason: 'Damaged corner' });
    expect(first.status).toBe(201);
    expect(first.body.giftCard).toEqual({ amount: 4 });
    const again = await refund(id, `gift-${RUN}-1`, { amount: '4.00', reason: 'Damaged corner' });
    expect(again.status).toBe(201);
    expect(await balanceOf(card.code)).toBe(4);
    // Delivered and paid in cash; a refund of 8.00: 6.00 (what is left of the card's part) to the card, 2.00 in cash.
    for (const status of ['confirmed', 'shipped', 'delivered']) expect((await setStatus(id, status)).status).toBe(200);
    const mixed = await refund(id, `gift-${RUN}-2`, { amount: '8.00', reason: 'Wrong edition' });
    expect(mixed.status).toBe(201);
    expect(mixed.body.refund).toMatchObject({ amount: 2 });
    expect(await balanceOf(card.code)).toBe(10);
    const order = (await http(`/api/orders/${id}`, { token: customer.token })).body;
    expect(order.giftCard).toMatchObject({ amount: 10, returned: 10 });
    expect(order.payment.refunded).toBe(2);
    expect((await ledgerOf(card.id)).map((l) => [l.kind, l.amount])).toEqual([['returned', 6], ['returned', 4], ['spent', -10], ['issued', 10]]);

    // Another order: refunded 3.00 to the card, then cancelled: only the other 7.00 comes back.
    const second = await place(customer, { ...validOrder(customer.email, [books[4]!]), totalPrice: String((Math.round(books[4]!.newPrice * 100) - 1000) / 100), giftCardCode: card.code });
    expect(second.status).toBe(201);
    expect((await refund(second.body._id, `gift-${RUN}-3`, { amount: 3, reason: 'Goodwill' })).status).toBe(201);
    expect(await balanceOf(card.code)).toBe(3);
    expect((await http(`/api/orders/${second.body._id}/cancel`, { method: 'POST', token: customer.token })).status).toBe(200);
    expect(await balanceOf(card.code)).toBe(10);
  });
});
