import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { noHorizontalOverflow, ownerToken } from './helpers';

// The worker's features: the parallel project blocks service workers elsewhere (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

// A manager's approval on the till (issue 55) in Chromium at 375 px: a bookseller of the test's own
// sets the device's till, sells gift cards up to the day's allowance (200.00 by default), and the
// next one is stopped with a 'Manager approval' dialog; a wrong password is said so in the dialog,
// the manager's right one completes the sale, recorded with the approver. The codes are the shop's.

const SHOTS = 'artifacts/screenshots';
const PASSWORD = 'margins-and-footnotes-9';

async function staffMember(request: APIRequestContext, role: 'bookseller' | 'manager', displayName: string): Promise<string> {
  const username = `appr-${role.slice(0, 1)}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const made = await request.post('/api/admin/staff', { headers: { Authorization: `Bearer ${await ownerToken(request)}` }, data: { username, displayName, role, password: PASSWORD } });
  expect(made.status()).toBe(201);
  return username;
}

async function signIn(page: Page, username: string) {
  await page.goto('/admin');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
}

async function sellGiftCard(page: Page, amount: string) {
  await page.getByRole('textbox', { name: 'Gift card (amount)' }).fill(amount);
  await page.getByRole('button', { name: 'Add Gift Card' }).click();
  await page.getByRole('button', { name: 'Take Cash' }).click();
}

test.use({ viewport: { width: 375, height: 812 } });

test("a bookseller's gift card past the day's allowance needs a manager's approval on the till at 375px", async ({ page, request }) => {
  const manager = await staffMember(request, 'manager', 'Morgan Approver');
  const bookseller = await staffMember(request, 'bookseller', 'Robin Till');
  await signIn(page, bookseller);
  await page.goto('/dashboard/counter');

  // This device is till 7 (kept on the device).
  const till = page.getByRole('textbox', { name: 'Till' });
  await till.fill('Till 7');
  await page.getByRole('button', { name: 'Save Till' }).click();
  await expect(till).toHaveValue('till-7');

  // 150.00: within the allowance; its code is the shop's, printed on the receipt.
  await sellGiftCard(page, '150');
  await expect(page.getByRole('heading', { name: 'Sale complete' })).toBeVisible();
  await expect(page.getByTestId('receipt-gift-card-code')).toHaveText(/^Code [0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
  await page.getByRole('button', { name: 'New Sale' }).click();

  // 100.00 more passes 200.00: the till asks for a manager.
  await sellGiftCard(page, '100');
  const dialog = page.getByRole('dialog', { name: 'Manager approval' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('a manager must approve this');
  await dialog.getByLabel("Manager's username").fill(manager);
  await dialog.getByLabel("Manager's password").fill('not-the-password-1');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog.getByRole('alert')).toContainText('The approval was refused');
  await noHorizontalOverflow(page);
  await page.screenshot({ path: `${SHOTS}/counter-manager-approval-375.png`, fullPage: true });

  await dialog.getByLabel("Manager's password").fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Sale complete' })).toBeVisible();
  await expect(page.getByTestId('receipt-gift-card-code')).toHaveText(/^Code /);

  // Recorded under the bookseller, on till 7, approved by the manager.
  const link = page.getByRole('link', { name: 'Return items from this sale' });
  await expect(link).toBeVisible();
  const saleId = (await link.getAttribute('href'))!.split('/').pop()!;
  const res = await request.get(`/api/admin/sales/${saleId}`, { headers: { Authorization: `Bearer ${await ownerToken(request)}` } });
  expect(res.status()).toBe(200);
  const { sale } = await res.json();
  expect(sale).toMatchObject({ tillId: 'till-7', by: { username: bookseller }, approvedBy: { username: manager, name: 'Morgan Approver' }, total: 100 });
});
