import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import { adminLogin, noHorizontalOverflow, ownerToken } from './helpers';

// A till's shift (issue 57) in Chromium at 375 px: this device becomes a till of the test's own,
// opens a shift with a float, a cash sale is made at that till, a pay-out is recorded with its
// reason, and the close with the cash counted shows what the drawer should hold and the shortfall.
// No USB printer is paired here: Print Z-report opens the shop's printable 80 mm page, and so does
// the day's.

const SHOTS = 'artifacts/screenshots';

test.use({ viewport: { width: 375, height: 812 } });

test('open a shift, a cash sale and a pay-out, close it with the count at 375px', async ({ page, request, makeBook }) => {
  const tillId = `till-e2e-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const book = await makeBook({ title: `Shift Book ${randomUUID().slice(0, 8)}`, stock: 3, newPrice: 12.5 });
  await adminLogin(page);
  await page.goto('/dashboard/counter');
  const till = page.getByRole('textbox', { name: 'Till' });
  await till.fill(tillId);
  await page.getByRole('button', { name: 'Save Till' }).click();
  await expect(till).toHaveValue(tillId);
  await page.getByRole('link', { name: 'Shifts' }).click();
  await expect(page.getByRole('heading', { name: 'Shifts', exact: true })).toBeVisible();
  await expect(page.getByText(`This till: ${tillId}`)).toBeVisible();

  await page.getByLabel('Float in the drawer ($)').fill('50');
  await page.getByRole('button', { name: 'Open Shift' }).click();
  await expect(page.getByRole('heading', { name: 'Shift open' })).toBeVisible();
  await expect(page.getByTestId('shift-expected')).toHaveText('$50.00');

  // A cash sale at this till (as its counter would send it).
  const sold = await request.post('/api/admin/sales', {
    headers: { Authorization: `Bearer ${await ownerToken(request)}` },
    data: { saleId: randomUUID(), tillId, lines: [{ bookId: book._id, quantity: 1 }], payment: { method: 'cash' } },
  });
  expect(sold.status()).toBe(201);

  await page.getByLabel('Kind').selectOption('pay_out');
  await page.getByLabel('Amount ($)').fill('5');
  await page.getByLabel('Reason').fill('Stamps for the post');
  await page.getByRole('button', { name: 'Record' }).click();
  await expect(page.getByRole('list', { name: 'Pay-ins and pay-outs' })).toContainText('Pay-out: Stamps for the post');
  // 50.00 + 12.50 - 5.00
  await expect(page.getByTestId('shift-expected')).toHaveText('$57.50');
  await noHorizontalOverflow(page);
  await page.screenshot({ path: `${SHOTS}/shift-open-375.png`, fullPage: true });

  await page.getByLabel('Cash counted in the drawer ($)').fill('57');
  await page.getByRole('button', { name: 'Close Shift' }).click();
  await expect(page.getByRole('heading', { name: 'Shift closed' })).toBeVisible();
  await expect(page.getByTestId('shift-variance')).toHaveText('$0.50');
  await expect(page.getByText('Short', { exact: true })).toBeVisible();
  // The till is free for the next shift.
  await expect(page.getByRole('button', { name: 'Open Shift' })).toBeVisible();
  await noHorizontalOverflow(page);
  await page.screenshot({ path: `${SHOTS}/shift-closed-375.png`, fullPage: true });
  // axe-core on the page with its Z-report buttons: no serious or critical violations (accessibility.spec's rule).
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${v.nodes[0]?.html.slice(0, 80)}`)).toEqual([]);

  const shiftPopup = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Print Z-report' }).click();
  const report = await shiftPopup;
  for (const part of ['Z-REPORT', `Till ${tillId}`, 'Stamps for the post', 'Expected cash', '$57.50', '$57.00', 'Variance (short)', '-$0.50']) await expect(report.locator('body')).toContainText(part);
  await report.close();
  await expect(page.getByRole('status').filter({ hasText: 'The Z-report opened in a new window to print.' })).toBeVisible();

  const dayPopup = page.waitForEvent('popup');
  await page.getByRole('button', { name: "Print Day's Z-report" }).click();
  const day = await dayPopup;
  for (const part of [`Till ${tillId}`, 'Day totals']) await expect(day.locator('body')).toContainText(part);
  await day.close();
});
