import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { adminLogin, apiBook, checkout, fillDelivery, orderCard, placeOrder, shortId, signIn } from './helpers';

// The order lifecycle across the two sides: the customer orders and follows it on /orders, the
// admin works it through the desk, the customer cancels another one and its copy goes back.
// Each test has its own customer and books (fixtures.ts): the orders and stock it sees are its own.

/** Clicks an action on the admin's order page and confirms it in the sweetalert2 dialog. */
async function act(admin: Page, label: string, note?: string) {
  await admin.getByRole('group', { name: 'Order actions' }).getByRole('button', { name: label, exact: true }).click();
  const dialog = admin.getByRole('dialog');
  if (note !== undefined) await dialog.getByRole('textbox', { name: 'Note (optional)' }).fill(note);
  await dialog.getByRole('button', { name: label, exact: true }).click();
}

test('the admin confirms, ships and delivers an order from the desk; the customer sees each status', async ({ browser, shopper, makeBook }) => {
  const customer = await browser.newPage();
  const book = await makeBook();
  await signIn(customer, shopper.email, shopper.password);
  const id = await placeOrder(customer, [book]);
  const card = orderCard(customer, id);
  await expect(card.getByTestId('order-status')).toHaveText('pending');
  await expect(card.getByText(book.title)).toBeVisible(); // the line comes from the order itself
  await expect(card.getByRole('button', { name: /Cancel Order/ })).toBeVisible();

  const admin = await browser.newPage();
  await adminLogin(admin);
  await admin.getByRole('link', { name: 'Orders', exact: true }).first().click();
  await expect(admin).toHaveURL('/dashboard/orders');
  await expect(admin.getByRole('heading', { name: 'Orders', exact: true })).toBeVisible();
  // Newest first: the new order is on the first page (other tests order too). Then find it by the customer's email.
  await expect(admin.getByRole('row').filter({ hasText: `#${shortId(id)}` })).toBeVisible();
  await admin.getByLabel('Search orders by customer email or order id').fill(shopper.email.toUpperCase());
  await admin.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(admin).toHaveURL(/q=OWN-/);
  const row = admin.getByRole('row').filter({ hasText: `#${shortId(id)}` });
  await expect(row).toContainText(shopper.email);
  await expect(row).toContainText(book.title);
  await expect(row).toContainText(`$${book.newPrice.toFixed(2)}`);
  // And by its id: exactly that order.
  await admin.getByLabel('Search orders by customer email or order id').fill(id);
  await admin.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(admin.getByRole('row')).toHaveCount(2);
  await row.getByRole('link', { name: `#${shortId(id)}` }).click();
  await expect(admin).toHaveURL(`/dashboard/orders/${id}`);
  await expect(admin.getByRole('heading', { name: `Order #${shortId(id)}` })).toBeVisible();
  await expect(admin.getByText('5551234567')).toBeVisible();
  await expect(admin.getByText('12 Paper Lane, Springfield, IL, 62701, United States')).toBeVisible();

  const actions = admin.getByRole('group', { name: 'Order actions' });
  const steps = [
    { label: 'Confirm', status: 'confirmed', next: ['Ship', 'Cancel'] },
    { label: 'Ship', status: 'shipped', next: ['Mark delivered', 'Refused at the door'] },
    { label: 'Mark delivered', status: 'delivered', next: [] },
  ];
  await expect(actions.getByRole('button')).toHaveText(['Confirm', 'Cancel']); // only what pending allows
  for (const step of steps) {
    await act(admin, step.label);
    await expect(admin.getByTestId('order-status').first()).toHaveText(step.status);
    await expect(admin.getByRole('list', { name: 'Order history' })).toContainText("by the owner"); // the role: who exactly is in the audit log
    if (step.next.length) await expect(actions.getByRole('button')).toHaveText(step.next);
    else await expect(admin.getByText('No further steps: this order is delivered.')).toBeVisible();

    await customer.reload();
    await expect(card.getByTestId('order-status')).toHaveText(step.status);
    await expect(card.getByRole('button', { name: /Cancel Order/ })).toHaveCount(step.status === 'confirmed' ? 1 : 0);
  }

  // The delivered tab lists it; the customer's order page shows the whole history.
  await admin.goto('/dashboard/orders?status=delivered');
  await expect(admin.getByRole('link', { name: /Delivered/, exact: false }).first()).toHaveAttribute('aria-current', 'page');
  await expect(admin.getByRole('row').filter({ hasText: `#${shortId(id)}` })).toBeVisible();
  await customer.goto(`/orders/${id}`);
  const history = customer.getByRole('list', { name: 'Order history' });
  await expect(history.getByRole('listitem')).toHaveCount(4);
  await expect(history).toContainText('Order placed');
  await expect(history).toContainText('Confirmed');
  await expect(history).toContainText('Shipped');
  await expect(history).toContainText('Delivered');
  await expect(history).toContainText('by the shop');
});

test('the customer cancels an order and the copy goes back on the book page', async ({ page, browser, shopper, makeBook }) => {
  // A book showing 'Only N left' (N <= 3), so its page shows the count going down and back up.
  const book = await makeBook({ stock: 3 });
  const before = book.stock;
  await signIn(page, shopper.email, shopper.password);
  await page.goto(`/books/${book._id}`);
  await expect(page.getByText(`Only ${before} left`)).toBeVisible();
  const id = await placeOrder(page, [book]);
  expect((await apiBook(page, book._id)).stock).toBe(before - 1);
  await page.goto(`/books/${book._id}`);
  await expect(page.getByText(before - 1 === 0 ? 'Out of stock' : `Only ${before - 1} left`)).toBeVisible();

  await page.goto('/orders');
  const card = orderCard(page, id);
  await card.getByRole('button', { name: /Cancel Order/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Cancel this order?' })).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Note (optional)' }).fill('Ordered by mistake');
  await dialog.getByRole('button', { name: 'Cancel Order' }).click();
  await expect(card.getByTestId('order-status')).toHaveText('cancelled');
  await expect(card.getByRole('button', { name: /Cancel Order/ })).toHaveCount(0);

  await page.goto(`/orders/${id}`);
  await expect(page.getByRole('list', { name: 'Order history' })).toContainText('Ordered by mistake');
  await expect(page.getByRole('list', { name: 'Order history' })).toContainText('by you');

  expect((await apiBook(page, book._id)).stock).toBe(before);
  await page.goto(`/books/${book._id}`);
  await expect(page.getByText(`Only ${before} left`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add to Cart' })).toBeEnabled();

  // Someone else cannot read it: the API answers 404 and the page says so.
  const stranger = await browser.newPage();
  await stranger.goto('/login');
  await stranger.waitForFunction(() => typeof (window as any).__bookstoreTestGoogleSignIn === 'function');
  const email = `stranger-${Date.now()}@example.com`;
  await stranger.evaluate((e) => (window as any).__bookstoreTestGoogleSignIn({ sub: `s-${e}`, email: e, email_verified: true }), email);
  await stranger.goto(`/orders/${id}`);
  await expect(stranger.getByText('Order not found.')).toBeVisible();
  await expect(stranger.getByText('Ordered by mistake')).toHaveCount(0);
  await stranger.close();
});

test('an out-of-stock book cannot be added to the cart', async ({ page, makeBook }) => {
  const book = await makeBook({ stock: 0 });
  await page.goto(`/books/${book._id}`);
  await expect(page.getByRole('heading', { name: book.title, level: 1 })).toBeVisible();
  await expect(page.getByText('Out of stock')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add to Cart' })).toBeDisabled();
  await expect(page.getByTestId('cart-count')).toHaveText('0');
});

test('checkout flags lines the server says are gone; one click removes them and the order goes through', async ({ page, shopper, makeBook }) => {
  const soldOut = await makeBook({ stock: 0 });
  const good = await makeBook();
  await signIn(page, shopper.email, shopper.password);
  // A cart kept from earlier: one book sold out since (its stored stock says 4), one deleted since.
  const stale = [
    { ...good },
    { ...soldOut, stock: 4 },
    { ...good, _id: 'deleted-in-e2e', title: 'A Book Since Deleted', stock: 4 },
  ];
  await page.evaluate((items) => localStorage.setItem('bookstore.cart', JSON.stringify(items)), stale);
  await page.goto('/checkout');
  await expect(page.getByText('Items: 3')).toBeVisible();
  // The server refuses with 400 UNKNOWN_BOOKS or 409 OUT_OF_STOCK: the lines it names are flagged.
  await fillDelivery(page);
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole('button', { name: 'Place an Order' }).click();
  await expect(page.getByRole('heading', { name: 'Failed to create order' })).toBeVisible();
  await page.getByRole('button', { name: 'OK' }).click();
  const items = page.getByRole('list', { name: 'Your items' });
  await expect(items.getByText(/Out of stock|No longer available/)).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Place an Order' })).toBeDisabled();
  await expect(page.getByLabel('Full Name')).toHaveValue('Riley Reader'); // the form survived the failure

  // The cart page knows both (it fetches each line's book), and one click removes them.
  await page.goto('/cart');
  await expect(page.getByText('Out of stock')).toBeVisible();
  await expect(page.getByText('No longer available')).toBeVisible();
  await expect(page.getByText('2 items can no longer be ordered.')).toBeVisible();
  await page.getByRole('button', { name: 'Remove Unavailable Items' }).click();
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await expect(page.getByRole('button', { name: 'Remove Unavailable Items' })).toHaveCount(0);

  await checkout(page);
  await expect(page.getByText(good.title).first()).toBeVisible();
});
