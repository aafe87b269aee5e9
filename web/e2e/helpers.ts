import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext, type Page, type Request } from '@playwright/test';
import type { Book } from '../../contract/src/book-fields';
import { formatDate } from '../../contract/src/locale';
import { PORTS, ROOT, SHOP_URL } from '../../scripts/lib/env';

export const CUSTOMER = { email: 'reader@example.com', password: 'reader123' };
export const ADMIN = { username: 'admin', password: 'admin123' };

/** The Auth emulator's REST API, and the demo project's API key, for accounts made by tests. */
export const AUTH_EMULATOR = `http://127.0.0.1:${PORTS.auth}`;
export const AUTH = `${AUTH_EMULATOR}/identitytoolkit.googleapis.com/v1`;
export { SHOP_URL };
export const KEY = 'demo-api-key';

export async function idToken(request: APIRequestContext, email: string, password: string): Promise<string> {
  const res = await request.post(`${AUTH}/accounts:signInWithPassword?key=${KEY}`, { data: { email, password, returnSecureToken: true } });
  expect(res.status()).toBe(200);
  return (await res.json()).idToken;
}

/** Cancels an order as its customer (`token`): a test's tidy-up, so its open orders do not pile up across runs. */
export async function cancelOrder(request: APIRequestContext, token: string, id: string): Promise<void> {
  expect((await request.post(`/api/orders/${id}/cancel`, { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(200);
}

/** A customer of its own (email verified, as checkout may require), so other tests' orders do not interfere. */
export async function newCustomer(request: APIRequestContext, prefix: string) {
  const email = `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const password = 'secret123';
  const res = await request.post(`${AUTH}/accounts:signUp?key=${KEY}`, { data: { email, password, returnSecureToken: true } });
  expect(res.status()).toBe(200);
  const { localId } = await res.json();
  // The Auth emulator lets its owner mark the address verified (no mail round trip needed here).
  const verified = await request.post(`${AUTH}/projects/demo-bookstore/accounts:update`, {
    headers: { Authorization: 'Bearer owner' },
    data: { localId, emailVerified: true },
  });
  expect(verified.status()).toBe(200);
  return { email, password, token: await idToken(request, email, password) };
}

export async function signIn(page: Page, email = CUSTOMER.email, password = CUSTOMER.password) {
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Login Successful' })).toBeVisible();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL('/');
}

/**
 * Sends one sign-in of the demo owner until it is not refused for contention. Tests on several
 * workers sign the owner in from one address at once: two attempts at once contend on that
 * sign-in's budget, which fails closed (429 with Retry-After), and a person would try again after
 * the wait it names (at most 5 s here, at most 5 attempts).
 */
async function untilNotThrottled<R extends { status(): number; headers(): Record<string, string> }>(send: () => Promise<R>): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    const res = await send();
    if (res.status() !== 429 || attempt >= 5) return res;
    await new Promise((resolve) => setTimeout(resolve, 1000 * Math.min(5, Number(res.headers()['retry-after']) || 1)));
  }
}

/** The demo owner's admin token, signed in afresh (a token another test revokes is never reused). */
export async function ownerToken(request: APIRequestContext): Promise<string> {
  const res = await untilNotThrottled(() => request.post('/api/auth/admin', { data: ADMIN }));
  expect(res.status(), 'the demo owner signs in').toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/** Signs the demo owner in at /admin, again after a 'Too many login attempts' (see untilNotThrottled). */
export async function adminLogin(page: Page) {
  await page.goto('/admin');
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await untilNotThrottled(async () => {
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/admin' && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Login' }).click();
    return answer;
  });
  await expect(page).toHaveURL('/dashboard');
}

/** A book as the API answers it: the contract's type, derived from the book's field registry. */
export type ApiBook = Book;

/** The book page's 'Published:' line for a book (the spec: the published date, from createdAt, in the shop's zone). */
export const publishedLine = (createdAt: string) => `Published: ${formatDate(createdAt)}`;

/** The titles of the seeded catalogue (emulator-data/seed/books.json), which no test deletes. */
const CATALOGUE = new Set((JSON.parse(readFileSync(`${ROOT}emulator-data/seed/books.json`, 'utf8')) as { title: string }[]).map((b) => b.title));

/**
 * The seeded catalogue's books as GET /api/books lists them (newest first), never a book another
 * test made: tests run beside each other, and theirs come and go (docs/testing.md).
 */
export async function catalogueBooks(request: APIRequestContext): Promise<ApiBook[]> {
  const res = await request.get('/api/books');
  expect(res.status()).toBe(200);
  return ((await res.json()) as ApiBook[]).filter((b) => CATALOGUE.has(b.title));
}

/** catalogueBooks through the page's request context. */
export async function apiBooks(page: Page): Promise<ApiBook[]> {
  return catalogueBooks(page.request);
}

/**
 * The checkout form's personal details and address (not the terms box): typed where typed, chosen
 * where chosen (issue 36: the country and the state from lists, sent as codes). Springfield, IL: the
 * demo shop's free local delivery.
 */
export async function fillDelivery(page: Page, who = { name: 'Riley Reader', street: '12 Paper Lane' }) {
  await page.getByLabel('Full Name').fill(who.name);
  await page.getByLabel('Phone Number').fill('5551234567');
  await page.getByLabel('Address / Street').fill(who.street);
  await page.getByLabel('City').fill('Springfield');
  await page.getByLabel('Country / region').selectOption('US');
  await page.getByLabel('State / province').selectOption('IL');
  await page.getByLabel('Zipcode').fill('62701');
}

/** Fills the checkout form and places the order; returns when /orders shows. */
export async function checkout(page: Page) {
  await page.goto('/checkout');
  await expect(page.getByRole('heading', { name: 'Cash On Delevary' })).toBeVisible();
  await fillDelivery(page);
  // As a person reads the price before agreeing: the summary prices this address.
  await expect(page.getByTestId('quote-total')).toHaveText(/^\$\d/);
  const place = page.getByRole('button', { name: 'Place an Order' });
  await expect(place).toBeDisabled();
  await page.getByLabel(/I agree to the/).check();
  await expect(place).toBeEnabled();
  await place.click();
  await expect(page.getByRole('heading', { name: 'Confirmed Order' })).toBeVisible();
  await page.getByRole('button', { name: 'Yes, OK!' }).click();
  await expect(page).toHaveURL('/orders');
}

/** Catalogue books with at least `min` copies left now (other tests buy books too). A test that counts copies makes its own (fixtures.ts). */
export async function booksInStock(page: Page, min = 5): Promise<ApiBook[]> {
  return (await apiBooks(page)).filter((b) => b.stock >= min);
}

export async function apiBook(page: Page, id: string): Promise<ApiBook> {
  return (await page.request.get(`/api/books/${id}`)).json();
}

/**
 * Waits until the header's cart says `n` items. A tap on Add to Cart made before the app has started
 * is kept and replayed once it has (the early-tap script): leaving the page before then drops it,
 * as it would a shopper's who left at once. Wait on this before navigating away from a book page.
 */
export async function cartCounts(page: Page, n: number) {
  await expect(page.getByTestId('cart-count')).toHaveText(String(n));
}

/** Opens the book's page and presses its Add to Cart button (the caller checks what that did). */
export async function addToCart(page: Page, book: { _id: string }) {
  await page.goto(`/books/${book._id}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
}

/** Adds the books from their pages, checks out, and returns the new order's id (newest first on /orders). */
export async function placeOrder(page: Page, books: { _id: string }[]): Promise<string> {
  for (const book of books) {
    await addToCart(page, book);
    await expect(page.getByText('Item added to cart')).toBeVisible();
  }
  await checkout(page);
  const href = await page.getByRole('link', { name: /^View Order/ }).first().getAttribute('href');
  return href!.split('/').pop()!;
}

export const shortId = (id: string) => id.slice(0, 8);

/** The card of one order on /orders. */
export const orderCard = (page: Page, id: string) => page.getByRole('article', { name: `Order #${shortId(id)}` });

/**
 * Like waitForLoadState('networkidle'), except that a Firestore listener's long-lived request (the
 * live pages: orders, a book's stock) does not count: it stays open as long as the page follows data,
 * so a live page is never 'networkidle'. Waits until no other request has been in flight for `quietMs`.
 */
export async function settled(page: Page, quietMs = 500, timeout = 15_000) {
  await page.waitForLoadState('load');
  const inflight = new Set<Request>();
  const add = (r: Request) => {
    if (!r.url().includes('/google.firestore.v1.Firestore/')) inflight.add(r);
  };
  const remove = (r: Request) => inflight.delete(r);
  page.on('request', add);
  page.on('requestfinished', remove);
  page.on('requestfailed', remove);
  try {
    const start = Date.now();
    let quietSince = Date.now();
    while (Date.now() - start < timeout) {
      await page.waitForTimeout(100);
      if (inflight.size > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= quietMs) return;
    }
  } finally {
    page.off('request', add);
    page.off('requestfinished', remove);
    page.off('requestfailed', remove);
  }
}

/** Nothing on the page makes it scroll sideways (a phone's screen holds the whole width). */
export async function noHorizontalOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** The 12 digits given, and the ISBN-13 check digit. */
export function withIsbn13Check(first12: string): string {
  const sum = [...first12].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return first12 + ((10 - (sum % 10)) % 10);
}

/** A random valid ISBN-13 (978...), and the ISBN-10 of the same book: a book of the test's own to scan. */
export function isbnPair(): { isbn13: string; isbn10: string } {
  const body = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10)).join('');
  const sum10 = [...body].reduce((acc, d, i) => acc + Number(d) * (10 - i), 0);
  const check10 = (11 - (sum10 % 11)) % 11;
  return { isbn13: withIsbn13Check(`978${body}`), isbn10: body + (check10 === 10 ? 'X' : String(check10)) };
}
