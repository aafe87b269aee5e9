import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, ownerToken, test, uniqueTitle } from './fixtures';
import { adminLogin, isbnPair } from './helpers';

// Buying (issue 56) in Chromium: a delivery received by scanning on /dashboard/receiving at 375 px
// (a scanner types the digits and Enter), and a purchase order made from the reorder suggestions on
// /dashboard/purchasing at 1280 px.

const SHOTS = 'artifacts/screenshots';

/** axe-core on the page as it stands: no serious or critical violations (accessibility.spec's rule). */
async function noSeriousViolations(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${what}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.html.slice(0, 80)}`)).toEqual([]);
}

test('receives copies scanned by ISBN on the Receiving page and says where they went (375 px)', async ({ page, makeBook, request }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const { isbn13, isbn10 } = isbnPair();
  const book = await makeBook({ title: uniqueTitle('Receiving'), stock: 0, isbn: isbn13 });
  await adminLogin(page);
  await page.goto('/dashboard/receiving');
  const scan = page.getByLabel('Scan or type an ISBN');
  await scan.fill(isbn13);
  await scan.press('Enter');
  await scan.fill(isbn10); // an old barcode of the same book: the same line
  await scan.press('Enter');
  await expect(page.getByLabel(`Copies of ${isbn13}`)).toHaveValue('2');
  await scan.fill('9780306406158');
  await scan.press('Enter');
  await expect(page.getByRole('alert')).toContainText('ISBN must be a valid ISBN-13 or ISBN-10');
  await page.screenshot({ path: `${SHOTS}/receiving-375.png`, fullPage: true });
  await noSeriousViolations(page, 'receiving at 375 px');

  await page.getByRole('button', { name: 'Receive', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Received: 2 to the shelf.' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Copies to receive' })).toHaveCount(0);
  const stored = await request.get(`/api/books/${book._id}`);
  expect((await stored.json()).stock).toBe(2);
});

test('an ISBN the catalogue does not list is received as an unlisted book, listed on the page for staff, never in the shop (375 px)', async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const { isbn13 } = isbnPair();
  await adminLogin(page);
  await page.goto('/dashboard/receiving');
  const scan = page.getByLabel('Scan or type an ISBN');
  await scan.fill(isbn13);
  await scan.press('Enter');
  await scan.fill(isbn13);
  await scan.press('Enter');
  await page.getByRole('button', { name: 'Receive', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Received: 2 to the shelf (2 unlisted: not in the catalogue yet).' })).toBeVisible();
  const row = page.getByRole('list', { name: 'Unlisted books' }).getByRole('listitem').filter({ hasText: isbn13 });
  await expect(row).toContainText(`Unlisted ISBN ${isbn13}`);
  await expect(row).toContainText('2 copies');
  await expect(row.getByRole('link', { name: `Add Unlisted ISBN ${isbn13} to the catalogue` })).toHaveAttribute('href', `/dashboard/add-new-book?isbn=${isbn13}`);
  await page.screenshot({ path: `${SHOTS}/receiving-unlisted-375.png`, fullPage: true });
  await noSeriousViolations(page, 'receiving with unlisted books at 375 px');
  // Not a book: the shop has no page for it.
  expect((await request.get(`/api/books/${isbn13}`)).status()).toBe(404);
});

test('a receipt made offline waits on the device and is received once when the network returns (375 px)', async ({ page, context, makeBook, request }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const { isbn13 } = isbnPair();
  const book = await makeBook({ title: uniqueTitle('Receiving Offline'), stock: 1, isbn: isbn13 });
  const stock = async () => (await (await request.get(`/api/books/${book._id}`)).json()).stock as number;
  await adminLogin(page);
  await page.goto('/dashboard/receiving');
  await expect(page.getByLabel('Scan or type an ISBN')).toBeVisible();

  await context.setOffline(true);
  const scan = page.getByLabel('Scan or type an ISBN');
  await scan.fill(isbn13);
  await scan.press('Enter');
  await page.getByRole('button', { name: 'Receive', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved on this device' })).toBeVisible();
  await expect(page.getByText('1 receipt waits on this device for the network.')).toBeVisible();
  expect(await stock()).toBe(1); // nothing reached the shop yet

  await context.setOffline(false);
  await expect(page.getByRole('status').filter({ hasText: 'Received: 1 to the shelf.' })).toBeVisible({ timeout: 20_000 });
  expect(await stock()).toBe(2);
  // Once: a reload (which sends whatever is still queued) receives nothing again.
  await page.reload();
  await expect(page.getByLabel('Scan or type an ISBN')).toBeVisible();
  await expect(page.getByText(/waits? on this device/)).toHaveCount(0);
  expect(await stock()).toBe(2);
});

test('makes a purchase order from the reorder suggestions (1280 px)', async ({ page, makeBook, request }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const token = await ownerToken(request);
  const name = uniqueTitle('Supplier');
  const supplier = await request.post('/api/admin/suppliers', { headers: { Authorization: `Bearer ${token}` }, data: { name } });
  expect(supplier.status()).toBe(201);
  const { isbn13 } = isbnPair();
  const book = await makeBook({ title: uniqueTitle('Below Minimum'), stock: 1, isbn: isbn13, reorderMin: 4 });

  await adminLogin(page);
  await page.goto('/dashboard/purchasing');
  const suggestion = page.getByRole('list', { name: 'Suggestions' }).getByRole('listitem').filter({ hasText: book.title });
  await expect(suggestion).toContainText('3 below minimum');
  await suggestion.getByRole('checkbox').check();
  await suggestion.getByLabel(`Unit cost of ${isbn13} ($)`).fill('6.40');
  await page.getByLabel('Supplier', { exact: true }).selectOption({ label: name });
  await page.screenshot({ path: `${SHOTS}/purchasing-1280.png`, fullPage: true });
  await noSeriousViolations(page, 'purchasing at 1280 px');
  await page.getByRole('button', { name: 'Make Purchase Order' }).click();
  await expect(page.getByRole('dialog')).toContainText('Purchase order drafted');
  await expect(page.getByRole('dialog')).toContainText('$19.20');
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('tab', { name: 'Draft' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: 'Purchase orders' }).getByRole('listitem').filter({ hasText: name })).toContainText('0 of 3 in');
});
