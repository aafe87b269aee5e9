import { expect, type Page } from '@playwright/test';

export const CUSTOMER = { email: 'reader@example.com', password: 'reader123' };
export const ADMIN = { username: 'admin', password: 'admin123' };

export async function signIn(page: Page, email = CUSTOMER.email, password = CUSTOMER.password) {
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Login Successful' })).toBeVisible();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL('/');
}

export async function adminLogin(page: Page) {
  await page.goto('/admin');
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL('/dashboard');
}

export async function apiBooks(page: Page): Promise<{ _id: string; title: string; newPrice: number; author?: string; category: string }[]> {
  const res = await page.request.get('/api/books');
  return res.json();
}

/** Fills the checkout form and places the order; returns when /orders shows. */
export async function checkout(page: Page) {
  await page.goto('/checkout');
  await expect(page.getByRole('heading', { name: 'Cash On Delevary' })).toBeVisible();
  await page.getByLabel('Full Name').fill('Riley Reader');
  await page.getByLabel('Phone Number').fill('5551234567');
  await page.getByLabel('Address / Street').fill('12 Paper Lane');
  await page.getByLabel('City').fill('Springfield');
  await page.getByLabel('Country / region').fill('USA');
  await page.getByLabel('State / province').fill('IL');
  await page.getByLabel('Zipcode').fill('62701');
  const place = page.getByRole('button', { name: 'Place an Order' });
  await expect(place).toBeDisabled();
  await page.getByLabel(/I agree to the/).check();
  await expect(place).toBeEnabled();
  await place.click();
  await expect(page.getByRole('heading', { name: 'Confirmed Order' })).toBeVisible();
  await page.getByRole('button', { name: 'Yes, OK!' }).click();
  await expect(page).toHaveURL('/orders');
}
