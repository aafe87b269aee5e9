import { expect, test, type Page, type Route } from '@playwright/test';
import { ownerToken } from './helpers';

// Every served page (the build's prerendered ones, the pages function's) is the app's own render:
// with JavaScript the app hydrates it and draws the same text, in any browser time zone (dates are
// in the shop's zone, contract/src/locale.ts). Kiritimati (UTC+14) and Pago Pago (UTC-11) are a day
// apart: a date formatted in the browser's zone reads differently in one of them from any server's.
// Serial (the file name): /books is loaded twice and compared, so no other test may add or delete a book in between.

const ZONES = ['Pacific/Kiritimati', 'Pacific/Pago_Pago'];
/** What React reports when the HTML does not match its first render (production builds give the codes). */
const HYDRATION = /hydrat|did not match|server rendered|#418|#423|#425/i;

/** Book pages draw the stock badge and start following the stock at once when it is low or out. */
const STOCKS = [12, 2, 0];
const made: string[] = [];
let token = '';

test.beforeAll(async ({ request }) => {
  token = await ownerToken(request);
  for (const stock of STOCKS) {
    const res = await request.post('/api/books/create-book', {
      headers: { Authorization: `Bearer ${token}` },
      data: { title: `Hydrated With ${stock} Left`, description: 'A served page.', category: 'fiction', trending: false, oldPrice: 20, newPrice: '12.50', coverImage: 'book-4', stock },
    });
    expect(res.status()).toBe(201);
    made.push((await res.json()).book._id);
  }
});
test.afterAll(async ({ request }) => {
  for (const id of made) await request.delete(`/api/books/${id}`, { headers: { Authorization: `Bearer ${token}` } });
});

const pages = () => ['/', ...made.map((id) => `/books/${id}`), '/books', '/cart', '/about', '/login'];

/** The main element's text, without the parts drawn from this browser's own state (data-client-state: the cart's lines). */
async function mainText(page: Page): Promise<string> {
  let text = await page.locator('main').innerText();
  for (const part of await page.locator('main [data-client-state]').allInnerTexts()) text = text.replace(part, '');
  return text.replace(/\s+/g, ' ').trim();
}

for (const timezoneId of ZONES) {
  test(`served pages hydrate to the same text in ${timezoneId}, with no hydration warning`, async ({ browser }) => {
    for (const path of pages()) {
      // As served: JavaScript off.
      const off = await browser.newContext({ javaScriptEnabled: false, timezoneId });
      const still = await off.newPage();
      await still.goto(path);
      const served = await mainText(still);
      await off.close();
      expect(served, path).not.toBe('');

      // Hydrated: the API's answers are held until the text is read, so what shows is the first
      // render (from the served state), not a later fetch's.
      const on = await browser.newContext({ timezoneId });
      const held: Route[] = [];
      await on.route('**/api/**', (route) => void held.push(route));
      const page = await on.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || HYDRATION.test(message.text())) problems.push(`${message.type()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
      await page.goto(path);
      // React owns the page once the header's search field is enabled (it waits for hydration).
      await expect(page.getByLabel('Search books')).toBeEnabled();
      const hydrated = await mainText(page);
      expect(problems, `${path} in ${timezoneId}`).toEqual([]);
      expect(hydrated, `${path} in ${timezoneId}`).toBe(served);
      await Promise.all(held.map((route) => route.abort().catch(() => undefined)));
      await on.close();
    }
  });
}
