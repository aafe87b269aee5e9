import { expect, test } from './fixtures';
import { adminLogin, apiBooks, booksInStock, cartCounts, checkout, noHorizontalOverflow, settled, signIn } from './helpers';

// Screenshots for people to look at (artifacts/screenshots, not committed). Each page is also
// checked for horizontal overflow, the most common way a layout breaks on a phone.

const SHOTS = 'artifacts/screenshots';

/** Full-page shots catch lazy images before they load: load them all first. */
async function loadLazyImages(page: import('@playwright/test').Page) {
  await page.evaluate(() => document.querySelectorAll<HTMLImageElement>('img[loading="lazy"]').forEach((img) => (img.loading = 'eager')));
  await settled(page);
}

for (const width of [375, 768, 1280]) {
  test(`storefront screens at ${width}px`, async ({ page, shopper }) => {
    await page.setViewportSize({ width, height: 900 });
    const books = await booksInStock(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Top Sellers' })).toBeVisible();
    await settled(page);
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/home-${width}.png`, fullPage: true });

    await page.goto('/books');
    await expect(page.getByRole('list', { name: 'Books' }).getByRole('heading', { level: 2 }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/books-${width}.png`, fullPage: true });
    await page.goto('/books?category=horror&maxPrice=10');
    await page.waitForLoadState('networkidle');
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/books-filtered-${width}.png` });

    await page.goto('/');
    await page.getByRole('combobox', { name: 'Search books' }).fill('the');
    await expect(page.getByRole('option').first()).toBeVisible();
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/suggestions-${width}.png` });

    await page.goto(`/books/${books[1]!._id}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/detail-${width}.png`, fullPage: true });

    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await cartCounts(page, 1);
    await page.goto('/cart');
    await expect(page.getByText('Subtotal')).toBeVisible();
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/cart-${width}.png`, fullPage: true });

    await signIn(page, shopper.email, shopper.password); // a customer of its own: the orders shown are this test's
    await page.goto('/checkout');
    await expect(page.getByRole('heading', { name: 'Cash On Delevary' })).toBeVisible();
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/checkout-${width}.png`, fullPage: true });

    // Place the order, so the customer's list, an order page and the desk have something to show.
    await checkout(page);
    await expect(page.getByRole('heading', { name: 'Your Orders' })).toBeVisible();
    await expect(page.getByTestId('order-status').first()).toBeVisible();
    await noHorizontalOverflow(page);
    await loadLazyImages(page);
    await page.screenshot({ path: `${SHOTS}/orders-${width}.png`, fullPage: true });

    await page.getByRole('link', { name: /^View Order/ }).first().click();
    await expect(page.getByRole('list', { name: 'Order history' })).toBeVisible();
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/order-detail-${width}.png`, fullPage: true });

    await page.goto('/login');
    await page.screenshot({ path: `${SHOTS}/login-${width}.png` });
  });
}

for (const width of [375, 1280]) {
  test(`dashboard screens at ${width}px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/admin');
    await page.screenshot({ path: `${SHOTS}/admin-login-${width}.png` });
    await adminLogin(page);
    await expect(page.getByText('Total Orders')).toBeVisible();
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/dashboard-${width}.png`, fullPage: true });
    await page.goto('/dashboard/orders');
    await expect(page.getByRole('heading', { name: 'Orders', exact: true })).toBeVisible();
    const firstOrder = page.locator('a[href^="/dashboard/orders/"]:visible').first();
    await expect(firstOrder).toBeVisible();
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/desk-${width}.png`, fullPage: true });
    await firstOrder.click();
    await expect(page.getByRole('list', { name: 'Order history' })).toBeVisible();
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/desk-order-${width}.png`, fullPage: true });

    await page.goto('/dashboard/manage-books');
    await expect(page.getByRole('heading', { name: 'All Books' })).toBeVisible();
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/manage-books-${width}.png`, fullPage: true });
    await page.goto('/dashboard/add-new-book');
    await expect(page.getByRole('heading', { name: 'Add New Book' })).toBeVisible();
    await noHorizontalOverflow(page);
    await page.screenshot({ path: `${SHOTS}/add-book-${width}.png`, fullPage: true });
    const [book] = await apiBooks(page);
    await page.goto(`/dashboard/edit-book/${book!._id}`);
    await expect(page.getByRole('heading', { name: 'Update Book' })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/edit-book-${width}.png`, fullPage: true });
  });
}
