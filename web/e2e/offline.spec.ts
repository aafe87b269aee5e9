import { expect, test } from '@playwright/test';
import { addToCart, adminLogin, booksInStock, fillDelivery, newCustomer, signIn } from './helpers';
import { catalogueCached, workerControls } from './pwa-helpers';

// The worker's features: the parallel project blocks service workers elsewhere (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

// Issue 14 part 3: with the network gone, the pages the shopper has opened render from the service
// worker's caches, the cart works (it is local storage), and checkout says 'You are offline' with
// its button disabled; back online, the order goes through without a reload.

test('offline: visited pages render, the cart works, checkout waits for the network, then the order goes through', async ({ page, context, request }) => {
  const [first, second, unopened] = await booksInStock(page, 3);
  // A customer of its own: the demo customer's open-order limit (10) would refuse a run repeated 10 times.
  const customer = await newCustomer(request, 'offline');
  await signIn(page, customer.email, customer.password); // online: signing in is one of the things that needs the network
  await workerControls(page);

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Top Sellers' })).toBeVisible();
  const homeBook = (await page.locator('main article h3').first().textContent())!.trim();
  for (const book of [first!, second!]) {
    await page.goto(`/books/${book._id}`);
    await expect(page.getByRole('heading', { name: book.title, level: 1 })).toBeVisible();
  }
  await catalogueCached(page, [`/api/books/${first!._id}`, `/api/books/${second!._id}`]);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: second!.title, level: 1 })).toBeVisible();
  await page.goto(`/books/${first!._id}`);
  await expect(page.getByRole('heading', { name: first!.title, level: 1 })).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Top Sellers' })).toBeVisible();
  await expect(page.getByRole('heading', { name: homeBook }).first()).toBeVisible();
  // A book never opened here has nothing cached: the page says so rather than loading forever.
  await page.goto(`/books/${unopened!._id}`);
  await expect(page.getByText('This book has not been opened on this device yet')).toBeVisible();

  // The cart: add, remove, clear, add again, all without the network.
  await addToCart(page, first!);
  await expect(page.getByText('Item added to cart')).toBeVisible();
  await addToCart(page, second!);
  await expect(page.getByTestId('cart-count')).toHaveText('2');
  await page.goto('/cart');
  await page.getByRole('button', { name: `Remove ${second!.title}` }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await page.getByRole('button', { name: 'Clear Cart' }).click();
  await expect(page.getByText('No product found!')).toBeVisible();
  await addToCart(page, first!);
  await expect(page.getByTestId('cart-count')).toHaveText('1');

  // Checkout: the form is there, the button is not usable, and the page says why.
  await page.goto('/checkout');
  await expect(page.getByRole('heading', { name: 'Cash On Delevary' })).toBeVisible();
  await expect(page.getByText('You are offline', { exact: true })).toBeVisible();
  await fillDelivery(page);
  await page.getByLabel(/I agree to the/).check();
  const place = page.getByRole('button', { name: 'Place an Order' });
  await expect(place).toBeDisabled();

  // Back online: no reload, the notice goes, and the order is placed.
  await context.setOffline(false);
  await expect(page.getByText('You are offline', { exact: true })).toBeHidden();
  await expect(place).toBeEnabled();
  await place.click();
  await expect(page.getByRole('heading', { name: 'Confirmed Order' })).toBeVisible();
  await page.getByRole('button', { name: 'Yes, OK!' }).click();
  await expect(page).toHaveURL('/orders');
});

test('offline: sign-in, the admin login and the dashboard forms say so and cannot be sent', async ({ page, context }) => {
  await page.goto('/login');
  await workerControls(page);
  // The admin login's code is not precached (the storefront's shell is): kept once it was opened.
  await page.goto('/admin');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await context.setOffline(true);
  for (const path of ['/login', '/register']) {
    await page.goto(path);
    await expect(page.getByText('You are offline', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: path === '/login' ? 'Login' : 'Register', exact: true })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeDisabled();
  }
  await page.goto('/admin');
  await expect(page.getByText('You are offline', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Login' })).toBeDisabled();
  await context.setOffline(false);
  await expect(page.getByText('You are offline', { exact: true })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();

  await adminLogin(page);
  await page.goto('/dashboard/add-new-book');
  const add = page.getByRole('button', { name: 'Add Book' });
  await expect(add).toBeEnabled();
  await context.setOffline(true);
  await expect(page.getByText('You are offline', { exact: true })).toBeVisible();
  await expect(add).toBeDisabled();
  await context.setOffline(false);
  await expect(add).toBeEnabled();
});
