import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { TEST_CARDS } from '../../scripts/lib/env';
import { adminLogin, fillDelivery, newCustomer, noHorizontalOverflow, ownerToken, signIn } from './helpers';

// Card payments (issue 35) in Chromium, against the built site on the Hosting emulator and our
// stand-in for Stripe: its payment page ('Card number', 'Pay'), its webhooks to the shop. The order
// page follows Firestore live, so 'Paid' appears when the webhook has been applied, not before.

const SHOTS = 'artifacts/screenshots';
const PHONE = { width: 375, height: 812 };

const adminToken = ownerToken;

/** Books this file made, deleted after it: later files list the newest books and expect them on sale. */
const made: string[] = [];
let token = '';
test.afterAll(async ({ request }) => {
  for (const id of made) await request.delete(`/api/books/${id}`, { headers: { Authorization: `Bearer ${token}` } });
});

async function createBook(request: APIRequestContext, title: string, newPrice: string) {
  token ||= await adminToken(request);
  const res = await request.post('/api/books/create-book', {
    headers: { Authorization: `Bearer ${token}` },
    data: { title: `${title} ${Date.now()}`, description: 'A book the card payment tests order.', category: 'fiction', trending: false, oldPrice: 60, newPrice, coverImage: 'book-2', stock: 5 },
  });
  expect(res.status()).toBe(201);
  const { book } = (await res.json()) as { book: { _id: string; title: string; newPrice: number } };
  made.push(book._id);
  return book;
}


/** A new shopper on a phone, signed in, with `book` in the cart, at a filled-in checkout. */
async function atCheckout(page: Page, request: APIRequestContext, book: { _id: string }) {
  const shopper = await newCustomer(request, 'card');
  await signIn(page, shopper.email, shopper.password);
  await page.goto(`/books/${book._id}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByText('Item added to cart')).toBeVisible();
  await page.goto('/checkout');
  await expect(page.getByRole('heading', { name: 'Cash On Delevary' })).toBeVisible();
  await fillDelivery(page);
  await expect(page.getByTestId('place-total')).not.toHaveText('...');
}

/** Chooses 'Pay by Card' and places the order: the browser goes on to the payment page. */
async function placeByCard(page: Page) {
  await page.getByRole('radio', { name: 'Pay by Card' }).check();
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole('button', { name: 'Place an Order' }).click();
  // The order, then Stripe's session: the first card order may meet a cold function worker.
  await expect(page.getByLabel('Card number')).toBeVisible({ timeout: 30_000 });
}

async function payWith(page: Page, card: string) {
  await page.getByLabel('Card number').fill(card);
  await page.getByRole('button', { name: 'Pay' }).click();
}

test('a shopper pays by card on a 375 px phone, from the cart to Paid on the live order page', async ({ browser, request }) => {
  const book = await createBook(request, 'Card Test', '24.00');
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await atCheckout(page, request, book);
  await expect(page.getByRole('group', { name: 'Payment' })).toBeVisible();
  await page.getByRole('radio', { name: 'Pay by Card' }).check();
  await expect(page.locator('#cod-note')).toContainText('opens the payment page');
  await noHorizontalOverflow(page);
  await page.screenshot({ path: `${SHOTS}/checkout-card-375.png`, fullPage: true });
  await placeByCard(page);
  expect(new URL(page.url()).port).not.toBe(new URL(test.info().project.use.baseURL!).port); // the card is typed at "Stripe", never on our origin
  await expect(page.getByTestId('pay-total')).toHaveText('$24.00');
  await page.screenshot({ path: `${SHOTS}/stripe-stand-in-pay-375.png`, fullPage: true });
  await payWith(page, TEST_CARDS.pays);

  await expect(page).toHaveURL(/\/orders\/[A-Za-z0-9_-]+\?checkout=success$/);
  // Paid once Stripe's event reached the webhook and the page's listener saw the change.
  await expect(page.getByTestId('payment-status')).toHaveText('Paid', { timeout: 20_000 });
  await expect(page.getByTestId('checkout-return')).toHaveText('Thank you: your payment was received.');
  await expect(page.getByTestId('order-status')).toHaveText('pending');
  await expect(page.getByRole('button', { name: 'Cancel Order' })).toHaveCount(0); // paid by card: the shop cancels and refunds
  await noHorizontalOverflow(page);
  await page.screenshot({ path: `${SHOTS}/order-paid-by-card-375.png`, fullPage: true });
  // The cart was emptied when the order was placed.
  await expect(page.getByRole('link', { name: 'Cart, 0 items' })).toBeVisible();
  await context.close();
});

test('a declined card says so and leaves the payment page open; a good card then pays', async ({ browser, request }) => {
  const book = await createBook(request, 'Declined Test', '12.50');
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await atCheckout(page, request, book);
  await placeByCard(page);
  const payPage = page.url();
  await payWith(page, TEST_CARDS.declined);
  await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
  expect(page.url()).toBe(payPage);
  await page.screenshot({ path: `${SHOTS}/stripe-stand-in-declined-375.png`, fullPage: true });
  await payWith(page, TEST_CARDS.pays);
  await expect(page.getByTestId('payment-status')).toHaveText('Paid');
  await context.close();
});

test('leaving the payment page: the order waits, Pay Now opens a new one', async ({ browser, request }) => {
  const book = await createBook(request, 'Pay Later Test', '15.00');
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await atCheckout(page, request, book);
  await placeByCard(page);
  const first = page.url();
  await page.getByRole('link', { name: /Back to the shop/ }).click();
  await expect(page).toHaveURL(/\?checkout=cancelled$/);
  await expect(page.getByTestId('payment-status')).toHaveText('Awaiting payment');
  await expect(page.getByTestId('checkout-return')).toContainText('Pay Now to try again');
  await page.getByRole('button', { name: 'Pay Now' }).click();
  await expect(page.getByLabel('Card number')).toBeVisible();
  expect(page.url()).not.toBe(first);
  await payWith(page, TEST_CARDS.pays);
  await expect(page.getByTestId('payment-status')).toHaveText('Paid');
  await context.close();
});

test('the desk refunds part of a card order; the customer\'s live page lists the refund', async ({ browser, request }) => {
  const book = await createBook(request, 'Refund Test', '30.00');
  const shopperContext = await browser.newContext({ viewport: PHONE });
  const page = await shopperContext.newPage();
  await atCheckout(page, request, book);
  await placeByCard(page);
  await payWith(page, TEST_CARDS.pays);
  await expect(page.getByTestId('payment-status')).toHaveText('Paid');
  const orderId = new URL(page.url()).pathname.split('/').pop()!;

  const deskContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const desk = await deskContext.newPage();
  await adminLogin(desk);
  await desk.goto(`/dashboard/orders/${orderId}`);
  const payment = desk.getByRole('region', { name: 'Payment' });
  await expect(payment.getByTestId('payment-status')).toHaveText('Paid');
  await payment.getByLabel('Amount ($)').fill('7.50');
  await payment.getByLabel('Reason (the customer sees it)').fill('Cover was creased');
  await payment.getByRole('checkbox', { name: book.title }).check();
  await payment.getByRole('button', { name: 'Refund' }).click();
  await desk.getByRole('dialog').getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(payment.getByTestId('payment-status')).toHaveText('Partly refunded');
  await expect(payment.getByTestId('payment-refunded')).toHaveText('$7.50');
  await expect(payment.getByText('Up to $22.50 can be refunded.')).toBeVisible();
  await desk.screenshot({ path: `${SHOTS}/desk-refund-1280.png`, fullPage: true });

  // The shopper's open page follows it live.
  await expect(page.getByTestId('payment-status')).toHaveText('Partly refunded');
  await expect(page.getByRole('list', { name: 'Refunds' })).toContainText('Refund $7.50');
  await expect(page.getByRole('list', { name: 'Refunds' })).toContainText('Cover was creased');
  await page.screenshot({ path: `${SHOTS}/order-refunded-375.png`, fullPage: true });
  const stock = (await (await request.get(`/api/books/${book._id}`)).json()) as { stock: number };
  expect(stock.stock).toBe(5); // the line put back
  await deskContext.close();
  await shopperContext.close();
});

test('cash on delivery is unchanged: Place an Order confirms it, nothing is charged', async ({ browser, request }) => {
  const book = await createBook(request, 'Cash Test', '11.00');
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await atCheckout(page, request, book);
  await expect(page.getByRole('radio', { name: 'Cash On Delevary' })).toBeChecked();
  await expect(page.locator('#cod-note')).toContainText('Cash on delivery: nothing is charged now');
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole('button', { name: 'Place an Order' }).click();
  await expect(page.getByRole('heading', { name: 'Confirmed Order' })).toBeVisible();
  await expect(page.getByText(/You will pay \$11\.00 on delivery/)).toBeVisible();
  await page.getByRole('button', { name: 'Yes, OK!' }).click();
  await expect(page).toHaveURL('/orders');
  await page.getByRole('link', { name: /^View Order/ }).first().click();
  await expect(page.getByTestId('payment-status')).toHaveText('Pay on delivery');
  await expect(page.getByRole('button', { name: 'Pay Now' })).toHaveCount(0);
  await context.close();
});
