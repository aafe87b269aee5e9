import type { APIRequestContext, Page } from '@playwright/test';
import { expect, ownerToken, test, uniqueTitle } from './fixtures';
import { shopDay } from '@bookstore/contract';
import { adminLogin, isbnPair, noHorizontalOverflow } from './helpers';

// The worker's features: the parallel project blocks service workers elsewhere (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

// Counter sales (issue 39) in Chromium: a bookseller's till at 375 px (a phone) and 1024 px (a
// tablet), typing digits and Enter as a barcode scanner does; and the offline counter: sell with the
// network gone, reconnect, the sale reaches the server once and the stock moves once. Each test sells
// books of its own (with ISBNs of its own).

const SHOTS = 'artifacts/screenshots';
const PASSWORD = 'margins-and-footnotes-9';

async function stockOf(request: APIRequestContext, id: string): Promise<number> {
  const res = await request.get(`/api/books/${id}`);
  expect(res.status()).toBe(200);
  return (await res.json()).stock;
}

/** A bookseller of the test's own, signed in on `page` (the counter's everyday user). */
async function signInBookseller(page: Page, request: APIRequestContext): Promise<string> {
  const username = `till-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const made = await request.post('/api/admin/staff', { headers: { Authorization: `Bearer ${await ownerToken(request)}` }, data: { username, displayName: 'Robin Till', role: 'bookseller', password: PASSWORD } });
  expect(made.status()).toBe(201);
  await page.goto('/admin');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  return username;
}

async function scan(page: Page, digits: string) {
  const field = page.getByLabel('Scan or type an ISBN');
  await field.pressSequentially(digits);
  await field.press('Enter');
}

/** Today's counter sales of one book, through the API. */
async function salesOfBook(request: APIRequestContext, bookId: string, day: string): Promise<{ _id: string; by: { name: string } }[]> {
  const token = await ownerToken(request);
  const res = await request.get(`/api/admin/sales?date=${day}&limit=100`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return (await res.json()).sales.filter((s: { lines: { bookId: string }[] }) => s.lines.some((l) => l.bookId === bookId));
}

for (const [width, height] of [[375, 812], [1024, 768]] as const) {
  test(`scan, Take Cash, Sale complete at ${width}px`, async ({ page, request, makeBook }) => {
    const { isbn13, isbn10 } = isbnPair();
    const book = await makeBook({ title: uniqueTitle('Counter Book'), author: 'Ada Till', isbn: isbn13, stock: 3, newPrice: 12.5 });
    await page.setViewportSize({ width, height });
    await adminLogin(page);
    await page.goto('/dashboard/counter');
    await expect(page.getByRole('heading', { name: 'Counter' })).toBeVisible();

    // A scanner types the digits and Enter; the same book again is one more copy (here by its ISBN-10).
    await scan(page, isbn13);
    const line = page.getByRole('list', { name: 'Books in this sale' }).getByRole('listitem').filter({ hasText: book.title });
    await expect(line).toBeVisible();
    await expect(line.getByTestId('quantity')).toHaveText('1');
    await scan(page, isbn10);
    await expect(line.getByTestId('quantity')).toHaveText('2');
    await expect(page.getByTestId('sale-total')).toHaveText('$25.00');

    // An ISBN nobody has: said so, with the ISBN lookup offered.
    const unknown = isbnPair().isbn13;
    await scan(page, unknown);
    await expect(page.getByText(`No book in the catalogue has ISBN ${unknown}.`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Look Up ISBN' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Add this book to the catalogue' })).toHaveAttribute('href', `/dashboard/add-new-book?isbn=${unknown}`);

    await page.getByLabel(/Amount tendered/).fill('30');
    await expect(page.getByText('Change: $5.00')).toBeVisible();
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/counter-sale-${width}.png`, fullPage: true });

    await page.getByRole('button', { name: 'Take Cash' }).click();
    await expect(page.getByRole('heading', { name: 'Sale complete' })).toBeVisible();
    await expect(page.getByText('Change due: $5.00')).toBeVisible();
    const receipt = page.getByRole('article', { name: 'Receipt' });
    await expect(receipt).toContainText(book.title);
    await expect(receipt).toContainText('2 x $12.50');
    await expect(receipt).toContainText('$25.00');
    await expect(receipt).toContainText('Served by');
    await expect(page.getByRole('button', { name: 'Print Receipt' })).toBeVisible();
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/counter-complete-${width}.png`, fullPage: true });
    await expect.poll(() => stockOf(request, book._id)).toBe(1); // 'Sale complete' shows once the sale is on the device; the server may answer a moment later

    // Printed, the page is the receipt alone: no dashboard, no buttons.
    await page.emulateMedia({ media: 'print' });
    await expect(receipt).toBeVisible();
    for (const hidden of [page.getByRole('button', { name: 'New Sale' }), page.getByRole('heading', { name: 'Dashboard' }), page.getByRole('button', { name: 'Log out' })]) await expect(hidden).toBeHidden();
    await page.screenshot({ path: `${SHOTS}/counter-receipt-print-${width}.png`, fullPage: true });
    await page.emulateMedia({ media: 'screen' });

    // The next sale starts empty, the scan field ready.
    await page.getByRole('button', { name: 'New Sale' }).click();
    await expect(page.getByLabel('Scan or type an ISBN')).toBeFocused();
    await expect(page.getByTestId('sale-total')).toHaveText('$0.00');
  });
}

test('offline: sell with the network gone, reconnect, the sale is synced once and the stock moves once', async ({ page, context, request, makeBook }) => {
  const { isbn13 } = isbnPair();
  const book = await makeBook({ title: uniqueTitle('Offline Book'), isbn: isbn13, stock: 2, newPrice: 9.99 });
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInBookseller(page, request);
  await page.getByRole('link', { name: 'Counter' }).first().click();
  await expect(page).toHaveURL('/dashboard/counter');
  // The device's copy of the book list has been made (it holds this test's book, made before).
  await expect(page.getByTestId('device-books')).toContainText('list updated');
  await expect(page.getByTestId('device-books')).not.toContainText('updating');

  await context.setOffline(true);
  await expect(page.getByText('Offline: sales are kept on this device')).toBeVisible();
  await scan(page, isbn13);
  await expect(page.getByRole('list', { name: 'Books in this sale' })).toContainText(book.title);
  await expect(page.getByTestId('sale-total')).toHaveText('$9.99');
  await page.getByRole('button', { name: 'Take Cash' }).click();
  await expect(page.getByRole('heading', { name: 'Sale complete' })).toBeVisible();
  await expect(page.getByText('Waiting to sync: this sale is kept on this device')).toBeVisible();
  const queued = page.getByRole('list', { name: 'Sales not yet synced' }).getByRole('listitem');
  await expect(queued).toHaveCount(1);
  await expect(queued).toContainText('waiting to sync');
  await page.screenshot({ path: `${SHOTS}/counter-offline-1024.png`, fullPage: true });
  // Nothing reached the shop yet.
  expect(await stockOf(request, book._id)).toBe(2);

  await context.setOffline(false);
  await expect(page.getByRole('list', { name: 'Synced sales' })).toContainText('synced', { timeout: 20_000 });
  await expect(page.getByRole('list', { name: 'Sales not yet synced' })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/counter-synced-1024.png`, fullPage: true });
  expect(await stockOf(request, book._id)).toBe(1);

  // Once: a reload (which sends whatever is still queued) sends nothing again.
  await page.reload();
  await expect(page.getByLabel('Scan or type an ISBN')).toBeVisible();
  await expect(page.getByTestId('device-books')).not.toContainText('updating');
  const day = shopDay(new Date());
  const sales = await salesOfBook(request, book._id, day);
  expect(sales).toHaveLength(1);
  expect(sales[0]!.by.name).toBe('Robin Till');
  expect(await stockOf(request, book._id)).toBe(1);
});

test('offline: a sale the shop refuses when it syncs (the last copy went online meanwhile) is shown with what to do', async ({ page, context, request, makeBook, shopper }) => {
  const { isbn13 } = isbnPair();
  const book = await makeBook({ title: uniqueTitle('Last Copy'), isbn: isbn13, stock: 1, newPrice: 15 });
  await page.setViewportSize({ width: 375, height: 812 });
  await adminLogin(page);
  await page.goto('/dashboard/counter');
  await expect(page.getByTestId('device-books')).toContainText('list updated');
  await expect(page.getByTestId('device-books')).not.toContainText('updating');

  await context.setOffline(true);
  await scan(page, isbn13);
  await page.getByRole('button', { name: 'Take Cash' }).click();
  await expect(page.getByRole('heading', { name: 'Sale complete' })).toBeVisible();
  // Meanwhile a shopper orders the same last copy on the web.
  const order = await request.post('/api/orders', {
    headers: { Authorization: `Bearer ${shopper.token}`, 'Idempotency-Key': `counter-last-${book._id}` },
    data: { name: 'Web Shopper', email: shopper.email, phone: '5551234567', address: { street: '1 Main St', city: 'Springfield', country: 'US', state: 'IL', zipcode: '62701' }, productIDs: [book._id], totalPrice: '15.00' },
  });
  expect(order.status()).toBe(201);

  await context.setOffline(false);
  const refused = page.getByRole('list', { name: 'Sales not yet synced' }).getByRole('alert');
  await expect(refused).toContainText('Refused by the shop: Not enough copies in stock', { timeout: 20_000 });
  await expect(refused).toContainText(`ISBN ${isbn13}`);
  await expect(refused).toContainText('sold online while this counter was offline');
  await expect(refused.getByRole('button', { name: 'Send Again' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/counter-refused-375.png`, fullPage: true });
  expect(await stockOf(request, book._id)).toBe(0);

  await refused.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('button', { name: 'Remove Sale' }).click();
  await expect(page.getByRole('list', { name: 'Sales not yet synced' })).toHaveCount(0);
});

test('a return at the counter and the day\'s end', async ({ page, request, makeBook }) => {
  const { isbn13 } = isbnPair();
  const book = await makeBook({ title: uniqueTitle('Returned Book'), isbn: isbn13, stock: 4, newPrice: 8 });
  await page.setViewportSize({ width: 375, height: 812 });
  await adminLogin(page);
  await page.goto('/dashboard/counter');
  await scan(page, isbn13);
  await scan(page, isbn13);
  // Both scans on the line before paying (each may ask the shop while the device's list is still being copied).
  await expect(page.getByTestId('sale-total')).toHaveText('$16.00');
  await page.getByRole('button', { name: 'Take Cash' }).click();
  await expect(page.getByRole('heading', { name: 'Sale complete' })).toBeVisible();
  await expect.poll(() => stockOf(request, book._id)).toBe(2); // the sale reaches the server just after 'Sale complete'

  await page.getByRole('link', { name: 'Return items from this sale' }).click();
  await expect(page.getByRole('heading', { name: 'Return Items' })).toBeVisible();
  await page.getByLabel(book.title).fill('1');
  await page.getByLabel('Cash', { exact: true }).check();
  await expect(page.getByText('Refund: $8.00')).toBeVisible();
  await page.getByRole('button', { name: 'Record Return' }).click();
  await expect(page.getByText('Return recorded: give back $8.00 by Cash.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Returns' })).toBeVisible();
  expect(await stockOf(request, book._id)).toBe(3);
  await page.screenshot({ path: `${SHOTS}/counter-return-375.png`, fullPage: true });

  await page.getByRole('link', { name: "Day's End" }).click();
  await expect(page.getByRole('heading', { name: "Day's End" })).toBeVisible();
  await expect(page.getByTestId('day-net')).toBeVisible();
  await noHorizontalOverflow(page);
  await page.screenshot({ path: `${SHOTS}/counter-day-end-375.png`, fullPage: true });

  // The overview: counter sales beside the web's, and the two together (its figures are shop-wide,
  // and other tests sell meanwhile: only that they add up is checked here).
  await page.goto('/dashboard');
  const channels = page.getByRole('region', { name: 'Web and Counter' });
  await expect(channels).toBeVisible();
  const amount = async (id: string) => Number((await channels.getByTestId(id).textContent())!.replace(/[$,]/g, ''));
  expect(Math.round((await amount('sales-web')) * 100) + Math.round((await amount('sales-counter')) * 100)).toBe(Math.round((await amount('sales-together')) * 100));
  await channels.screenshot({ path: `${SHOTS}/counter-overview-375.png` });
});
