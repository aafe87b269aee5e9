import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, db, expectUnchangedIn, http, makeBooks, removeBooks, stockOf, type TestBook, staffToken } from './helpers';
import { control, sdk } from './stripe-helpers';

// Issue 57: a counter sale paid on the till's Stripe Terminal reader, over HTTP through Hosting to
// the function, with our Stripe stand-in's simulated reader: the test presents the card with
// Stripe's own test helper (present_payment_method), and the stand-in delivers the signed events
// to the webhook. Each test registers its own reader (a reader takes one payment at a time) and
// sells its own books; the takings are read by this file's own bookseller's name (byStaff), so
// other files' sales beside it do not count.

const PASSWORD = 'readers-and-receipts-9';
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const NAME = `Terminal ${RUN}`;
const CARD = { pays: '4242424242424242', declined: '4000000000000002' };

const made: TestBook[] = [];
afterAll(async () => removeBooks(made));

let owner: string;
let bookseller: string;
beforeAll(async () => {
  owner = await adminToken();
  const username = `terminal-${RUN}`;
  bookseller = await staffToken(owner, { username, displayName: NAME, role: 'bookseller', password: PASSWORD });
});

async function books(count: number, stock: number, priceCents = 1250) {
  const list = await makeBooks(count, stock, priceCents);
  made.push(...list);
  return list;
}

const saleRef = (id: string) => db().collection('sales').doc(id);
const storedSale = async (id: string) => (await saleRef(id).get()).data();
const sell = (json: Record<string, unknown>, token = bookseller) => http('/api/admin/sales', { method: 'POST', token, json });
const terminalSale = (bookIds: { _id: string }[], readerId: string, extra: Record<string, unknown> = {}) => ({
  saleId: randomUUID(), tillId: `till-${RUN}`, lines: bookIds.map((b) => ({ bookId: b._id, quantity: 1 })), payment: { method: 'card_terminal', readerId }, soldAt: new Date().toISOString(), ...extra,
});

/** A reader of its own for `tillId`, registered through the API at the stand-in. */
async function newReader(tillId = `till-${RUN}`): Promise<{ _id: string; stripeReaderId: string; tillId: string }> {
  const res = await http('/api/admin/readers', { method: 'POST', token: owner, json: { registrationCode: 'simulated-wpe', label: `Reader ${randomUUID().slice(0, 8)}`, tillId } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.reader;
}

const present = (stripeReaderId: string, number: string) => sdk().testHelpers.terminal.readers.presentPaymentMethod(stripeReaderId, { card_present: { number } });

/** Waits until the stored sale satisfies `ok` (Stripe's events arrive asynchronously). */
async function until(id: string, ok: (doc: any) => boolean, what: string): Promise<any> {
  let doc: any;
  for (let i = 0; i < 300; i++) {
    doc = await storedSale(id);
    if (ok(doc)) return doc;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`sale ${id} never ${what}: ${JSON.stringify(doc?.status)} ${JSON.stringify(doc?.terminal)}`);
}

/** This file's bookseller's takings of `day` (count and total), read through the day's summary. */
async function myTakings(day: string): Promise<{ count: number; total: number }> {
  const res = await http(`/api/admin/sales/summary?date=${day}`, { token: owner });
  const mine = res.body.byStaff.find((s: { name: string }) => s.name === NAME);
  return { count: mine?.count ?? 0, total: mine?.total ?? 0 };
}

/** Every event the stand-in sent about `id` answered by the webhook. */
async function deliveredAbout(id: string): Promise<{ id: string; type: string; statuses: number[] }[]> {
  for (let i = 0; i < 200; i++) {
    const events = await control<{ id: string; type: string; statuses: number[] }[]>(`events?related=${id}`);
    if (events.length > 0 && events.every((e) => e.statuses.length > 0)) return events;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`events about ${id} never delivered`);
}

describe('readers (POST, GET, DELETE /api/admin/readers)', () => {
  it('an owner registers a reader through Stripe for a till; booksellers list them; a bad code is 400 naming it; removing it deletes it at Stripe too', async () => {
    const reader = await newReader('front');
    expect(reader).toMatchObject({ stripeReaderId: expect.stringMatching(/^tmr_/), tillId: 'front', deviceType: 'simulated_wisepos_e' });
    expect((await sdk().terminal.readers.retrieve(reader.stripeReaderId)).deleted).toBeUndefined();
    const listed = await http('/api/admin/readers', { token: bookseller });
    expect(listed.status).toBe(200);
    expect(listed.body.readers.map((r: { _id: string }) => r._id)).toContain(reader._id);

    const label = `Bad ${RUN}`;
    const byLabel = db().collection('readers').where('label', '==', label);
    const bad = await expectUnchangedIn([byLabel], () => http('/api/admin/readers', { method: 'POST', token: owner, json: { registrationCode: 'not-a-code', label, tillId: 'front' } }));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_REGISTRATION_CODE', message: expect.stringContaining('not-a-code') });
    const noTill = await expectUnchangedIn([byLabel], () => http('/api/admin/readers', { method: 'POST', token: owner, json: { registrationCode: 'simulated-wpe', label } }));
    expect(noTill.status).toBe(400);
    expect(noTill.body.details.tillId).toBeDefined();
    const byBookseller = await expectUnchangedIn([byLabel], () => http('/api/admin/readers', { method: 'POST', token: bookseller, json: { registrationCode: 'simulated-wpe', label, tillId: 'front' } }));
    expect(byBookseller.status).toBe(403);

    expect((await http(`/api/admin/readers/${reader._id}`, { method: 'DELETE', token: bookseller })).status).toBe(403);
    expect((await http(`/api/admin/readers/${reader._id}`, { method: 'DELETE', token: owner })).status).toBe(204);
    expect((await http('/api/admin/readers', { token: owner })).body.readers.map((r: { _id: string }) => r._id)).not.toContain(reader._id);
    expect((await sdk().terminal.readers.retrieve(reader.stripeReaderId)).deleted).toBe(true);
    const again = await http(`/api/admin/readers/${reader._id}`, { method: 'DELETE', token: owner });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('UNKNOWN_READER');
  });
});

describe('a card-terminal sale', { timeout: 120_000 }, () => {
  it('holds its copies (202 awaiting_payment, no takings) until the reader takes the card; complete once, though its succeeded event comes 5 times at once; then it cannot be cancelled', async () => {
    const reader = await newReader();
    const [a, b] = await books(2, 3, 1250);
    const body = terminalSale([a!, b!], reader._id, { tillId: reader.tillId });
    const day = new Date().toISOString().slice(0, 10);
    const before = await myTakings(day);
    const res = await sell(body);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.sale).toMatchObject({ _id: body.saleId, status: 'awaiting_payment', total: 26.01, payment: { method: 'card_terminal' }, terminal: { readerId: reader._id, tillId: reader.tillId, paymentIntentId: expect.stringMatching(/^pi_/) } });
    expect([await stockOf(a!._id), await stockOf(b!._id)]).toEqual([2, 2]);
    const pi = res.body.sale.terminal.paymentIntentId as string;
    const intent = await sdk().paymentIntents.retrieve(pi);
    expect(intent).toMatchObject({ amount: 2601, currency: 'usd', capture_method: 'automatic', allowed_payment_method_types: ['card_present'], metadata: { saleId: body.saleId }, status: 'requires_payment_method' });
    expect((await sdk().terminal.readers.retrieve(reader.stripeReaderId) as any).action).toMatchObject({ type: 'process_payment_intent', status: 'in_progress', process_payment_intent: { payment_intent: pi } });
    expect(await myTakings(day)).toEqual(before); // nothing counted while the card is not taken

    await present(reader.stripeReaderId, CARD.pays);
    const paid = await until(body.saleId, (d) => d.status === 'complete', 'complete');
    expect(paid.terminal.paymentIntentId).toBe(pi);
    const succeeded = (await deliveredAbout(pi)).find((e) => e.type === 'payment_intent.succeeded')!;
    expect(succeeded.statuses).toEqual([200]);
    const redelivered = await control<{ statuses: number[] }>(`events/${succeeded.id}/redeliver`, { times: 5, concurrent: 5 });
    // Each redelivery is acknowledged (or asked again with 503 BUSY, as Stripe would retry); none counts twice.
    expect(redelivered.statuses.every((s) => s === 200 || s === 503)).toBe(true);
    const after = await myTakings(day);
    expect(after.count - before.count).toBe(1);
    expect(Math.round((after.total - before.total) * 100)).toBe(2601);
    expect([await stockOf(a!._id), await stockOf(b!._id)]).toEqual([2, 2]);
    const read = await http(`/api/admin/sales/${body.saleId}`, { token: bookseller });
    expect(read.body.sale).toMatchObject({ status: 'complete', terminal: { paymentIntentId: pi } });
    expect(read.body.sale.terminal.failure).toBeUndefined();

    const cancel = await expectUnchangedIn([saleRef(body.saleId)], () => http(`/api/admin/sales/${body.saleId}/cancel`, { method: 'POST', token: bookseller }));
    expect(cancel.status).toBe(409);
    expect(cancel.body.code).toBe('SALE_NOT_CANCELLABLE');
    // The same POST again (a lost answer): the sale as it is, nothing asked of the reader again.
    const replay = await sell(body);
    expect(replay.status).toBe(200);
    expect(replay.body.sale.status).toBe('complete');
  });

  it('declined at the reader: the sale fails with why and gives its copies back, once; nothing is counted', async () => {
    const reader = await newReader();
    const [book] = await books(1, 2, 1800);
    const body = terminalSale([book!], reader._id);
    const day = new Date().toISOString().slice(0, 10);
    const before = await myTakings(day);
    const res = await sell(body);
    expect(res.status).toBe(202);
    expect(await stockOf(book!._id)).toBe(1);
    const pi = res.body.sale.terminal.paymentIntentId as string;
    await present(reader.stripeReaderId, CARD.declined);
    const failed = await until(body.saleId, (d) => d.status === 'failed', 'failed');
    expect(failed.terminal.failure).toMatch(/declined/i);
    expect(await stockOf(book!._id)).toBe(2);
    const events = await deliveredAbout(pi);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['terminal.reader.action_failed', 'payment_intent.payment_failed']));
    // Both failure events (and a redelivery) give the copies back once.
    const failedEvent = events.find((e) => e.type === 'payment_intent.payment_failed')!;
    await control(`events/${failedEvent.id}/redeliver`, { times: 3, concurrent: 3 });
    expect(await stockOf(book!._id)).toBe(2);
    expect(await myTakings(day)).toEqual(before);
    // The declined PaymentIntent is closed at Stripe, so the sale that gave its copies back is never paid later.
    for (let i = 0; i < 50 && (await sdk().paymentIntents.retrieve(pi)).status !== 'canceled'; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await sdk().paymentIntents.retrieve(pi)).status).toBe('canceled');
    const read = await http(`/api/admin/sales/${body.saleId}`, { token: bookseller });
    expect(read.body.sale).toMatchObject({ status: 'failed', terminal: { failure: expect.stringMatching(/declined/i) } });
  });

  it('a gift card sold on a sale the reader declined is voided: no card for money not taken', async () => {
    const reader = await newReader();
    const [book] = await books(1, 1, 1000);
    // The card's code is the server's (issue 55).
    const body = { ...terminalSale([book!], reader._id), lines: [{ bookId: book!._id, quantity: 1 }, { kind: 'gift_card', amount: 25 }] };
    const res = await sell(body);
    expect(res.status).toBe(202);
    expect(res.body.sale.total).toBe(35);
    await present(reader.stripeReaderId, CARD.declined);
    await until(body.saleId, (d) => d.status === 'failed', 'failed');
    const card = db().collection('giftCards').doc(res.body.sale.lines.find((l: { kind: string }) => l.kind === 'gift_card').giftCard.id);
    for (let i = 0; i < 100 && !(await card.get()).data()?.voidedAt; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await card.get()).data()).toMatchObject({ balanceCents: 0, voidedAt: expect.any(String) });
    expect(await stockOf(book!._id)).toBe(1);
  });

  it("cancelled at the till: the reader stops, the PaymentIntent is cancelled, the copies come back; a card presented after is refused by the reader", async () => {
    const reader = await newReader();
    const [book] = await books(1, 1, 2000);
    const body = terminalSale([book!], reader._id);
    const res = await sell(body);
    expect(res.status).toBe(202);
    expect(await stockOf(book!._id)).toBe(0);
    const pi = res.body.sale.terminal.paymentIntentId as string;
    const cancel = await http(`/api/admin/sales/${body.saleId}/cancel`, { method: 'POST', token: bookseller });
    expect(cancel.status).toBe(200);
    expect(cancel.body.sale).toMatchObject({ status: 'cancelled', terminal: { failure: 'Cancelled at the till' } });
    expect(await stockOf(book!._id)).toBe(1);
    expect((await sdk().paymentIntents.retrieve(pi)).status).toBe('canceled');
    expect((await sdk().terminal.readers.retrieve(reader.stripeReaderId) as any).action).toBeNull();
    await expect(present(reader.stripeReaderId, CARD.pays)).rejects.toThrow(/no payment in progress/);
    const again = await http(`/api/admin/sales/${body.saleId}/cancel`, { method: 'POST', token: bookseller });
    expect(again.status).toBe(200);
    expect(again.body.sale.status).toBe('cancelled');
    expect(await stockOf(book!._id)).toBe(1);
    // Its copies are back on sale: the reader is free for the next sale.
    const next = await sell(terminalSale([book!], reader._id));
    expect(next.status).toBe(202);
  });

  it('a return of a terminal sale to the card is refunded through Stripe for the returned copies; an unpaid sale has nothing to return', async () => {
    const reader = await newReader();
    const [a, b] = await books(2, 2, 1500);
    const body = terminalSale([a!, b!], reader._id);
    const res = await sell(body);
    expect(res.status).toBe(202);
    const unpaidReturn = await expectUnchangedIn([saleRef(body.saleId)], () =>
      http(`/api/admin/sales/${body.saleId}/returns`, { method: 'POST', token: bookseller, json: { returnId: randomUUID(), tillId: `till-${RUN}`, lines: [{ bookId: a!._id, quantity: 1 }], refundMethod: 'card_terminal' } }));
    expect(unpaidReturn.status).toBe(409);
    expect(unpaidReturn.body.code).toBe('SALE_NOT_PAID');
    const pi = res.body.sale.terminal.paymentIntentId as string;
    await present(reader.stripeReaderId, CARD.pays);
    await until(body.saleId, (d) => d.status === 'complete', 'complete');

    const returnBody = { returnId: randomUUID(), tillId: `till-${RUN}`, lines: [{ bookId: b!._id, quantity: 1 }], refundMethod: 'card_terminal' };
    const ret = await http(`/api/admin/sales/${body.saleId}/returns`, { method: 'POST', token: bookseller, json: returnBody });
    expect(ret.status).toBe(201);
    const refunds = (await sdk().refunds.list({ payment_intent: pi })).data;
    expect(refunds.map((r) => [r.amount, r.status])).toEqual([[1601, 'succeeded']]);
    expect(ret.body.sale.returns[0]).toMatchObject({ total: 16.01, refundMethod: 'card_terminal', cardRefund: { id: refunds[0]!.id, status: 'succeeded' } });
    expect(await stockOf(b!._id)).toBe(2);
    // The return sent again (a lost answer): the same return, no second refund.
    const again = await http(`/api/admin/sales/${body.saleId}/returns`, { method: 'POST', token: bookseller, json: returnBody });
    expect(again.status).toBe(200);
    expect((await sdk().refunds.list({ payment_intent: pi })).data).toHaveLength(1);
  });
});

describe('a card-terminal sale refused, nothing changed', () => {
  it('without a reader, with an unknown reader, a reader of another till, or from the offline queue: 4xx naming it', async () => {
    const reader = await newReader('till-a');
    const [book] = await books(1, 2);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...terminalSale([book!], reader._id), payment: { method: 'card_terminal' } }, 400, 'READER_REQUIRED'],
      [terminalSale([book!], 'no-such-reader'), 400, 'UNKNOWN_READER'],
      [terminalSale([book!], reader._id, { tillId: 'till-b' }), 409, 'READER_OF_ANOTHER_TILL'],
      [terminalSale([book!], reader._id, { queued: true }), 409, 'TERMINAL_OFFLINE'],
      [terminalSale([book!], reader._id, { soldAt: new Date(Date.now() - 10 * 60_000).toISOString() }), 409, 'TERMINAL_OFFLINE'],
    ];
    for (const [body, status, code] of cases) {
      const res = await expectUnchangedIn([saleRef(body.saleId as string), db().collection('books').doc(book!._id)], () => sell(body));
      expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([status, code]);
      expect(res.body.message).toEqual(expect.any(String));
    }
    expect(await stockOf(book!._id)).toBe(2);
    expect((await sdk().terminal.readers.retrieve(reader.stripeReaderId) as any).action).toBeNull();
    const cancelUnknown = await http(`/api/admin/sales/${randomUUID()}/cancel`, { method: 'POST', token: bookseller });
    expect(cancelUnknown.status).toBe(404);
  });
});
