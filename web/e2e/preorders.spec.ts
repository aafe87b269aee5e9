import { formatPublicationDate } from '@bookstore/contract';
import { expect, ownerToken, test } from './fixtures';
import { TEST_CARDS } from '../../scripts/lib/env';
import { checkout, fillDelivery, orderCard, signIn } from './helpers';

// Pre-orders (issue 41) as a shopper meets them on a phone: a forthcoming book at stock 0 reads
// 'Pre-order' with its publication date, goes through checkout, and the order says its copy waits;
// when copies arrive (an edit through the write path) the line says its copy is set aside.

const SHOTS = 'artifacts/screenshots';

test('a shopper pre-orders a forthcoming book at 375 px; the copy arriving later is set aside for them', async ({ page, shopper, makeBook, request }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  const publishedOn = `${new Date().getUTCFullYear() + 1}-06-15`;
  const fields = { stock: 0, publishedOn, description: 'A forthcoming book of one browser test.' };
  const book = await makeBook(fields);
  const date = formatPublicationDate(publishedOn);
  await signIn(page, shopper.email, shopper.password);

  await page.goto(`/books/${book._id}`);
  await expect(page.getByRole('heading', { level: 1, name: book.title })).toBeVisible();
  await expect(page.getByText(`Publishes ${date}`)).toBeVisible();
  await expect(page.getByText('Out of stock')).toHaveCount(0);
  const button = page.getByRole('button', { name: 'Pre-order' });
  await expect(button).toBeEnabled();
  await page.screenshot({ path: `${SHOTS}/preorder-book-375.png` });
  await button.click();
  await expect(page.getByText('Pre-order added to cart')).toBeVisible();

  await checkout(page);
  const href = await page.getByRole('link', { name: /^View Order/ }).first().getAttribute('href');
  const id = href!.split('/').pop()!;
  const card = orderCard(page, id);
  await expect(card.getByText(book.title)).toBeVisible();
  await expect(card.getByText(`Pre-order: waiting (publishes ${date})`)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/preorder-orders-375.png`, fullPage: true });

  // Two copies arrive: the edit goes through the book write path, which gives one to this order.
  const token = await ownerToken(request);
  const edit = await request.put(`/api/books/edit/${book._id}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { title: book.title, description: fields.description, category: 'fiction', trending: false, oldPrice: 20, newPrice: 12.5, coverImage: 'book-4', publishedOn, stock: 2 },
  });
  expect(edit.status()).toBe(200);
  await page.reload();
  await expect(orderCard(page, id).getByText('Pre-order: copy set aside')).toBeVisible();
  // The other copy is on the shelf for the next shopper, still as a pre-order.
  await page.goto(`/books/${book._id}`);
  await expect(page.getByRole('button', { name: 'Pre-order' })).toBeEnabled();
});

test('a shopper cancels a pre-order paid by card at 375 px: the order page shows it refunded in full', async ({ page, shopper, makeBook }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  const publishedOn = `${new Date().getUTCFullYear() + 1}-09-01`;
  const book = await makeBook({ stock: 0, publishedOn, newPrice: 18 });
  await signIn(page, shopper.email, shopper.password);
  await page.goto(`/books/${book._id}`);
  await page.getByRole('button', { name: 'Pre-order' }).click();
  await expect(page.getByText('Pre-order added to cart')).toBeVisible();

  // Paid by card at checkout, like any card order (a hold would lapse long before the book is out).
  await page.goto('/checkout');
  await fillDelivery(page);
  await expect(page.getByTestId('place-total')).not.toHaveText('...');
  await page.getByRole('radio', { name: 'Pay by Card' }).check();
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole('button', { name: 'Place an Order' }).click();
  await expect(page.getByLabel('Card number')).toBeVisible({ timeout: 30_000 });
  const paid = (await page.getByTestId('pay-total').innerText()).trim();
  await page.getByLabel('Card number').fill(TEST_CARDS.pays);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByTestId('payment-status')).toHaveText('Paid', { timeout: 20_000 });

  // Still waiting for its copy: the shopper may cancel it, and is told the card is refunded.
  await page.getByRole('button', { name: 'Cancel Order' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('What you paid by card is refunded in full.');
  await dialog.getByRole('button', { name: 'Cancel Order', exact: true }).click();
  await expect(page.getByTestId('order-status')).toHaveText('cancelled');
  await expect(page.getByTestId('payment-status')).toHaveText('Refunded');
  await expect(page.getByTestId('payment-refunded')).toHaveText(paid);
  await expect(page.getByRole('list', { name: 'Refunds' })).toContainText('Pre-order cancelled: refunded in full');
  await page.screenshot({ path: `${SHOTS}/preorder-cancel-refunded-375.png`, fullPage: true });
});
