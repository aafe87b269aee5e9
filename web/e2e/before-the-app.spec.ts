import { NEWSLETTER_CHECK_INBOX } from '@bookstore/contract';
import { expect, test, uniqueTitle } from './fixtures';
import { appOwns as appOwnsWithin, cartSize, holdTheApp, PHONE, throttle } from './before-the-app';
import { booksInStock } from './helpers';
import type { Page } from '@playwright/test';

// Issue 60: what a shopper does to the served page before the app has started is answered and kept.
// The app's scripts are held until the shopper is done (as in early-tap.spec.ts), so every action
// here surely lands before the app starts, however fast or slow the machine; then the test waits on
// what the page shows, never on time.

/** The app has started and hydrated the element (React owns it). */
const appOwns = (page: Page, selector: string) => appOwnsWithin(page, selector, 90_000);

const newsletterEmail = () => `${uniqueTitle('early').replace(/\W+/g, '-').toLowerCase()}@example.com`;

for (const when of ['after', 'before'] as const) {
  test(`the newsletter email typed before the app starts is the one sent (Subscribe tapped ${when} the start)`, async ({ browser }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext(PHONE);
    try {
      const page = await context.newPage();
      await throttle(context, page, false);
      const answers: number[] = [];
      page.on('response', (r) => {
        if (r.url().endsWith('/api/newsletter') && r.request().method() === 'POST') answers.push(r.status());
      });
      const release = await holdTheApp(page);
      await page.goto('/', { waitUntil: 'domcontentloaded' });
      const email = newsletterEmail();
      const field = page.getByRole('textbox', { name: 'Newsletter sign-up' });
      await field.fill(email);
      const subscribe = page.getByRole('contentinfo').getByRole('button', { name: 'Subscribe' });
      if (when === 'before') {
        await subscribe.tap();
        await expect(subscribe).toHaveAttribute('data-queued', ''); // kept by the start script: the app has not started
      }
      expect(await page.evaluate(() => Object.keys(document.getElementById('newsletter-email')!).some((k) => k.startsWith('__react')))).toBe(false);

      await release();
      await appOwns(page, '#newsletter-email');
      if (when === 'after') {
        await expect(field).toHaveValue(email); // the field still shows it once the app owns it
        await subscribe.tap();
      }
      await expect(page.getByText(NEWSLETTER_CHECK_INBOX)).toBeVisible({ timeout: 60_000 });
      expect(answers).toEqual([202]);
    } finally {
      await context.close();
    }
  });
}

// Add to Cart as each served page draws it: the home page's first card on sale, a book page's, /books' first card on sale.
const PAGES = [
  { name: 'the home page', url: async () => '/', add: (page: Page) => page.getByRole('region', { name: 'Top Sellers' }).getByRole('button', { name: /^Add to Cart/, disabled: false }).first() },
  { name: 'a book page', url: async (page: Page) => `/books/${(await booksInStock(page, 1))[0]!._id}`, add: (page: Page) => page.getByRole('main').getByRole('button', { name: /^Add to Cart/ }) },
  { name: '/books', url: async () => '/books', add: (page: Page) => page.getByRole('main').getByRole('button', { name: /^Add to Cart/, disabled: false }).first() },
];

for (const served of PAGES) {
  test(`under mobile throttling, Add to Cart on ${served.name} tapped the moment it is drawn is answered at once, and added once`, async ({ browser }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext(PHONE);
    try {
      const page = await context.newPage();
      const url = await served.url(page);
      await throttle(context, page);
      const release = await holdTheApp(page);
      await page.goto(url, { waitUntil: 'commit' });
      const add = served.add(page);
      await add.tap();
      // The start script answers: the header counts the book (a loose bound for CI: the bench times the 200 ms).
      await expect(page.getByRole('link', { name: 'Cart, 1 item' })).toBeVisible({ timeout: 1_000 });
      await expect(add).toHaveAttribute('data-added', '');
      // Stored at once, or (tapped while the page's data was still arriving) once the page is parsed.
      await expect.poll(() => cartSize(page)).toBe(1);
      expect(await page.evaluate(() => Object.keys(document.querySelector('[data-added]')!).some((k) => k.startsWith('__react')))).toBe(false); // before the app

      await release();
      await expect(page.getByText('Item added to cart')).toBeVisible({ timeout: 90_000 }); // the app's own answer, once
      await expect(add).not.toHaveAttribute('data-added');
      await expect(page.getByTestId('cart-count')).toHaveText('1');
      await expect(page.getByRole('link', { name: 'Cart, 1 item' })).toBeVisible();
      expect(await cartSize(page)).toBe(1);
      await expect(page.getByRole('heading', { name: 'Already in cart' })).toHaveCount(0);
      // Once the app runs, a second tap behaves as it always has.
      await add.tap();
      await expect(page.getByRole('heading', { name: 'Already in cart' })).toBeVisible();
      expect(await cartSize(page)).toBe(1);
    } finally {
      await context.close();
    }
  });
}
