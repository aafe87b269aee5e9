import type { APIRequestContext, Page } from '@playwright/test';
import { STRIPE_STAND_IN_URL } from '../../scripts/lib/env';
import { expect, ownerToken, test, uniqueTitle } from './fixtures';
import { adminLogin, isbnPair, noHorizontalOverflow } from './helpers';

// Issue 57: 'Card on Terminal' at a 1024 px till (a tablet) with the till's Stripe Terminal reader:
// the till sends the sale to the reader, shows 'Present card on the reader', and the test presents
// the card as Stripe's test helper does (POST /v1/test_helpers/terminal/readers/:id/present_payment_method
// at our stand-in), whose signed event completes the sale: 'Sale complete'. A reader of the test's own.

test.use({ serviceWorkers: 'allow' }); // the counter's own page (its device list and queue), as counter.spec.ts

const SHOTS = 'artifacts/screenshots';
/**
 * A payment's round trips (the till to the shop, the shop to Stripe and the reader, Stripe's event
 * back to the shop's webhook, the till's next look), each through a Functions emulator worker that
 * may be booting on a loaded 2-core machine: waits, never a measure of speed.
 */
const ROUND_TRIP = { timeout: 60_000 };
const STAND_IN = process.env.STRIPE_API_BASE || STRIPE_STAND_IN_URL;

async function newReader(request: APIRequestContext): Promise<{ _id: string; stripeReaderId: string; label: string; tillId: string }> {
  const label = uniqueTitle('Reader');
  const res = await request.post('/api/admin/readers', { headers: { Authorization: `Bearer ${await ownerToken(request)}` }, data: { registrationCode: 'simulated-wpe', label, tillId: 'till-1' } }); // the counter's default till
  expect(res.status()).toBe(201);
  return (await res.json()).reader;
}

/** The customer taps a card on the simulated reader (the stand-in takes any sk_test_ key). */
async function presentCard(request: APIRequestContext, stripeReaderId: string, number: string) {
  const res = await request.post(`${STAND_IN}/v1/test_helpers/terminal/readers/${stripeReaderId}/present_payment_method`, {
    headers: { Authorization: 'Bearer sk_test_e2e', 'Content-Type': 'application/x-www-form-urlencoded' },
    data: `card_present[number]=${number}`,
  });
  expect(res.status()).toBe(200);
}

/** Clicks 'Send to Reader' and returns the sale's id from the shop's answer (202: the reader waits for the card). */
async function sendToReader(page: Page): Promise<string> {
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/admin/sales') && r.request().method() === 'POST', ROUND_TRIP);
  await page.getByRole('button', { name: 'Send to Reader' }).click();
  const res = await answer;
  const body = await res.json();
  expect(res.status(), JSON.stringify(body)).toBe(202);
  expect(body.sale.status).toBe('awaiting_payment');
  return body.sale._id;
}

async function saleStatus(request: APIRequestContext, saleId: string): Promise<string> {
  const res = await request.get(`/api/admin/sales/${saleId}`, { headers: { Authorization: `Bearer ${await ownerToken(request)}` } });
  return (await res.json()).sale?.status ?? `HTTP ${res.status()}`;
}

test('a card-terminal sale at 1024 px: from Card on Terminal to Sale complete', async ({ page, request, makeBook }) => {
  const { isbn13 } = isbnPair();
  const book = await makeBook({ title: uniqueTitle('Terminal Book'), isbn: isbn13, stock: 2, newPrice: 20 });
  const reader = await newReader(request);
  await page.setViewportSize({ width: 1024, height: 768 });
  await adminLogin(page);
  await page.goto('/dashboard/counter');
  const field = page.getByLabel('Scan or type an ISBN');
  await field.pressSequentially(isbn13);
  await field.press('Enter');
  await expect(page.getByTestId('sale-total')).toHaveText('$20.00');
  await page.getByRole('button', { name: 'Card on Terminal' }).click();
  await page.getByLabel('Card reader').selectOption({ label: `${reader.label} (till till-1)` });
  const saleId = await sendToReader(page);
  await expect(page.getByText('Present card on the reader')).toBeVisible(ROUND_TRIP);
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await noHorizontalOverflow(page);
  await page.screenshot({ path: `${SHOTS}/counter-terminal-present-1024.png`, fullPage: true });
  // The copies are held while the reader waits.
  await expect.poll(async () => (await (await request.get(`/api/books/${book._id}`)).json()).stock).toBe(1);

  await presentCard(request, reader.stripeReaderId, '4242424242424242');
  await expect.poll(() => saleStatus(request, saleId), ROUND_TRIP).toBe('complete');
  await expect(page.getByRole('heading', { name: 'Sale complete' })).toBeVisible(ROUND_TRIP);
  const receipt = page.getByRole('article', { name: 'Receipt' });
  await expect(receipt).toContainText(book.title);
  await expect(receipt).toContainText('Card on Terminal');
  await page.screenshot({ path: `${SHOTS}/counter-terminal-complete-1024.png`, fullPage: true });
  expect((await (await request.get(`/api/books/${book._id}`)).json()).stock).toBe(1);
});

test('a card declined at the reader: the till says why and the books are back in stock', async ({ page, request, makeBook }) => {
  const { isbn13 } = isbnPair();
  const book = await makeBook({ title: uniqueTitle('Declined Book'), isbn: isbn13, stock: 1, newPrice: 9 });
  const reader = await newReader(request);
  await page.setViewportSize({ width: 1024, height: 768 });
  await adminLogin(page);
  await page.goto('/dashboard/counter');
  const field = page.getByLabel('Scan or type an ISBN');
  await field.pressSequentially(isbn13);
  await field.press('Enter');
  await expect(page.getByTestId('sale-total')).toHaveText('$9.00');
  await page.getByRole('button', { name: 'Card on Terminal' }).click();
  await page.getByLabel('Card reader').selectOption({ label: `${reader.label} (till till-1)` });
  const saleId = await sendToReader(page);
  await expect(page.getByText('Present card on the reader')).toBeVisible(ROUND_TRIP);
  await presentCard(request, reader.stripeReaderId, '4000000000000002');
  await expect.poll(() => saleStatus(request, saleId), ROUND_TRIP).toBe('failed');
  await expect(page.getByRole('alert').filter({ hasText: 'Not paid' })).toContainText(/declined/i, ROUND_TRIP);
  await expect(page.getByRole('alert').filter({ hasText: 'Not paid' })).toContainText('The books are back in stock');
  expect((await (await request.get(`/api/books/${book._id}`)).json()).stock).toBe(1);
  await page.getByRole('button', { name: 'Back to Sale' }).click();
  await expect(page.getByTestId('sale-total')).toHaveText('$9.00'); // the books stay on the till to pay another way
});
