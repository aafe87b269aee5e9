import { expect, test, type Page } from '@playwright/test';
import { apiBooks, catalogueBooks } from './helpers';

// The first HTML already carries what the shopper sees first (web/prerender.ts; the pages function
// for book pages), and the app takes it over without an error, a hydration mismatch or a shift.

/** Console errors, React's hydration warnings and uncaught errors, from the page's first byte. */
function problems(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' || /hydrat|did not match|server rendered/i.test(text)) seen.push(`${message.type()}: ${text}`);
  });
  page.on('pageerror', (error) => seen.push(`uncaught: ${error.message}`));
  return seen;
}

/** Sums layout shifts not caused by input, from the start of the page's life. */
async function watchLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { shifts: number; shifted: string[] };
    w.shifts = 0;
    w.shifted = [];
    type Source = { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean; sources?: Source[] }[]) {
        if (entry.hadRecentInput) continue;
        w.shifts += entry.value;
        // What moved, for the failure message.
        for (const s of entry.sources ?? []) {
          const html = s.node instanceof Element ? s.node.outerHTML.slice(0, 120) : String(s.node?.nodeName);
          w.shifted.push(`${html} ${JSON.stringify(s.previousRect)} -> ${JSON.stringify(s.currentRect)}`);
        }
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The layout shift so far; the message names what moved. */
async function expectNoShift(page: Page) {
  const { shifts, shifted } = await page.evaluate(() => {
    const w = window as unknown as { shifts: number; shifted: string[] };
    return { shifts: w.shifts, shifted: w.shifted };
  });
  expect(shifts, shifted.join('\n')).toBe(0);
}

/** The app owns the page: the storefront's controls are enabled (they wait for React). */
async function owned(page: Page) {
  await expect(page.getByLabel('Search books')).toBeEnabled();
}

test('the raw HTML of / and of a book page carries the visible content, before any JavaScript', async ({ request }) => {
  const home = await (await request.get('/')).text();
  expect(home).toMatch(/<h1[^>]*>New Releases This Week<\/h1>/);
  expect(home).toMatch(/<img src="data:image\/svg\+xml,[^"]+" alt="A stack of new books" width="480" height="360"/); // inlined
  expect(home).toContain('aria-label="Loading books"'); // the carousels' room is kept by skeletons

  const book = (await catalogueBooks(request))[0]!; // not another test's book, which may be gone by the next request
  const page = await (await request.get(`/books/${book._id}`)).text();
  const title = book.title.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
  expect(page).toMatch(new RegExp(`<h1 class="[^"]*">${title}</h1>`)); // the layout's classes may change; the served h1 may not
  expect(page).toMatch(new RegExp(`<img src="[^"]+" alt="Cover of ${book.title}" width="240" height="360"`));
  expect(page).toContain(`$${book.newPrice.toFixed(2)}`);
  expect(page).toContain('aria-label="Bookstore home"'); // the storefront's header around it
});

test('with JavaScript disabled, / and a book page still show their heading, banner and cover', async ({ browser, request }) => {
  const book = (await catalogueBooks(request))[0]!; // not another test's book, which may be gone by the next request
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'New Releases This Week' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'A stack of new books' })).toBeVisible();
  await page.goto(`/books/${book._id}`);
  await expect(page.getByRole('heading', { level: 1, name: book.title })).toBeVisible();
  await expect(page.getByRole('img', { name: `Cover of ${book.title}` })).toBeVisible();
  await context.close();
});

/** Books whose title no other listed book shares: other test files add books with repeated titles. */
const uniquelyTitled = <T extends { title: string }>(books: T[]) => books.filter((b) => books.filter((o) => o.title === b.title).length === 1);

test('/ hydrates without a console error or a layout shift, and then works', async ({ page }) => {
  const seen = problems(page);
  await watchLayoutShifts(page);
  const books = await apiBooks(page);
  await page.goto('/');
  await owned(page);
  await expect(page.getByRole('region', { name: 'Top Sellers', exact: true }).getByRole('heading', { name: books[0]!.title }).first()).toBeVisible();
  await expectNoShift(page);
  await page.getByLabel('Filter by genre').selectOption('horror'); // a hydrated control answers
  await expect(page.getByRole('region', { name: 'Top Sellers', exact: true }).getByRole('heading', { level: 3 }).first()).toBeVisible();
  expect(seen).toEqual([]);
});

test('/books and /cart take the page over without a console error, with a cart in storage too', async ({ page }) => {
  const seen = problems(page);
  const [book] = uniquelyTitled(await apiBooks(page)).filter((b) => b.stock > 0);
  await page.goto('/books');
  await owned(page);
  await expect(page.getByRole('list', { name: 'Books' })).toBeVisible();
  await page.goto('/cart');
  await owned(page);
  await expect(page.getByText('No product found!')).toBeVisible();
  // A cart kept from an earlier visit: the prerendered page shows none, then the app shows it.
  await page.goto(`/books/${book!._id}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await page.goto('/cart');
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  expect(seen.filter((s) => !/status of 409|Failed to load resource/.test(s))).toEqual([]);
});

test('a book page: the app draws the same layout as the served article, with no console error or shift', async ({ browser, page }) => {
  const seen = problems(page);
  await watchLayoutShifts(page);
  const [book] = uniquelyTitled(await apiBooks(page));
  const where = async (p: Page) => ({
    heading: await p.getByRole('heading', { level: 1, name: book!.title }).boundingBox(),
    cover: await p.getByRole('img', { name: `Cover of ${book!.title}` }).boundingBox(),
    price: await p.getByText(`$${book!.newPrice.toFixed(2)}`, { exact: false }).first().boundingBox(),
  });
  // As served (JavaScript disabled: the article the pages function wrote).
  const served = await browser.newContext({ javaScriptEnabled: false });
  const plain = await served.newPage();
  await plain.goto(`/books/${book!._id}`);
  const before = await where(plain);
  await served.close();
  expect(before.heading).not.toBeNull();
  // As the app draws it.
  await page.goto(`/books/${book!._id}`);
  await owned(page);
  expect(await where(page)).toEqual(before);
  await expectNoShift(page);
  expect(seen).toEqual([]);
});

// @serial: it loads the newest books twice and compares them, so no other test may add or delete one in between.
test('/books: the served first page of books is what the app draws, with no console error or shift', { tag: '@serial' }, async ({ browser, page }) => {
  const seen = problems(page);
  await watchLayoutShifts(page);
  const first = (await (await page.request.get('/api/books?sort=newest')).json()).books[0];
  const where = async (p: Page) => ({
    // .first(): the newest card (other test files add books with repeated titles).
    heading: await p.getByRole('heading', { level: 2, name: first.title }).first().boundingBox(),
    cover: await p.getByRole('img', { name: `Cover of ${first.title}` }).first().boundingBox(),
    cards: await p.getByRole('list', { name: 'Books' }).getByRole('listitem').count(),
  });
  // As served, before any JavaScript: the pages function's cards.
  const served = await browser.newContext({ javaScriptEnabled: false });
  const plain = await served.newPage();
  await plain.goto('/books');
  const before = await where(plain);
  await served.close();
  expect(before.heading).not.toBeNull();
  expect(before.cards).toBeGreaterThan(1);
  // As the app draws it, from the page's embedded JSON.
  await page.goto('/books');
  await owned(page);
  expect(await where(page)).toEqual(before);
  await expectNoShift(page);
  await page.getByRole('link', { name: 'Next' }).click(); // the app's own pages follow
  await expect(page).toHaveURL(/\/books\?page=2&cursor=/);
  await expect(page.getByText('Page 2').first()).toBeVisible();
  expect(seen).toEqual([]);
});
