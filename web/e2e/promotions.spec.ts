import { expect, ownerToken, test } from './fixtures';
import { addToCart, adminLogin, fillDelivery, signIn } from './helpers';

// Issue 40 at the checkout, at 375 px: a discount code applied with 'Apply' (the server's quote
// takes it off the books before shipping and tax), and an order paid wholly by a gift card.

const SHOTS = 'artifacts/screenshots';
const RUN = `${Date.now().toString(36)}${process.pid.toString(36)}`.toUpperCase();

test.use({ viewport: { width: 375, height: 812 } });

test('a discount code applied at checkout takes 20% off the books, and the order keeps it', async ({ page, request, shopper, makeBook }) => {
  const token = await ownerToken(request);
  const code = `E2E20-${RUN}`;
  const made = await request.post('/api/admin/discounts', { headers: { Authorization: `Bearer ${token}` }, data: { code, percentOff: 20 } });
  expect(made.status()).toBe(201);
  const book = await makeBook({ newPrice: 12.5 }); // 20% of 12.50 = 2.50: the total is 10.00 (free local delivery, tax included)
  await signIn(page, shopper.email, shopper.password);
  await addToCart(page, book);
  await expect(page.getByText('Item added to cart')).toBeVisible();
  await page.goto('/checkout');
  await fillDelivery(page);
  await expect(page.getByTestId('place-total')).toHaveText('$12.50');

  // A code that does not exist: told it cannot be used (as a paused or expired one is: issue 55), nothing taken off.
  await page.getByRole('textbox', { name: 'Discount code' }).fill('NO-SUCH-CODE');
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(page.getByTestId('discount-code-status')).toContainText('This code cannot be used');
  await expect(page.getByTestId('place-total')).toHaveText('$12.50');

  await page.getByRole('textbox', { name: 'Discount code' }).fill(code.toLowerCase());
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(page.getByTestId('discount-code-status')).toContainText(`${code}: 20% off ($2.50 off your books)`);
  await expect(page.getByTestId('quote-discount')).toHaveText('-$2.50');
  await expect(page.getByTestId('place-total')).toHaveText('$10.00');
  await page.screenshot({ path: `${SHOTS}/checkout-discount-375.png`, fullPage: true });

  await page.getByLabel(/I agree to the/).check();
  await page.getByRole('button', { name: 'Place an Order' }).click();
  await expect(page.getByRole('heading', { name: 'Confirmed Order' })).toBeVisible();
  await expect(page.getByText(/You will pay \$10\.00 on delivery/)).toBeVisible();
  await page.getByRole('button', { name: 'Yes, OK!' }).click();
  await expect(page).toHaveURL('/orders');
  const orders = await request.get('/api/orders', { headers: { Authorization: `Bearer ${shopper.token}` } });
  const [order] = (await orders.json()).orders;
  expect(order).toMatchObject({ totalPrice: 10, discount: { code, amount: 2.5, returned: false }, charges: { subtotal: 12.5, discount: 2.5 } });
});

test('an order paid wholly by a gift card: no payment step, nothing left to pay, the card spent', async ({ page, request, shopper, makeBook }) => {
  const token = await ownerToken(request);
  const issued = await request.post('/api/admin/gift-cards', { headers: { Authorization: `Bearer ${token}` }, data: { amount: 50 } });
  expect(issued.status()).toBe(201);
  const card = (await issued.json()) as { code: string; balance: number };
  const book = await makeBook({ newPrice: 18 });
  await signIn(page, shopper.email, shopper.password);
  await addToCart(page, book);
  await expect(page.getByText('Item added to cart')).toBeVisible();
  await page.goto('/checkout');
  await fillDelivery(page);
  await expect(page.getByTestId('place-total')).toHaveText('$18.00');

  // One mistyped symbol: the check symbol catches it before any lookup.
  const typo = card.code.slice(0, -1) + (card.code.endsWith('0') ? '1' : '0');
  await page.getByRole('textbox', { name: 'Gift card' }).fill(typo);
  await page.getByRole('button', { name: 'Apply gift card' }).click();
  await expect(page.getByTestId('gift-card-status')).toContainText('This gift card code has a typo');

  await page.getByRole('textbox', { name: 'Gift card' }).fill(card.code.toLowerCase());
  await page.getByRole('button', { name: 'Apply gift card' }).click();
  await expect(page.getByTestId('gift-card-status')).toContainText(`pays $18.00 (balance $50.00)`);
  await expect(page.getByTestId('quote-due')).toHaveText('$0.00');
  await expect(page.getByTestId('place-total')).toHaveText('$0.00');
  await expect(page.getByText('Paid by your gift card: there is nothing more to pay.')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Pay by Card' })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/checkout-gift-card-375.png`, fullPage: true });

  await page.getByLabel(/I agree to the/).check();
  await page.getByRole('button', { name: 'Place an Order' }).click();
  await expect(page.getByRole('heading', { name: 'Confirmed Order' })).toBeVisible();
  await expect(page.getByText('Your gift card paid for it: there is nothing more to pay.')).toBeVisible();
  await page.getByRole('button', { name: 'Yes, OK!' }).click();
  await expect(page).toHaveURL('/orders');
  const orders = await request.get('/api/orders', { headers: { Authorization: `Bearer ${shopper.token}` } });
  const [order] = (await orders.json()).orders;
  expect(order).toMatchObject({ totalPrice: 0, giftCard: { amount: 18, returned: 0 } });
  const balance = await request.post('/api/gift-cards/balance', { data: { code: card.code } });
  expect(await balance.json()).toMatchObject({ balance: 32 });
});

test.describe('the admin pages at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('a manager-level owner creates and pauses a code, issues a gift card and reads its ledger', async ({ page }) => {
    await adminLogin(page);
    await page.goto('/dashboard/discounts');
    const code = `PAGE-${RUN}`;
    await page.getByLabel('Code', { exact: true }).fill(code.toLowerCase());
    await page.getByLabel('Percent off').fill('15');
    await page.getByLabel('Uses at most (optional)').fill('5');
    await page.getByRole('button', { name: 'Create code' }).click();
    const row = page.getByRole('listitem').filter({ hasText: code });
    await expect(row).toContainText('15% off');
    await expect(row).toContainText('0 used (of 5)');
    await row.getByRole('button', { name: 'Pause' }).click();
    await expect(row).toContainText('Paused');
    await row.getByRole('button', { name: 'Redemptions' }).click();
    await expect(row).toContainText('No order has used this code yet.');
    await page.screenshot({ path: `${SHOTS}/admin-discounts-1280.png`, fullPage: true });

    await page.goto('/dashboard/gift-cards');
    await page.getByLabel('Amount ($)').fill('40');
    await page.getByRole('button', { name: 'Issue card' }).click();
    const issued = await page.getByTestId('issued-code').textContent();
    expect(issued).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    const card = page.getByRole('listitem').filter({ hasText: `…${issued!.slice(-4)}` });
    await expect(card).toContainText('$40.00');
    await card.getByRole('button', { name: 'Ledger' }).click();
    await expect(card.getByRole('table', { name: 'Ledger' })).toContainText('Issued');
    await page.screenshot({ path: `${SHOTS}/admin-gift-cards-1280.png`, fullPage: true });
  });
});
