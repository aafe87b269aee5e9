import { NEWSLETTER_CHECK_INBOX, NEWSLETTER_CONFIRMED } from '@bookstore/contract';
import { expect, test } from '@playwright/test';
import { getApps, initializeApp } from 'firebase-admin/app';
import { getFirestore } from 'firebase-admin/firestore';
import { booksInStock, newCustomer, noHorizontalOverflow, settled, SHOP_URL, signIn } from './helpers';
import { catalogueCached, workerControls } from './pwa-helpers';

// The worker's features: the parallel project blocks service workers elsewhere (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

// Issue 28 in the browser: the wishlist (guest -> account at sign-in, live on another device), the
// newsletter's double opt-in through the mailed link, and 'Email Me When It Is Back' on a sold-out book.

const db = () => getFirestore(getApps()[0] ?? initializeApp({ projectId: 'demo-bookstore' }));
const SHOTS = 'artifacts/screenshots';
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** The newest mail document sent to `email` (the Trigger Email shape), waiting for it to be written. */
async function mailTo(email: string) {
  let text = '';
  await expect
    .poll(async () => {
      const snap = await db().collection('mail').where('to', '==', email).get();
      text = (snap.docs[0]?.data() as { message?: { text?: string } } | undefined)?.message?.text ?? '';
      return text;
    })
    .not.toBe('');
  return text;
}

/** A sold-out book of this file's own, dated 2001 so it never becomes the home page's newest card. */
async function soldOutBook(): Promise<{ _id: string; title: string }> {
  const ref = db().collection('books').doc();
  const title = `Sold Out Alert ${RUN}`;
  const at = '2001-02-03T04:05:06.000Z';
  await ref.set({ title, author: 'Ada Waiting', description: 'Waiting for a reprint.', category: 'fiction', trending: false, coverImage: 'book-7', oldPriceCents: 1999, newPriceCents: 1499, stock: 0, inStock: false, createdAt: at, updatedAt: at });
  return { _id: ref.id, title };
}

test('a book hearted signed out joins the account at sign-in and shows in /wishlist on a second browser context, live', async ({ page, browser, request }) => {
  const customer = await newCustomer(request, 'wishlist');
  const [book, second] = await booksInStock(page, 1);
  await page.goto(`/books/${book!._id}`);
  await page.getByRole('button', { name: 'Add to wishlist' }).click();
  await expect(page.getByRole('button', { name: 'Remove from wishlist' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Wishlist, 1 book' })).toBeVisible();
  // Kept on this device, across a reload.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Remove from wishlist' })).toBeVisible();

  await signIn(page, customer.email, customer.password);

  const other = await browser.newContext();
  try {
    const phone = await other.newPage();
    await signIn(phone, customer.email, customer.password);
    await phone.goto('/wishlist');
    const line = phone.getByTestId('wishlist-line').filter({ hasText: book!.title });
    await expect(line).toBeVisible();
    await expect(line.getByText(`$${book!.newPrice.toFixed(2)}`)).toBeVisible();
    await expect(line.getByRole('button', { name: /^Add to Cart/ })).toBeEnabled();

    // Live across devices: a heart pressed on the first shows on the second's open /wishlist...
    await page.goto(`/books/${second!._id}`);
    await page.getByRole('button', { name: 'Add to wishlist' }).click();
    await expect(phone.getByTestId('wishlist-line').filter({ hasText: second!.title })).toBeVisible();
    await expect(phone.getByRole('link', { name: 'Wishlist, 2 books' })).toBeVisible();
    // ...and a removal on the second empties the first's heart.
    await phone.getByRole('button', { name: `Remove ${book!.title} from the wishlist` }).click();
    await expect(line).toBeHidden();
    // A newly loaded page shows this device's copy, and follows the account from the first touch
    // (the Firestore SDK is not part of a page's first load): a pointer move.
    // The app's first-touch listener sees only touches from its start on (decision 038: the served
    // buttons are usable before it), so the pointer moves once the app owns the page (the header's
    // search field, disabled until then, is enabled).
    await page.goto(`/books/${book!._id}`);
    await expect(page.getByLabel('Search books')).toBeEnabled();
    await page.mouse.move(10, 10);
    await expect(page.getByRole('link', { name: 'Wishlist, 1 book' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add to wishlist' })).toBeVisible();

    // What Firestore holds: the account's list, written by the client under the rules.
    const snap = await db().collection('wishlists').get();
    const mine = snap.docs.find((d) => (d.data().bookIds as string[]).includes(second!._id) && !(d.data().bookIds as string[]).includes(book!._id));
    expect(mine).toBeDefined();
  } finally {
    await other.close();
  }
});

test("a signed-in customer's /wishlist on a fresh device shows their saved books without waiting for a touch (issue 38)", async ({ page, request }) => {
  const customer = await newCustomer(request, 'wishlist-fresh');
  const uid = (JSON.parse(Buffer.from(customer.token.split('.')[1]!, 'base64url').toString('utf8')) as { user_id: string }).user_id;
  const [book] = await booksInStock(page, 1);
  // Saved on another device: the account's list holds the book, this browser has never seen it.
  await db().collection('wishlists').doc(uid).set({ bookIds: [book!._id], updatedAt: new Date() });
  await signIn(page, customer.email, customer.password);
  // A new document: nothing touched on it (no pointer, key or scroll), only the page loading.
  await page.goto('/wishlist');
  const line = page.getByTestId('wishlist-line').filter({ hasText: book!.title });
  await expect(line).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('link', { name: 'Wishlist, 1 book' })).toBeVisible();
});

test('offline: the wishlist keeps working, with the price and stock of books seen before', async ({ page, context }) => {
  const [a, b] = await booksInStock(page, 1);
  await page.goto('/');
  await workerControls(page);
  for (const book of [a!, b!]) {
    await page.goto(`/books/${book._id}`);
    await expect(page.getByRole('heading', { name: book.title, level: 1 })).toBeVisible();
  }
  await page.getByRole('button', { name: 'Add to wishlist' }).click(); // b, online
  await expect(page.getByRole('link', { name: 'Wishlist, 1 book' })).toBeVisible();
  await catalogueCached(page, [`/api/books/${a!._id}`, `/api/books/${b!._id}`]);

  await context.setOffline(true);
  try {
    await page.goto(`/books/${a!._id}`);
    await page.getByRole('button', { name: 'Add to wishlist' }).click();
    await expect(page.getByRole('button', { name: 'Remove from wishlist' })).toBeVisible();
    await page.goto('/wishlist');
    const lines = page.getByTestId('wishlist-line');
    await expect(lines).toHaveCount(2);
    await expect(lines.filter({ hasText: a!.title })).toContainText(`$${a!.newPrice.toFixed(2)}`);
    await page.getByRole('button', { name: `Remove ${b!.title} from the wishlist` }).click();
    await expect(lines).toHaveCount(1);
    await expect(page.getByRole('link', { name: 'Wishlist, 1 book' })).toBeVisible();
  } finally {
    await context.setOffline(false);
  }
});

test('newsletter: the banner leads to the form, the thanks says to check the inbox, the mailed link confirms', async ({ page }) => {
  const email = `news-${RUN}@example.com`;
  await page.goto('/');
  await page.getByRole('button', { name: 'Subscribe', exact: true }).first().click();
  const field = page.getByRole('textbox', { name: 'Newsletter sign-up' });
  await expect(field).toBeFocused();
  await field.fill(email);
  await page.getByRole('contentinfo').getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByText(NEWSLETTER_CHECK_INBOX)).toBeVisible();

  const text = await mailTo(email);
  // The shop's origin in this checkout's port slot (scripts/lib/env.ts), escaped for the pattern.
  const origin = SHOP_URL.replace(/[.]/g, '\\.');
  const link = new RegExp(`${origin}(/newsletter/confirm\\?token=[A-Za-z0-9_.%-]+)`).exec(text);
  expect(link, text).not.toBeNull();
  expect((await db().collection('newsletter').where('email', '==', email).get()).docs[0]!.data().status).toBe('pending');
  await page.goto(link![1]!);
  await expect(page.getByText(NEWSLETTER_CONFIRMED)).toBeVisible();
  expect((await db().collection('newsletter').where('email', '==', email).get()).docs[0]!.data().status).toBe('confirmed');

  // The unsubscribe link in the same mail: a button, then gone.
  const unsubscribe = new RegExp(`${origin}(/newsletter/unsubscribe\\?token=[A-Za-z0-9_.%-]+)`).exec(text)!;
  await page.goto(unsubscribe[1]!);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByText('You are unsubscribed')).toBeVisible();
  expect((await db().collection('newsletter').where('email', '==', email).get()).size).toBe(0);
});

test("a sold-out book offers 'Email Me When It Is Back': an address when signed out, one click when signed in", async ({ page, request }) => {
  const book = await soldOutBook();
  try {
    await page.goto(`/books/${book._id}`);
    await expect(page.getByText('Out of stock')).toBeVisible();
    const guest = `alert-${RUN}@example.com`;
    await page.getByRole('textbox', { name: 'Your email' }).fill(guest);
    await page.getByRole('button', { name: 'Email Me When It Is Back' }).click();
    await expect(page.getByText('We will email you when this book is back in stock.')).toBeVisible();

    const customer = await newCustomer(request, 'alert');
    await signIn(page, customer.email, customer.password);
    await page.goto(`/books/${book._id}`);
    await expect(page.getByRole('textbox', { name: 'Your email' })).toBeHidden();
    await page.getByRole('button', { name: 'Email Me When It Is Back' }).click();
    await expect(page.getByText(`We will email ${customer.email} when this book is back in stock.`)).toBeVisible();

    const waiting = (await db().collection('stockAlerts').where('bookId', '==', book._id).get()).docs.map((d) => d.data().email).sort();
    expect(waiting).toEqual([guest, customer.email.toLowerCase()].sort());
  } finally {
    const alerts = await db().collection('stockAlerts').where('bookId', '==', book._id).get();
    await Promise.all([...alerts.docs.map((d) => d.ref.delete()), db().collection('books').doc(book._id).delete()]);
  }
});

for (const width of [375, 1280]) {
  test(`wishlist, sold-out book and footer at ${width}px: named controls, no sideways scroll`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const books = await booksInStock(page, 1);
    const book = await soldOutBook();
    try {
      await page.goto('/');
      await page.evaluate((ids) => localStorage.setItem('bookstore.wishlist', JSON.stringify(ids)), [books[0]!._id, books[1]!._id, book._id]);
      await page.goto('/wishlist');
      await expect(page.getByTestId('wishlist-line')).toHaveCount(3);
      await expect(page.getByTestId('wishlist-line').filter({ hasText: book.title }).getByRole('button', { name: /^Add to Cart/ })).toBeDisabled();
      await expect(page.getByRole('link', { name: 'Wishlist, 3 books' })).toBeVisible();
      await settled(page);
      await noHorizontalOverflow(page);
      await page.screenshot({ path: `${SHOTS}/wishlist-${width}.png`, fullPage: true });

      await page.goto(`/books/${book._id}`);
      await expect(page.getByRole('button', { name: 'Email Me When It Is Back' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Remove from wishlist' })).toBeVisible();
      await noHorizontalOverflow(page);
      await page.screenshot({ path: `${SHOTS}/book-sold-out-${width}.png`, fullPage: true });

      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Top Sellers' })).toBeVisible();
      await settled(page);
      await noHorizontalOverflow(page);
      await page.screenshot({ path: `${SHOTS}/home-hearts-${width}.png` });
      const cardHeart = page.getByRole('button', { name: /^Add to wishlist ?: / }).first();
      await cardHeart.scrollIntoViewIfNeeded();
      await expect(cardHeart).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/cards-hearts-${width}.png` });
      await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/footer-newsletter-${width}.png` });
      // Keyboard: the header's heart is reachable and opens the wishlist.
      await page.getByRole('link', { name: 'Wishlist, 3 books' }).focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL('/wishlist');
    } finally {
      await db().collection('books').doc(book._id).delete();
    }
  });
}
