import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { adminLogin, publishedLine, settled, signIn, type ApiBook, ownerToken } from './helpers';

// /books, the header's search and the no-full-catalogue rule, in Chromium against the real API.
// The demo seed has 26 books; paging to page 3 of a filtered view needs more, so this file adds
// its own technology books through the admin API and deletes them afterwards.
// Serial (the file name): its 64 books are the newest while it runs, which would push the
// catalogue off the first page for every other test.

interface ApiPage { books: ApiBook[]; nextCursor: string | null; prevCursor: string | null }

const RUN = Date.now().toString(36);
const PREFIX = `Browse E2E ${RUN}`;
const IN_STOCK = 60;
const SOLD_OUT = 4;
let token = '';
const created: string[] = [];

const adminToken = ownerToken;

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  const specs = Array.from({ length: IN_STOCK + SOLD_OUT }, (_, i) => ({
    title: `${PREFIX} #${String(i).padStart(2, '0')}`,
    author: 'Pat Tester',
    description: 'Made by the browse test.',
    category: 'technology',
    trending: false,
    oldPrice: 90,
    // Prices repeat (ties are ordered by the server's tie-breaker, which the test does not assume).
    newPrice: 10 + (i % 40) * 0.75,
    coverImage: `book-${(i % 20) + 1}`,
    stock: i < IN_STOCK ? 5 : 0,
  }));
  for (let i = 0; i < specs.length; i += 8) {
    const batch = await Promise.all(
      specs.slice(i, i + 8).map((book) => request.post('/api/books/create-book', { data: book, headers: { Authorization: `Bearer ${token}` } })),
    );
    for (const res of batch) {
      expect(res.status()).toBe(201);
      created.push((await res.json()).book._id);
    }
  }
});

// One bulk delete (one transaction): 64 single deletes, each its own turn at the audit chain's head,
// took about half a minute.
test.afterAll(async ({ request }) => {
  if (created.length === 0) return;
  const res = await request.post('/api/admin/books/bulk', { data: { action: 'delete', ids: created }, headers: { Authorization: `Bearer ${await adminToken(request)}` } });
  expect(res.status()).toBe(200);
});

/** The API's pages 1..n for a browse query, following nextCursor: what the page must show. */
async function apiPages(request: APIRequestContext, query: string, n: number): Promise<ApiBook[][]> {
  const pages: ApiBook[][] = [];
  let cursor: string | null = null;
  for (let i = 0; i < n; i++) {
    const res = await request.get(`/api/books?${query}&limit=24${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status()).toBe(200);
    const page = (await res.json()) as ApiPage;
    pages.push(page.books);
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return pages;
}

const shownTitles = (page: Page) => page.getByRole('list', { name: 'Books' }).getByRole('heading', { level: 2 }).allTextContents();

async function expectTitles(page: Page, books: ApiBook[]) {
  const list = page.getByRole('list', { name: 'Books' });
  await expect(list.getByRole('heading', { level: 2 })).toHaveCount(books.length);
  await expect(list.getByRole('heading', { level: 2 })).toHaveText(books.map((b) => b.title));
}

test('filter, sort, go to page 3, reload and Back show exactly the same books', async ({ page, request }) => {
  const expected = await apiPages(request, 'category=technology&inStock=true&sort=price-asc', 3);
  expect(expected.length).toBe(3);
  const all = expected.flat();
  expect(all.every((b) => b.category === 'technology' && b.stock > 0)).toBe(true);
  for (let i = 1; i < all.length; i++) expect(all[i]!.newPrice).toBeGreaterThanOrEqual(all[i - 1]!.newPrice);

  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Browse books' }).click();
  await expect(page).toHaveURL('/books');
  await expect(page.getByRole('heading', { name: 'All books', level: 1 })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Books' }).getByRole('heading', { level: 2 })).toHaveCount(24);

  await page.getByLabel('Category').selectOption('technology');
  await expect(page).toHaveURL('/books?category=technology');
  await expect(page.getByRole('heading', { name: 'Technology books', level: 1 })).toBeVisible();
  // The box shows the URL's state, and the URL changes in a router transition: click, then wait for
  // the URL and the box (check() asserts the state at once, which a slow transition makes flaky).
  await page.getByLabel('In stock only').click();
  await expect(page).toHaveURL('/books?category=technology&inStock=true');
  await expect(page.getByLabel('In stock only')).toBeChecked();
  await page.getByLabel('Sort by').selectOption({ label: 'Price: low to high' });
  await expect(page).toHaveURL('/books?category=technology&inStock=true&sort=price-asc');
  await expectTitles(page, expected[0]!);

  const pagination = page.getByRole('navigation', { name: 'Pagination' });
  await pagination.getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(/[?&]page=2&cursor=/);
  await expectTitles(page, expected[1]!);
  await pagination.getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(/[?&]page=3&cursor=/);
  await expectTitles(page, expected[2]!);
  const page3Url = page.url();
  expect(new URL(page3Url).searchParams.get('category')).toBe('technology');
  expect(new URL(page3Url).searchParams.get('sort')).toBe('price-asc');

  await page.reload();
  await expectTitles(page, expected[2]!);
  expect(page.url()).toBe(page3Url);

  await page.goBack();
  await expect(page).toHaveURL(/[?&]page=2&cursor=/);
  await expectTitles(page, expected[1]!);
  await page.goForward();
  await expectTitles(page, expected[2]!);

  // Previous uses the server's prevCursor, also from a page opened cold (a shared link).
  const shared = await page.context().newPage();
  await shared.goto(page3Url);
  await expectTitles(shared, expected[2]!);
  await shared.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Previous' }).click();
  await expectTitles(shared, expected[1]!);
  await shared.close();

  // A filter change goes back to page 1 and never mixes in other books.
  await page.getByLabel('Sort by').selectOption({ label: 'Price: high to low' });
  await expect(page).toHaveURL('/books?category=technology&inStock=true&sort=price-desc');
  const [desc] = await apiPages(request, 'category=technology&inStock=true&sort=price-desc', 1);
  await expectTitles(page, desc!);
  expect((await shownTitles(page)).some((t) => t.startsWith(PREFIX) && Number(t.slice(-2)) >= IN_STOCK)).toBe(false);
});

test('price range and sort by title come from the URL; an empty result offers Clear Filters', async ({ page, request }) => {
  const [expected] = await apiPages(request, 'category=technology&minPrice=20&maxPrice=30&sort=title', 1);
  expect(expected!.length).toBeGreaterThan(0);
  await page.goto('/books?category=technology&minPrice=20&maxPrice=30&sort=title');
  await expect(page.getByLabel('Min price')).toHaveValue('20');
  await expect(page.getByLabel('Max price')).toHaveValue('30');
  await expectTitles(page, expected!);

  const [none] = await apiPages(request, 'category=technology&minPrice=100&sort=newest', 1);
  expect(none).toEqual([]);
  await page.getByLabel('Min price').selectOption('100');
  await expect(page).toHaveURL('/books?category=technology&minPrice=100&sort=title');
  await expect(page.getByText('No books match these filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear Filters' }).last().click();
  await expect(page).toHaveURL('/books?sort=title');
  await expect(page.getByRole('list', { name: 'Books' }).getByRole('heading', { level: 2 })).toHaveCount(24);
});

test('the header search forgives a typo: suggestions, keyboard choice and /search', async ({ page }) => {
  const title = "The Lantern Keeper's Daughter";
  await page.goto('/');
  const box = page.getByRole('combobox', { name: 'Search books' });
  await box.fill('lanturn keper');
  const option = page.getByRole('option', { name: new RegExp(title) });
  await expect(option).toBeVisible();
  // Down until our book is the active option, then Enter opens it.
  for (let i = 0; i < 8 && (await option.getAttribute('aria-selected')) !== 'true'; i++) await box.press('ArrowDown');
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await box.press('Enter');
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();

  await box.fill('lanturn keper');
  await box.press('Enter');
  await expect(page).toHaveURL('/search?q=lanturn%20keper');
  const results = page.getByRole('main').getByRole('heading', { level: 2 });
  await expect(results.first()).toBeVisible();
  expect((await results.allTextContents()).slice(0, 3)).toContain(title);
  await page.reload();
  await expect(page.getByRole('main').getByRole('heading', { name: title })).toBeVisible();
});

test('no page downloads the whole catalogue (GET /api/books without a limit)', async ({ page }) => {
  const unlimited: string[] = [];
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname !== '/api/books') return;
    seen.push(url.search);
    if (!url.searchParams.has('limit')) unlimited.push(request.url());
  });
  const visit = async (path: string) => {
    await page.goto(path);
    await settled(page); // not 'networkidle': /orders keeps a Firestore listener open
  };
  await visit('/');
  await page.getByRole('combobox', { name: 'Search books' }).fill('ledger');
  await expect(page.getByRole('option').first()).toBeVisible();
  await visit('/books');
  await visit('/books?category=fiction&sort=title');
  await visit('/search?q=salt');
  await signIn(page);
  await visit('/orders');
  await adminLogin(page);
  await visit('/dashboard/manage-books');
  await expect(page.getByRole('heading', { name: 'All Books' })).toBeVisible();
  expect(seen.length).toBeGreaterThan(0); // the listener saw the home page's bounded calls
  expect(unlimited).toEqual([]);
});

test('a book page renders from the state served with its HTML, without waiting for the API', async ({ page, request }) => {
  const [book] = (await (await request.get('/api/books?limit=1')).json()) as ApiBook[];
  const html = await (await request.get(`/books/${book!._id}`)).text();
  expect(html).toContain('id="query-state"');
  // The API call for this book never answers: the page must still show the book.
  await page.route(`**/api/books/${book!._id}`, () => undefined);
  await page.goto(`/books/${book!._id}`);
  await expect(page.getByRole('heading', { name: book!.title, level: 1 })).toBeVisible();
  await expect(page.getByText(publishedLine(book!.createdAt))).toBeVisible();
});
