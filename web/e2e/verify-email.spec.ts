import { expect, test, type Page } from '@playwright/test';
import { AUTH_EMULATOR, booksInStock, fillDelivery } from './helpers';

// Issue 16: orders only from verified email addresses. A new email/password customer is refused
// until the link from the verification email (the Auth emulator's out-of-band code) was opened.

const AUTH = AUTH_EMULATOR;

async function fillCheckout(page: Page) {
  await fillDelivery(page, { name: 'Vera Verified', street: '3 Inbox Road' });
  await page.getByLabel(/I agree to the/).check();
}

/** Opens the verification link the emulator "sent" to `email`, as the customer would from their inbox. */
async function openVerificationLink(page: Page, email: string) {
  const res = await page.request.get(`${AUTH}/emulator/v1/projects/demo-bookstore/oobCodes`);
  const { oobCodes } = (await res.json()) as { oobCodes: { email: string; oobCode: string; requestType: string }[] };
  const code = oobCodes.filter((c) => c.email === email && c.requestType === 'VERIFY_EMAIL').pop();
  expect(code, `a verification email for ${email}`).toBeTruthy();
  const applied = await page.request.post(`${AUTH}/identitytoolkit.googleapis.com/v1/accounts:update?key=demo-api-key`, { data: { oobCode: code!.oobCode } });
  expect(applied.ok()).toBe(true);
}

test('a new email/password customer verifies their address through the emulator, then orders', async ({ page }) => {
  const [book] = await booksInStock(page);
  const email = `verify-${Date.now()}@example.com`;
  await page.goto('/register');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password').fill('verify-pass-1');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'User registered successfully' })).toBeVisible();
  await page.getByRole('button', { name: 'OK' }).click();

  await page.goto(`/books/${book!._id}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByText('Item added to cart')).toBeVisible();
  await page.goto('/checkout');
  await expect(page.getByRole('heading', { name: 'Cash On Delevary' })).toBeVisible();
  const gate = page.getByRole('region', { name: 'Verify your email address first' });
  await expect(gate).toBeVisible();

  // Ordering anyway: the API refuses it, and the checkout says why.
  await fillCheckout(page);
  await page.getByRole('button', { name: 'Place an Order' }).click();
  await expect(page.getByRole('heading', { name: 'Failed to create order' })).toBeVisible();
  await expect(page.getByRole('dialog')).toContainText('Verify your email address first');
  await page.getByRole('button', { name: 'OK' }).click();

  // Continuing before opening the link changes nothing.
  await gate.getByRole('button', { name: 'I Have Verified, Continue' }).click();
  await expect(gate.getByRole('status')).toContainText('not verified yet');

  await gate.getByRole('button', { name: 'Send Verification Email' }).click();
  await expect(gate.getByRole('status')).toContainText('Verification email sent');
  await openVerificationLink(page, email);
  await gate.getByRole('button', { name: 'I Have Verified, Continue' }).click();
  await expect(gate).toBeHidden();

  // What was typed is still there: the order goes through now.
  await page.getByRole('button', { name: 'Place an Order' }).click();
  await expect(page.getByRole('heading', { name: 'Confirmed Order' })).toBeVisible();
  await page.getByRole('button', { name: 'Yes, OK!' }).click();
  await expect(page).toHaveURL('/orders');
  await expect(page.getByText(email).first()).toBeVisible();
  await expect(page.getByText(book!.title).first()).toBeVisible();
});
