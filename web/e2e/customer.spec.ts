import { expect, test } from './fixtures';
import { cancelOrder, cartCounts, checkout, CUSTOMER, idToken, signIn } from './helpers';

test('the login guard sends a signed-out visitor from /checkout and /orders to /login', async ({ page }) => {
  await page.goto('/checkout');
  await expect(page).toHaveURL('/login');
  await expect(page.getByRole('heading', { name: 'Please Login' })).toBeVisible();
  await page.goto('/orders');
  await expect(page).toHaveURL('/login');
});

test('a wrong password shows the inline error', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill('reader@example.com');
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText('Please enter valid Email and Password.')).toBeVisible();
});

test('the demo customer signs in, checks out and sees the order', async ({ page, request, makeBook }) => {
  const books = [await makeBook(), await makeBook({ newPrice: 7.25 })];
  await signIn(page);
  await expect(page.getByRole('button', { name: /Account menu/ })).toBeVisible();
  for (const [i, book] of books.entries()) {
    await page.goto(`/books/${book._id}`);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await cartCounts(page, i + 1);
  }
  await checkout(page);
  await expect(page.getByRole('heading', { name: 'Your Orders' })).toBeVisible();
  const total = books.reduce((s, b) => s + Math.round(b.newPrice * 100), 0) / 100;
  await expect(page.getByText(`$${total.toFixed(2)}`).first()).toBeVisible();
  await expect(page.getByText('pending').first()).toBeVisible();

  // The account menu: closes on Escape, and Logout signs out.
  const menuButton = page.getByRole('button', { name: /Account menu/ });
  await menuButton.click();
  await expect(page.getByRole('menuitem', { name: 'Orders' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem', { name: 'Orders' })).toHaveCount(0);
  await menuButton.click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();

  // Tidy: the demo customer is shared and holds at most 10 open orders, so each run cancels its
  // own (the twenty runs' eleventh was refused: 'You already have 10 open orders').
  const token = await idToken(request, CUSTOMER.email, CUSTOMER.password);
  const { orders } = (await (await request.get('/api/orders', { headers: { Authorization: `Bearer ${token}` } })).json()) as { orders: { _id: string; productIDs: string[] }[] };
  const mine = orders.filter((o) => books.every((b) => o.productIDs.includes(b._id)));
  expect(mine).toHaveLength(1);
  await cancelOrder(request, token, mine[0]!._id);
});

test('a new visitor registers an account', async ({ page }) => {
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Please Register' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(`new-${Date.now()}@example.com`);
  await page.getByLabel('Password').fill('newpass123');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'User registered successfully' })).toBeVisible();
  await expect(page).toHaveURL('/register');
});

test('registration with a weak password shows why', async ({ page }) => {
  await page.goto('/register');
  await page.getByLabel('Email', { exact: true }).fill(`weak-${Date.now()}@example.com`);
  await page.getByLabel('Password').fill('123');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Please enter valid Email and Password.')).toBeVisible();
  await expect(page.getByText('Password is too weak.')).toBeVisible();
});

test('the Google button’s offline failure is shown, and the page keeps working', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await expect(page.getByRole('alert')).toContainText(/Google sign-in|sign-in window|connection|blocked/);
  await page.getByLabel('Email', { exact: true }).fill('reader@example.com');
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue('reader@example.com');
});

test('a google.com user (emulator credential) checks out and sees their orders', async ({ page, makeBook }) => {
  const book = await makeBook();
  const email = `gina-${Date.now()}@example.com`;
  await page.goto('/login');
  await page.waitForFunction(() => typeof (window as any).__bookstoreTestGoogleSignIn === 'function');
  await page.evaluate((e) => (window as any).__bookstoreTestGoogleSignIn({ sub: `g-${e}`, email: e, email_verified: true }), email);
  await page.goto(`/books/${book._id}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await cartCounts(page, 1);
  await checkout(page);
  await expect(page.getByText(email).first()).toBeVisible();
});
