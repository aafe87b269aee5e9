import { expect, test } from '@playwright/test';
import { apiBooks, booksInStock, publishedLine } from './helpers';

test('home shows the seeded books; the genre filter changes Top Sellers', async ({ page }) => {
  const books = await apiBooks(page);
  await page.goto('/');
  const top = page.getByRole('region', { name: 'Top Sellers', exact: true });
  await expect(top.getByRole('heading', { name: books[0]!.title })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Recommended for you', exact: true }).getByRole('heading', { name: books[8]!.title })).toBeAttached();
  await expect(page.getByRole('region', { name: 'News', exact: true }).getByRole('heading', { level: 3 })).toHaveCount(5);

  await page.getByLabel('Filter by genre').selectOption('horror');
  const horror = books.filter((b) => b.category === 'horror');
  await expect(top.getByRole('heading', { name: horror[0]!.title })).toBeAttached();
  await expect(top.getByRole('heading', { name: books.find((b) => b.category !== 'horror')!.title })).toHaveCount(0);
  const cards = await top.getByRole('heading', { level: 3 }).allTextContents();
  expect(cards.every((t) => horror.some((b) => b.title === t))).toBe(true);
});

test('book card truncates to 80 characters and links to the detail page', async ({ page }) => {
  const book = (await apiBooks(page)).slice(0, 12).find((b: any) => b.description.length > 80)!;
  await page.goto('/');
  const card = page.getByRole('region', { name: 'Top Sellers', exact: true }).getByRole('article').filter({ hasText: book.title });
  await expect(card.getByText(/\.\.\.$/)).toBeVisible();
  await card.getByRole('link', { name: book.title, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/books/${book._id}$`));
  await expect(page.getByRole('heading', { name: book.title, level: 1 })).toBeVisible();
  await expect(page.getByText(publishedLine(book.createdAt))).toBeVisible(); // the date itself, not just the label
  await expect(page.getByRole('img', { name: `Cover of ${book.title}` })).toBeVisible();
});

test('cart: add (toast), add again (Already in cart), reload keeps it, remove, clear (toast)', async ({ page }) => {
  const books = await booksInStock(page, 1);
  await page.goto(`/books/${books[0]!._id}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByText('Item added to cart')).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('heading', { name: 'Already in cart' })).toBeVisible();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('1');

  await page.goto(`/books/${books[1]!._id}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.reload();
  await expect(page.getByTestId('cart-count')).toHaveText('2');

  await page.goto('/cart');
  const sum = (Math.round(books[0]!.newPrice * 100) + Math.round(books[1]!.newPrice * 100)) / 100;
  await expect(page.getByTestId('subtotal')).toHaveText(`$${sum.toFixed(2)}`);
  await expect(page.getByText('Shipping and taxes calculated at checkout.')).toBeVisible();
  await page.getByRole('button', { name: `Remove ${books[0]!.title}` }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await page.getByRole('button', { name: 'Clear Cart' }).click();
  await expect(page.getByText('Cart cleared')).toBeVisible();
  await expect(page.getByText('No product found!')).toBeVisible();
});

test('the cart stays in step across tabs', async ({ page, context }) => {
  const [book] = await booksInStock(page, 1);
  await page.goto('/');
  const other = await context.newPage();
  await other.goto('/cart');
  await expect(other.getByText('No product found!')).toBeVisible();
  await page.goto(`/books/${book!._id}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(other.getByRole('heading', { name: book!.title })).toBeVisible();
});

test('search finds a book by part of its author, live and on /search', async ({ page }) => {
  const withAuthor = (await apiBooks(page)).find((b) => b.author)!;
  const part = withAuthor.author!.split(' ')[1]!.slice(0, 4).toLowerCase();
  await page.goto('/');
  const box = page.getByRole('combobox', { name: 'Search books' });
  await box.fill(part);
  await expect(page.getByRole('search').getByRole('option', { name: new RegExp(withAuthor.title) })).toBeVisible();
  await box.press('Enter');
  await expect(page).toHaveURL(`/search?q=${part}`);
  await page.reload();
  await expect(page.getByRole('heading', { name: withAuthor.title })).toBeVisible();
  await page.goto('/search?q=zzzznotabook');
  await expect(page.getByText('No books match')).toBeVisible();
});

test('about, unknown routes and missing books', async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByRole('heading', { name: 'About' })).toBeVisible();
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the shop' }).click();
  await expect(page).toHaveURL('/');
  await page.goto('/books/does-not-exist');
  await expect(page.getByText('Error loading book info...')).toBeVisible();
});

test('book text renders as text, never as markup', async ({ page }) => {
  let alerted = false;
  page.on('dialog', () => { alerted = true; });
  await page.route('**/api/books/xss-book', (route) =>
    route.fulfill({ json: { _id: 'xss-book', title: '<script>alert(1)</script>', description: '<img src=x onerror="alert(1)">', category: 'fiction', trending: false, coverImage: 'javascript:alert(1)', oldPrice: 2, newPrice: 1, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() } }),
  );
  // A client-side navigation, so the app asks the (stubbed) API: a direct visit would be the server's
  // render of the real catalogue (functions/test/catalog-pages.serial.api.test.ts checks its escaping).
  await page.goto('/about');
  await expect(page.getByLabel('Search books')).toBeEnabled();
  await page.evaluate(() => {
    history.pushState({}, '', '/books/xss-book');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByRole('heading', { name: '<script>alert(1)</script>' })).toBeVisible();
  await expect(page.getByText('<img src=x onerror="alert(1)">')).toBeVisible();
  await expect(page.getByRole('img', { name: /Cover of/ })).toHaveAttribute('src', '/covers/book-1.svg');
  expect(alerted).toBe(false);
});
