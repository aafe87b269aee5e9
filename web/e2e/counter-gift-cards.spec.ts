import type { APIRequestContext, Locator } from '@playwright/test';
import { expect, test, uniqueTitle } from './fixtures';
import { adminLogin, isbnPair, noHorizontalOverflow } from './helpers';

// The worker's features: the parallel project blocks service workers elsewhere (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

// Gift cards at the counter (issue 40) in Chromium at 375 px (and 1280 px): a 'Gift card' line with an amount sold
// with 'Take Cash', its code printed once on the receipt (a later copy shows its last 4), the card
// spendable for that amount; then a book of the sale returned as 'Store credit': a new card for what
// the book was sold for, its code shown to staff. Each test sells a book of its own.

const SHOTS = 'artifacts/screenshots';

/** The balance check as a shopper sends it, each from an address of its own (it is rate-limited per address). */
function checkBalance(request: APIRequestContext, code: string) {
  const ip = `198.51.100.${Math.floor(Math.random() * 250) + 1}, 203.0.113.${Math.floor(Math.random() * 250) + 1}`;
  return request.post('/api/gift-cards/balance', { headers: { 'X-Forwarded-For': ip }, data: { code } });
}

/** The card's balance as a shopper would check it. */
async function balanceOf(request: APIRequestContext, code: string): Promise<number> {
  const res = await checkBalance(request, code);
  expect(res.status()).toBe(200);
  return (await res.json()).balance;
}

/** The gift card's code as the receipt prints it once ('Code XXXX-XXXX-XXXX-XXXX'). */
async function printedCode(receipt: Locator): Promise<string> {
  const printed = receipt.getByTestId('receipt-gift-card-code');
  await expect(printed).toHaveText(/^Code [0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
  return (await printed.textContent())!.replace('Code ', '');
}

test.use({ viewport: { width: 375, height: 812 } });

for (const width of [375, 1280]) {
  test(`sell a gift card at the counter at ${width}px: its code on the receipt once; a return of the sale's book as store credit`, async ({ page, request, makeBook }) => {
    await page.setViewportSize({ width, height: 812 });
    const isbn = isbnPair().isbn13;
    const book = await makeBook({ title: uniqueTitle('Gift Till Book'), isbn, stock: 3, newPrice: 14 });
    await adminLogin(page);
    await page.goto('/dashboard/counter');
    const scanField = page.getByLabel('Scan or type an ISBN');
    await scanField.pressSequentially(isbn);
    await scanField.press('Enter');
    const lines = page.getByRole('list', { name: 'Books in this sale' });
    await expect(lines).toContainText(book.title);

    // An amount of nothing is refused at the till; 25 is a 'Gift card' line.
    const amount = page.getByRole('textbox', { name: 'Gift card (amount)' });
    await amount.fill('0');
    await page.getByRole('button', { name: 'Add Gift Card' }).click();
    await expect(page.getByText("A gift card's amount is from $0.01")).toBeVisible();
    await amount.fill('25');
    await page.getByRole('button', { name: 'Add Gift Card' }).click();
    await expect(lines.getByRole('listitem').filter({ hasText: 'Gift card' })).toContainText('$25.00');
    await expect(page.getByTestId('sale-total')).toHaveText('$39.00');
    await page.getByLabel(/Amount tendered/).fill('50');
    await expect(page.getByText('Change: $11.00')).toBeVisible();
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/counter-gift-card-sale-${width}.png`, fullPage: true });

    await page.getByRole('button', { name: 'Take Cash' }).click();
    await expect(page.getByRole('heading', { name: 'Sale complete' })).toBeVisible();
    await expect(page.getByText('Change due: $11.00')).toBeVisible();
    const receipt = page.getByRole('article', { name: 'Receipt' });
    await expect(receipt).toContainText('Gift card');
    const code = await printedCode(receipt);
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/counter-gift-card-receipt-${width}.png`, fullPage: true });
    // The sale reaches the shop just after 'Sale complete': then the card holds its amount.
    await expect(page.getByRole('link', { name: 'Return items from this sale' })).toBeVisible();
    await expect.poll(() => balanceOf(request, code)).toBe(25);

    // A later copy of the receipt (the sale's page) shows the card's last 4, never its code.
    await page.getByRole('link', { name: 'Return items from this sale' }).click();
    await expect(page.getByRole('heading', { name: 'Return Items' })).toBeVisible();
    const copy = page.getByRole('article', { name: 'Receipt' });
    await expect(copy).toContainText(`Card ending ${code.slice(-4)}`);
    await expect(copy).not.toContainText(code);
    // Only the book can come back; as store credit, for what it was sold for.
    await page.getByLabel(book.title).fill('1');
    await page.getByLabel('Store credit', { exact: true }).check();
    await expect(page.getByText('Store credit: $14.00')).toBeVisible();
    await page.getByRole('button', { name: 'Record Return' }).click();
    await expect(page.getByText('Return recorded: $14.00 of store credit on a new gift card.')).toBeVisible();
    await expect(page.getByText('Every copy of this sale has been returned.')).toBeVisible();
    const credit = page.getByTestId('store-credit-code');
    await expect(credit).toHaveText(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    const creditCode = (await credit.textContent())!;
    expect(creditCode).not.toBe(code);
    await expect(page.getByRole('heading', { name: 'Returns' })).toBeVisible();
    await expect(page.getByText(`as store credit on gift card ····${creditCode.slice(-4)}`)).toBeVisible();
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/counter-store-credit-${width}.png`, fullPage: true });
    expect(await balanceOf(request, creditCode)).toBe(14);
  });
}

test('offline: a gift card sold with the network gone prints its code at once, and is issued once when the sale syncs', async ({ page, context, request }) => {
  await adminLogin(page);
  await page.goto('/dashboard/counter');
  await expect(page.getByRole('heading', { name: 'Counter' })).toBeVisible();
  // Issue 55: offline, a gift card takes a code the shop reserved for this till while it was online.
  await expect(page.getByTestId('device-codes')).toHaveText('5 gift card codes kept for selling offline');
  await context.setOffline(true);
  await expect(page.getByText('Offline: sales are kept on this device')).toBeVisible();

  await page.getByRole('textbox', { name: 'Gift card (amount)' }).fill('15.50');
  await page.getByRole('button', { name: 'Add Gift Card' }).click();
  await expect(page.getByTestId('sale-total')).toHaveText('$15.50');
  await page.getByRole('button', { name: 'Take Cash' }).click();
  await expect(page.getByRole('heading', { name: 'Sale complete' })).toBeVisible();
  await expect(page.getByText('Waiting to sync: this sale is kept on this device')).toBeVisible();
  const receipt = page.getByRole('article', { name: 'Receipt' });
  await expect(receipt).toContainText('Recorded offline: waiting to sync.');
  const code = await printedCode(receipt);
  await page.screenshot({ path: `${SHOTS}/counter-gift-card-offline-375.png`, fullPage: true });
  // Not on the shop yet: the card does not exist.
  expect((await checkBalance(request, code)).status()).toBe(404);

  await context.setOffline(false);
  await expect(page.getByText('Synced: the shop has this sale.')).toBeVisible({ timeout: 20_000 });
  await expect(receipt.getByTestId('receipt-gift-card-code')).toHaveText(`Code ${code}`);
  expect(await balanceOf(request, code)).toBe(15.5);
  // Once: a reload sends whatever is still queued, and nothing is.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Counter' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Sales not yet synced' })).toHaveCount(0);
  expect(await balanceOf(request, code)).toBe(15.5);
});
