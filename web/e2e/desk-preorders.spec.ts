import AxeBuilder from '@axe-core/playwright';
import { shopToday } from '@bookstore/contract';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, uniqueTitle, type Shopper } from './fixtures';
import { adminLogin, cancelOrder, withIsbn13Check } from './helpers';

// The desk's pre-orders and special orders (issue 41) in Chromium at 375 and 1280 px: the
// pre-order lines listed by publication date, soonest first, with their customer and order; a
// special order moved by staff from the page through quoted -> (accepted by the shopper) ->
// ordered -> arrived -> collected, its pickup order collected with it.

const SHOTS = 'artifacts/screenshots';

/** A date `days` after today in the shop's zone: sooner than any other test's forthcoming book. */
function daysFromToday(days: number): string {
  const d = new Date(`${shopToday()}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Places an order of `bookId` for `shopper` through the API at the price the server names. */
async function order(request: APIRequestContext, shopper: Shopper, bookId: string): Promise<string> {
  const body = { name: 'Pat Waiting', email: shopper.email, phone: '5551234567', address: { street: '1 Main St', city: 'Springfield', country: 'US', state: 'IL', zipcode: '62701' }, productIDs: [bookId] };
  const headers = { Authorization: `Bearer ${shopper.token}` };
  const probe = await request.post('/api/orders', { headers, data: { ...body, totalPrice: '0.01' } });
  expect(probe.status(), 'the server names the price').toBe(409);
  const placed = await request.post('/api/orders', { headers, data: { ...body, totalPrice: (await probe.json()).totalPrice } });
  expect(placed.status()).toBe(201);
  return (await placed.json())._id;
}

/** A valid ISBN-13 under 979-16, unique per call. */
let seq = 0;
function isbn(): string {
  return withIsbn13Check(`97916${String((Date.now() + (seq += 1)) % 1e7).padStart(7, '0')}`);
}

/** axe-core on the page as it stands: no serious or critical violations (accessibility.spec's rule). */
async function noSeriousViolations(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${what}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.html.slice(0, 80)}`)).toEqual([]);
}

/** A page of the dashboard from its navigation: the sidebar, or on phones the menu. */
async function openDeskPage(page: Page, width: number, name: string) {
  if (width < 640) {
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Dashboard menu' }).getByRole('link', { name, exact: true }).click();
  } else {
    await page.getByRole('navigation', { name: 'Dashboard', exact: true }).getByRole('link', { name, exact: true }).click();
  }
}

/** The desk's status tabs: a select on phones, links from 768 px. */
async function openStatus(page: Page, width: number, label: string) {
  if (width < 768) await page.getByRole('combobox', { name: 'Request status' }).selectOption({ label });
  else await page.getByRole('navigation', { name: 'Request status' }).getByRole('link', { name: label, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`status=${label.toLowerCase()}`));
}

for (const width of [375, 1280]) {
  test(`the Pre-orders page lists waiting lines by publication date with their customer and order (${width} px)`, async ({ page, shopper, makeBook, request }) => {
    await page.setViewportSize({ width, height: 900 });
    const later = await makeBook({ title: uniqueTitle('Desk Later'), stock: 0, publishedOn: daysFromToday(9) });
    const sooner = await makeBook({ title: uniqueTitle('Desk Sooner'), stock: 0, publishedOn: daysFromToday(5) });
    // Ordered in the other order than they publish: the page sorts by publication date, not by order.
    const laterOrder = await order(request, shopper, later._id);
    const soonerOrder = await order(request, shopper, sooner._id);

    await adminLogin(page);
    await openDeskPage(page, width, 'Pre-orders');
    await expect(page).toHaveURL('/dashboard/preorders');
    await expect(page.getByRole('heading', { name: 'Pre-orders' })).toBeVisible();
    const rows = width < 768 ? page.getByRole('list', { name: 'Pre-order lines' }).getByRole('listitem') : page.getByRole('row');
    const soonerRow = rows.filter({ hasText: sooner.title });
    const laterRow = rows.filter({ hasText: later.title });
    await expect(soonerRow).toContainText(shopper.email);
    await expect(soonerRow).toContainText('Waiting');
    await expect(laterRow).toContainText(shopper.email);
    const titles = await rows.allInnerTexts();
    const at = (t: string) => titles.findIndex((text) => text.includes(t));
    expect(at(sooner.title)).toBeGreaterThanOrEqual(0);
    expect(at(sooner.title)).toBeLessThan(at(later.title));
    await page.screenshot({ path: `${SHOTS}/desk-preorders-${width}.png`, fullPage: true });
    await noSeriousViolations(page, `pre-orders at ${width} px`);

    // The order link opens the order on the desk.
    await soonerRow.getByRole('link', { name: new RegExp(`^Order ${soonerOrder.slice(0, 8)}`) }).click();
    await expect(page).toHaveURL(`/dashboard/orders/${soonerOrder}`);
    expect(laterOrder).not.toBe(soonerOrder);
    // Tidy: cancelled, its lines leave the list (the page shows 25; runs of this test one after
    // another would otherwise push a later run's lines, dated as soon, off the first page).
    for (const id of [laterOrder, soonerOrder]) await cancelOrder(request, shopper.token, id);
  });

  test(`staff move a special order from the Special orders page: quoted, ordered, arrived, collected (${width} px)`, async ({ page, shopper, request }) => {
    await page.setViewportSize({ width, height: 900 });
    const title = uniqueTitle('Desk Special');
    const asked = await request.post('/api/special-orders', { headers: { Authorization: `Bearer ${shopper.token}` }, data: { isbn: isbn(), title, quantity: 2 } });
    expect(asked.status()).toBe(201);
    const id = (await asked.json()).specialOrder._id as string;

    await adminLogin(page);
    await openDeskPage(page, width, 'Special Orders');
    await expect(page.getByRole('heading', { name: 'Special orders' })).toBeVisible();
    const item = page.getByRole('listitem', { name: title });
    await expect(item).toContainText(shopper.email.toLowerCase());
    await expect(item).toContainText('2 copies');
    await item.getByRole('button', { name: 'Quote' }).click();
    const quote = item.getByRole('form', { name: `Quote for ${title}` });
    await quote.getByLabel('Price of one copy ($)').fill('19.50');
    await quote.getByLabel('Expected in the shop').fill(daysFromToday(14));
    await page.screenshot({ path: `${SHOTS}/desk-special-quote-${width}.png`, fullPage: true });
    await noSeriousViolations(page, `special orders with a quote open at ${width} px`);
    await quote.getByRole('button', { name: 'Send Quote' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Request quoted' })).toBeVisible();
    await expect(item).toHaveCount(0); // it left the Requested list

    await openStatus(page, width, 'Quoted');
    await expect(item).toContainText('Quoted $19.50 a copy ($39.00 in all)');
    // The shopper accepts the quote: it becomes the pickup order special-<id>.
    const accepted = await request.post(`/api/special-orders/${id}/accept`, { headers: { Authorization: `Bearer ${shopper.token}` }, data: { phone: '5551234567' } });
    expect(accepted.status()).toBe(200);

    for (const [tab, button, done] of [['Accepted', 'Mark Ordered', 'Request ordered'], ['Ordered', 'Mark Arrived', 'Request arrived'], ['Arrived', 'Mark Collected', 'Request collected']] as const) {
      await openStatus(page, width, tab);
      await expect(item.getByRole('button', { name: button })).toBeVisible();
      if (tab === 'Arrived') await page.screenshot({ path: `${SHOTS}/desk-special-arrived-${width}.png`, fullPage: true });
      await item.getByRole('button', { name: button }).click();
      await expect(page.getByRole('status').filter({ hasText: done })).toBeVisible();
      await expect(item).toHaveCount(0);
    }
    await openStatus(page, width, 'Collected');
    await expect(item).toContainText('Quoted $19.50 a copy');
    await page.screenshot({ path: `${SHOTS}/desk-special-collected-${width}.png`, fullPage: true });
    // Its order was collected with it.
    await item.getByRole('link', { name: 'View Order' }).click();
    await expect(page).toHaveURL(`/dashboard/orders/special-${id}`);
    await expect(page.getByTestId('order-status').first()).toHaveText('collected');
  });
}
