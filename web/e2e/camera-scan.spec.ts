import { fileURLToPath } from 'node:url';
import { CHROMIUM, CHROMIUM_ARGS } from '../../playwright.config';
import { cameraIsbn } from './camera/make-ean13-video';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, ownerToken, test, uniqueTitle } from './fixtures';
import { noHorizontalOverflow } from './helpers';

// Camera scanning (issue 57) in Chromium with a fake camera: the camera plays a recording of an
// EAN-13 barcode drawn by web/e2e/camera/make-ean13-video.ts. Chromium on Linux has no
// BarcodeDetector of its own, so this runs the WebAssembly reader (barcode-detector's ponyfill),
// its .wasm served from our own site under the shop's CSP. The ISBN read is added as a typed one:
// on the counter the book is sold, on Receiving its copies are counted. The counter's receipt
// actions after the sale (the printable page without a USB printer, the receipt mailed) run here too.

const ISBN = cameraIsbn();
const VIDEO = fileURLToPath(new URL(`./camera/ean13-${ISBN}.y4m`, import.meta.url));

// Launch flags are per browser: this file's workers start a Chromium whose camera is the recording
// and whose permission prompt answers yes.
test.use({
  launchOptions: {
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${VIDEO}`],
  },
});

/** A bookseller of the test's own, signed in on `page` (the demo owner's sign-ins contend across workers). */
async function signInBookseller(page: Page, request: APIRequestContext): Promise<void> {
  const username = `camera-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const made = await request.post('/api/admin/staff', { headers: { Authorization: `Bearer ${await ownerToken(request)}` }, data: { username, displayName: 'Sam Scan', role: 'bookseller', password: 'margins-and-footnotes-9' } });
  expect(made.status()).toBe(201);
  await page.goto('/admin');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('margins-and-footnotes-9');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
}

test('the counter: Scan with camera adds the book once, then a cash sale prints and mails its receipt (375 px)', async ({ page, request, makeBook }) => {
  // A book of an earlier run that stopped before its clean-up would hold this ISBN: delete it.
  const token = await ownerToken(request);
  const left = await request.get(`/api/admin/sales/books/${ISBN}`, { headers: { Authorization: `Bearer ${token}` } });
  if (left.status() === 200) await request.delete(`/api/books/${(await left.json()).book._id}`, { headers: { Authorization: `Bearer ${token}` } });
  const book = await makeBook({ title: uniqueTitle('Camera Book'), isbn: ISBN, stock: 4, newPrice: 9.5 });

  await page.setViewportSize({ width: 375, height: 812 });
  await signInBookseller(page, request);
  await page.goto('/dashboard/counter');
  await page.getByRole('button', { name: 'Scan with camera' }).click();
  const dialog = page.getByRole('dialog', { name: 'Scan with camera' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('status')).toHaveText(`Added ISBN ${ISBN}. Scan the next book.`, { timeout: 30_000 });
  const line = page.getByRole('list', { name: 'Books in this sale' }).getByRole('listitem').filter({ hasText: book.title });
  await expect(line.getByTestId('quantity')).toHaveText('1');
  // The barcode stays in view: it is one copy, not one per frame.
  await page.waitForTimeout(2000);
  await expect(line.getByTestId('quantity')).toHaveText('1');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('sale-total')).toHaveText('$9.50');
  await noHorizontalOverflow(page);

  await page.getByLabel(/Amount tendered/).fill('10');
  await page.getByRole('button', { name: 'Take Cash' }).click();
  await expect(page.getByRole('heading', { name: 'Sale complete' })).toBeVisible();

  // No USB printer is paired here: Print Receipt opens the shop's printable page, the original.
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Print Receipt' }).click();
  const receiptPage = await popup;
  await expect(receiptPage.locator('body')).toContainText(book.title);
  await expect(receiptPage.locator('body')).toContainText('Change');
  await expect(receiptPage.locator('body')).not.toContainText('COPY');
  await receiptPage.close();

  const email = `camera-${Date.now().toString(36)}@example.com`;
  await page.getByLabel("Customer's email").fill(email);
  await page.getByRole('button', { name: 'Email Receipt' }).click();
  await expect(page.getByRole('status').filter({ hasText: `The receipt is on its way to ${email}` })).toBeVisible();
  await noHorizontalOverflow(page);
});

test('Receiving: Scan with camera counts a copy of the ISBN read (375 px)', async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signInBookseller(page, request);
  await page.goto('/dashboard/receiving');
  await page.getByRole('button', { name: 'Scan with camera' }).click();
  const dialog = page.getByRole('dialog', { name: 'Scan with camera' });
  await expect(dialog.getByRole('status')).toHaveText(`Added ISBN ${ISBN}. Scan the next book.`, { timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByLabel(`Copies of ${ISBN}`)).toHaveValue('1');
});

test('a refused camera permission is said in the dialog, which closes', async ({ page, request }) => {
  // The browser's answer when the person refuses (the fake prompt here always allows).
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
  });
  await signInBookseller(page, request);
  await page.goto('/dashboard/counter');
  await page.getByRole('button', { name: 'Scan with camera' }).click();
  const dialog = page.getByRole('dialog', { name: 'Scan with camera' });
  await expect(dialog.getByRole('alert')).toHaveText(/Camera permission was refused/);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel('Scan or type an ISBN')).toBeVisible();
});
