import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { test as withOwnData } from './fixtures';
import { addToCart, adminLogin, apiBooks, cartCounts, fillDelivery, settled, signIn } from './helpers';

// axe-core on every kind of screen: no serious or critical violations.
async function scan(page: import('@playwright/test').Page, what: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${what}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.html.slice(0, 80)}`)).toEqual([]);
}

test('storefront screens have no serious accessibility violations', async ({ page }) => {
  test.setTimeout(120_000); // ten pages, each settled and scanned, beside other tests
  const [book] = await apiBooks(page);
  for (const path of ['/', `/books/${book!._id}`, '/cart', '/login', '/register', '/about', '/search?q=the', '/books', '/books?category=technology&minPrice=100', '/nowhere']) {
    await page.goto(path);
    await settled(page);
    await scan(page, path);
  }
});

test('/wishlist has no serious accessibility violations, empty and with books', async ({ page }) => {
  await page.goto('/wishlist');
  await expect(page.getByText('Your wishlist is empty.')).toBeVisible();
  await scan(page, '/wishlist (empty)');
  const books = await apiBooks(page);
  await page.evaluate((ids) => localStorage.setItem('bookstore.wishlist', JSON.stringify(ids)), books.slice(0, 3).map((b) => b._id));
  await page.reload();
  await expect(page.getByTestId('wishlist-line')).toHaveCount(3);
  await settled(page);
  await scan(page, '/wishlist');
});

withOwnData('/checkout has no serious accessibility violations, before and after the address is priced', async ({ page, shopper, makeBook }) => {
  const book = await makeBook();
  await signIn(page, shopper.email, shopper.password);
  await addToCart(page, book);
  await cartCounts(page, 1);
  await page.goto('/checkout');
  await expect(page.getByTestId('quote-summary')).toBeVisible();
  await settled(page);
  await scan(page, '/checkout (no address)');
  await fillDelivery(page);
  await expect(page.getByTestId('quote-total')).toHaveText(/^\$\d/);
  await settled(page);
  await scan(page, '/checkout (priced)');
});

test('admin screens have no serious accessibility violations', async ({ page }) => {
  await page.goto('/admin');
  await scan(page, '/admin');
  await adminLogin(page);
  await expect(page.getByText('Total Orders')).toBeVisible();
  for (const path of ['/dashboard', '/dashboard/manage-books', '/dashboard/add-new-book', '/dashboard/orders', '/dashboard/preorders', '/dashboard/special-orders', '/dashboard/counter', '/dashboard/counter/day']) {
    await page.goto(path);
    await settled(page);
    await scan(page, path);
  }
});
