import { expect, test, uniqueTitle } from './fixtures';
import { adminLogin, isbnPair, noHorizontalOverflow, ownerToken } from './helpers';

// The worker's features: the parallel project blocks service workers elsewhere (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

// A gift card and a discount code at the till (issue 57) in Chromium at 375 px: a 10% code and a
// 10.00 card typed into the payment panel; 'Take Cash' makes the sale with the discount off the book,
// the card paying first and the cash the rest: the till says what the card paid and what cash to take,
// and the receipt shows both. Each run makes its own book, card and code.

const SHOTS = 'artifacts/screenshots';
test.use({ viewport: { width: 375, height: 812 } });

test('a discount code and a gift card at the till at 375px: the card pays first, the cash the rest', async ({ page, request, makeBook }) => {
  const isbn = isbnPair().isbn13;
  const book = await makeBook({ title: uniqueTitle('Till Codes Book'), isbn, stock: 2, newPrice: 14 });
  const auth = { Authorization: `Bearer ${await ownerToken(request)}` };
  const code = `TILL10-${Date.now().toString(36)}`.toUpperCase();
  expect((await request.post('/api/admin/discounts', { headers: auth, data: { code, percentOff: 10, maxRedemptions: 5 } })).status()).toBe(201);
  const card = await request.post('/api/admin/gift-cards', { headers: auth, data: { amount: '10.00' } });
  expect(card.status()).toBe(201);
  const { code: cardCode } = await card.json();

  await adminLogin(page);
  await page.goto('/dashboard/counter');
  const scanField = page.getByLabel('Scan or type an ISBN');
  await scanField.pressSequentially(isbn);
  await scanField.press('Enter');
  await expect(page.getByRole('list', { name: 'Books in this sale' })).toContainText(book.title);
  await page.getByRole('textbox', { name: 'Discount code' }).fill(code.toLowerCase());
  await page.getByRole('textbox', { name: 'Gift card code' }).fill(cardCode);
  await expect(page.getByRole('button', { name: 'Gift Card Only' })).toBeVisible();
  await noHorizontalOverflow(page);
  await page.screenshot({ path: `${SHOTS}/counter-till-codes-375.png`, fullPage: true });

  await page.getByRole('button', { name: 'Take Cash' }).click();
  await expect(page.getByRole('heading', { name: 'Sale complete' })).toBeVisible();
  // 14.00 less 10% is 12.60: the card's 10.00 first, 2.60 in cash.
  await expect(page.getByText(`Gift card ····${cardCode.slice(-4)} paid $10.00`)).toBeVisible();
  await expect(page.getByText('Cash to take: $2.60')).toBeVisible();
  const receipt = page.getByRole('article', { name: 'Receipt' });
  await expect(receipt).toContainText(`Discount ${code}`);
  await expect(receipt).toContainText('-$1.40');
  await expect(receipt).toContainText('$12.60');
  await noHorizontalOverflow(page);
  await page.screenshot({ path: `${SHOTS}/counter-till-codes-done-375.png`, fullPage: true });

  // The card is spent, as a shopper's balance check says.
  const balance = await request.post('/api/gift-cards/balance', { headers: { 'X-Forwarded-For': `198.51.100.${Math.floor(Math.random() * 250) + 1}` }, data: { code: cardCode } });
  expect((await balance.json()).balance).toBe(0);
});
