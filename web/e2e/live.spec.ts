import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { appOwns } from './before-the-app';
import { AUTH, AUTH_EMULATOR, cartCounts, KEY, newCustomer, orderCard, signIn, ownerToken } from './helpers';
import { QUIET_AFTER_START_MS } from '../src/lib/use-live-after-start';

// Pages that follow Firestore (reactfire) under the security rules: a status change or another
// shopper's purchase shows in an open page without a reload. Changes are made through the API (an
// admin token, a customer's ID token), as another person's browser would. How soon is not timed
// here (a test is no stopwatch on a busy machine): the default wait, and no reload in between.

const adminToken = ownerToken;

async function deleteBook(request: APIRequestContext, token: string, id: string) {
  await request.delete(`/api/books/${id}`, { headers: { Authorization: `Bearer ${token}` } });
}

const orderBody = (email: string, book: { _id: string; newPrice: number }) => ({
  name: 'Shopper A',
  email,
  phone: '5551234567',
  address: { street: '1 Fast Lane', city: 'Springfield', country: 'US', state: 'IL', zipcode: '62701' },
  productIDs: [book._id],
  totalPrice: book.newPrice.toFixed(2),
});

/** Marks the document, so a later check can prove the page was never reloaded. */
const markNoReload = (page: Page) => page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
const stillNoReload = (page: Page) => page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true);

/** Books this file made, deleted after it: later files list the newest books and expect them on sale. */
const made: string[] = [];
let deleteToken = '';
test.afterAll(async ({ request }) => {
  for (const id of made) await request.delete(`/api/books/${id}`, { headers: { Authorization: `Bearer ${deleteToken}` } });
});

async function createBook(request: APIRequestContext, token: string, stock: number) {
  deleteToken = token;
  const res = await request.post('/api/books/create-book', {
    headers: { Authorization: `Bearer ${token}` },
    data: { title: `Last Copy ${Date.now()}`, description: 'One left', category: 'fiction', trending: false, oldPrice: 20, newPrice: '12.50', coverImage: 'book-3', stock },
  });
  expect(res.status()).toBe(201);
  const { book } = (await res.json()) as { book: { _id: string; title: string; newPrice: number } };
  made.push(book._id);
  return book;
}

test("the admin ships an order: the customer's open /orders shows shipped without a reload", async ({ browser, request }) => {
  const admin = await adminToken(request);
  const book = await createBook(request, admin, 5);
  const customer = await newCustomer(request, 'live');
  const customerContext = await browser.newContext();
  const page = await customerContext.newPage();
  await signIn(page, customer.email, customer.password);
  const placed = await request.post('/api/orders', {
    headers: { Authorization: `Bearer ${customer.token}` },
    data: orderBody(customer.email, book),
  });
  expect(placed.status()).toBe(201);
  const id = (await placed.json())._id as string;

  await page.goto('/orders');
  const card = orderCard(page, id);
  await expect(card.getByTestId('order-status')).toHaveText('pending');
  await markNoReload(page);

  // The admin's desk, in another context (another person): confirm, then ship.
  const move = async (status: string) => {
    const res = await request.post(`/api/admin/orders/${id}/status`, { headers: { Authorization: `Bearer ${admin}` }, data: { status } });
    expect(res.status()).toBe(200);
  };
  await move('confirmed');
  await expect(card.getByTestId('order-status')).toHaveText('confirmed');
  await move('shipped');
  await expect(card.getByTestId('order-status')).toHaveText('shipped');
  await expect(page.getByTestId('order-notice')).toContainText('Your order is on its way');
  expect(await stillNoReload(page)).toBe(true);

  // The order's own page follows it too.
  await page.getByRole('link', { name: /^View Order/ }).first().click();
  await expect(page).toHaveURL(`/orders/${id}`);
  await expect(page.getByTestId('order-status').first()).toHaveText('shipped');
  await markNoReload(page);
  await move('delivered');
  await expect(page.getByTestId('order-status').first()).toHaveText('delivered');
  await expect(page.getByTestId('order-notice')).toContainText('Your order has been delivered');
  expect(await stillNoReload(page)).toBe(true);
  await customerContext.close();
  await deleteBook(request, admin, book._id);
});

test("shopper A buys the last copy: shopper B's open book page says 'Out of stock' and the cart flags the line, without a reload", async ({ browser, request }) => {
  const admin = await adminToken(request);
  const book = await createBook(request, admin, 1);
  // Shopper B, signed out: the book page and, in a second tab, the cart with the book in it.
  const b = await browser.newContext();
  const bookPage = await b.newPage();
  await bookPage.goto(`/books/${book._id}`);
  const add = bookPage.getByRole('button', { name: 'Add to Cart' });
  await expect(bookPage.getByText('Only 1 left')).toBeVisible();
  await expect(add).toBeEnabled();
  await add.click();
  await expect(bookPage.getByText('Item added to cart')).toBeVisible();
  const cartPage = await b.newPage();
  await cartPage.goto('/cart');
  const line = cartPage.getByTestId('cart-line').filter({ hasText: book.title });
  await expect(line).toBeVisible();
  await expect(line).not.toHaveAttribute('data-unavailable', 'true');
  await markNoReload(bookPage);
  await markNoReload(cartPage);
  // Give both pages' listeners time to attach (they load after the page renders).
  await bookPage.waitForTimeout(1000);

  // Shopper A, elsewhere, buys it through the API.
  const a = await newCustomer(request, 'shopper-a');
  const bought = await request.post('/api/orders', { headers: { Authorization: `Bearer ${a.token}` }, data: orderBody(a.email, book) });
  expect(bought.status()).toBe(201);

  await expect(bookPage.getByText('Out of stock')).toBeVisible();
  await expect(add).toBeDisabled();
  await expect(line).toHaveAttribute('data-unavailable', 'true');
  await expect(line.getByText('Out of stock')).toBeVisible();
  expect(await stillNoReload(bookPage)).toBe(true);
  expect(await stillNoReload(cartPage)).toBe(true);
  await b.close();
  await deleteBook(request, admin, book._id);
});

// Issue 60: the Firestore SDK is not loaded while the app starts (a tap is likeliest then, and the
// phone's main thread busiest), but a page with few copies left still follows them: once quiet a
// few seconds after the start (lib/use-live-after-start.ts), or at the visitor's first touch.
test('a book page with few copies left follows its stock, starting a few seconds after the app, untouched; a touch starts it at once', async ({ browser, request }) => {
  const admin = await adminToken(request);
  const book = await createBook(request, admin, 2);
  const context = await browser.newContext();
  try {
    const follower = /\/assets\/follow-stock-[^/]+\.js$/;
    const quietPage = await context.newPage();
    const asked: number[] = [];
    quietPage.on('request', (r) => { if (follower.test(r.url())) asked.push(Date.now()); });
    const opened = Date.now();
    await quietPage.goto(`/books/${book._id}`);
    await expect(quietPage.getByText('Only 2 left')).toBeVisible();
    // Nobody touches the page: the follower comes, and not before the quiet time after the start.
    await expect.poll(() => asked.length, { timeout: 30_000 }).toBe(1);
    expect(asked[0]! - opened).toBeGreaterThanOrEqual(3_000);
    await markNoReload(quietPage);
    const a = await newCustomer(request, 'shopper-a');
    const bought = await request.post('/api/orders', { headers: { Authorization: `Bearer ${a.token}` }, data: orderBody(a.email, book) });
    expect(bought.status()).toBe(201);
    await expect(quietPage.getByText('Only 1 left')).toBeVisible();
    expect(await stillNoReload(quietPage)).toBe(true);

    // Another visitor moves the pointer as soon as the page is there: it follows at once.
    const touchedPage = await context.newPage();
    const touchedAsked: number[] = [];
    touchedPage.on('request', (r) => { if (follower.test(r.url())) touchedAsked.push(Date.now()); });
    await touchedPage.goto(`/books/${book._id}`);
    await expect(touchedPage.getByText('Only 1 left')).toBeVisible();
    await appOwns(touchedPage, `button[data-book="${book._id}"]`, 30_000); // the app listens from its start
    const moved = Date.now();
    await touchedPage.mouse.move(20, 20);
    await touchedPage.mouse.move(40, 60);
    await expect.poll(() => touchedAsked.length, { timeout: 30_000 }).toBe(1);
    expect(touchedAsked[0]! - moved).toBeLessThan(QUIET_AFTER_START_MS + 1_000);
  } finally {
    await context.close();
  }
});

test("'Forgot password?' sends Firebase's reset email; the reset completes through the Auth emulator and the new password signs in", async ({ page, request }) => {
  const who = await newCustomer(request, 'forgetful');
  await page.goto('/login');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('alert')).toContainText('Enter your email address above');
  await page.getByLabel('Email', { exact: true }).fill(who.email);
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'we have sent it a link' })).toContainText(who.email);

  // The emulator keeps the email's out-of-band code instead of sending it.
  const codes = await (await request.get(`${AUTH_EMULATOR}/emulator/v1/projects/demo-bookstore/oobCodes`)).json();
  const reset = (codes.oobCodes as { email: string; requestType: string; oobCode: string }[]).filter((c) => c.email === who.email && c.requestType === 'PASSWORD_RESET').pop();
  expect(reset, 'a reset code for this address').toBeTruthy();
  const done = await request.post(`${AUTH}/accounts:resetPassword?key=${KEY}`, { data: { oobCode: reset!.oobCode, newPassword: 'brand-new-1' } });
  expect(done.status()).toBe(200);

  await signIn(page, who.email, 'brand-new-1');
  // The account menu says who is signed in.
  await page.getByRole('button', { name: `Account menu for ${who.email}` }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(`Signed in as${who.email}`);
});

test("checkout pre-fills name, phone and address from the customer's latest order, and never overwrites what is typed", async ({ page, request }) => {
  const admin = await adminToken(request);
  const book = await createBook(request, admin, 5);
  // A customer of its own: the pre-fill comes from the latest order, and other tests order too.
  const customer = await newCustomer(request, 'prefill');
  const token = customer.token;
  const body = { ...orderBody(customer.email, book), name: 'Pat Prefill', phone: '5559876543', address: { street: '9 Memory Road', city: 'Springfield', country: 'US', state: 'IL', zipcode: '62704' } };
  const placed = await request.post('/api/orders', { headers: { Authorization: `Bearer ${token}` }, data: body });
  expect(placed.status(), await placed.text()).toBe(201);
  const orderId = (await placed.json())._id as string;

  await signIn(page, customer.email, customer.password);
  await page.goto(`/books/${book._id}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await cartCounts(page, 1);
  await page.goto('/checkout');
  await expect(page.getByLabel('Full Name')).toHaveValue('Pat Prefill');
  await expect(page.getByLabel('Phone Number')).toHaveValue('5559876543');
  await expect(page.getByLabel('Address / Street')).toHaveValue('9 Memory Road');
  await expect(page.getByLabel('City')).toHaveValue('Springfield');
  await expect(page.getByLabel('Country / region')).toHaveValue('US');
  await expect(page.getByLabel('State / province')).toHaveValue('IL');
  await expect(page.getByLabel('Zipcode')).toHaveValue('62704');
  // The address the quote prices: free local delivery in the demo shop's 627* zipcodes, chosen for it.
  await expect(page.getByRole('radio', { name: /Local delivery/ })).toBeChecked();
  // Typed text wins over the pre-fill.
  await page.getByLabel('Full Name').fill('Someone Else');
  await expect(page.getByLabel('Full Name')).toHaveValue('Someone Else');
  // Leave no open order behind (other tests count on the customer's open orders), nor the book.
  await request.post(`/api/orders/${orderId}/cancel`, { headers: { Authorization: `Bearer ${token}` }, data: {} });
  await deleteBook(request, admin, book._id);
});
