import { randomUUID } from 'node:crypto';
import { normaliseGiftCardCode } from '@bookstore/contract';
import { afterAll, expect, it } from 'vitest';
import { giftCardId } from '../src/promotions/gift-cards.repo';
import { expireTerminalSales, TERMINAL_SALE_EXPIRY_MS } from '../src/sales/terminal-expiry';
import { adminToken, db, http, makeBooks, removeBooks, stockOf, type TestBook } from './helpers';

// Issue 57: a card-reader sale left waiting for a card (the till closed before anyone pressed Cancel)
// is cancelled by the hourly releaseHolds job after 15 minutes, as the till's Cancel would: its
// copies and its gift card's part come back, once, however many runs overlap. The sale is made over
// HTTP through the function with our Stripe stand-in's simulated reader; the job runs in this process.

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const made: TestBook[] = [];
afterAll(async () => removeBooks(made));

it('a sale waiting for its card past 15 minutes is cancelled once: copies and the gift card\'s part back; a younger one is left', async () => {
  const owner = await adminToken();
  const [book] = await makeBooks(1, 3, 2000);
  made.push(book!);
  const tillId = `expiry-${RUN}`;
  const reader = await http('/api/admin/readers', { method: 'POST', token: owner, json: { registrationCode: 'simulated-wpe', label: `Expiry ${RUN}`, tillId } });
  expect(reader.status).toBe(201);
  const card = await http('/api/admin/gift-cards', { method: 'POST', token: owner, json: { amount: '5.00' } });
  expect(card.status).toBe(201);
  const cardRef = db().collection('giftCards').doc(giftCardId(normaliseGiftCardCode(card.body.code)));

  const saleId = randomUUID();
  const sent = await http('/api/admin/sales', {
    method: 'POST', token: owner,
    json: { saleId, tillId, soldAt: new Date().toISOString(), lines: [{ bookId: book!._id, quantity: 2 }], payment: { method: 'card_terminal', readerId: reader.body.reader._id, giftCardCode: card.body.code } },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(202);
  expect(await stockOf(book!._id)).toBe(1);
  expect((await cardRef.get()).data()!.balanceCents).toBe(0);

  // Not yet 15 minutes: left waiting.
  expect((await expireTerminalSales(new Date())).cancelled).not.toContain(saleId);
  expect((await db().collection('sales').doc(saleId).get()).data()!.status).toBe('awaiting_payment');

  const later = new Date(Date.now() + TERMINAL_SALE_EXPIRY_MS + 60_000);
  const runs = await Promise.all([expireTerminalSales(later), expireTerminalSales(later)]);
  expect(runs.some((r) => r.cancelled.includes(saleId))).toBe(true);
  const stored = (await db().collection('sales').doc(saleId).get()).data()!;
  expect(stored.status).toBe('cancelled');
  expect(await stockOf(book!._id)).toBe(3);
  expect((await cardRef.get()).data()!.balanceCents).toBe(500);
  const given = (await cardRef.collection('ledger').where('saleId', '==', saleId).get()).docs.map((d) => d.data().kind).sort();
  expect(given).toEqual(['returned', 'spent']);
  // A third run finds nothing to do.
  expect((await expireTerminalSales(later)).cancelled).not.toContain(saleId);
});
