import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from '../../playwright.config';
import { adminLogin, booksInStock, cartCounts, SHOP_URL, signIn, ownerToken } from './helpers';
import { cachedRequests, catalogueCached, workerControls } from './pwa-helpers';

// The worker's features: the parallel project blocks service workers elsewhere (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

// Issue 14 parts 1, 2 and 5: installable by Chromium's own check; the service worker keeps nothing
// private; a new deploy is offered with 'A new version is available' and never mixed into a tab.

const ORIGIN = SHOP_URL;

test('the manifest and the worker are served with their types and revalidated on every load', async ({ request }) => {
  const manifest = await request.get('/manifest.webmanifest');
  expect(manifest.headers()['content-type']).toContain('application/manifest+json');
  expect(manifest.headers()['cache-control']).toBe('no-cache');
  const body = await manifest.json();
  expect(body).toMatchObject({ name: 'Book Store', start_url: '/', display: 'standalone', theme_color: '#0d0842' });
  for (const icon of body.icons as { src: string; sizes: string }[]) {
    const png = await request.get(icon.src);
    expect(png.headers()['content-type'], icon.src).toBe('image/png');
    // The PNG's own width and height (bytes 16-23 of the IHDR chunk) are the size the manifest claims.
    const bytes = await png.body();
    expect(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`, icon.src).toBe(icon.sizes);
  }
  const sw = await request.get('/sw.js');
  expect(sw.headers()['content-type']).toContain('javascript');
  expect(sw.headers()['cache-control']).toBe('no-cache');
});

test('Chromium finds the shop installable (Page.getInstallabilityErrors is empty)', async () => {
  // A persistent profile: Playwright's usual contexts are incognito, which is never installable.
  const profile = mkdtempSync(join(tmpdir(), 'bookstore-install-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, baseURL: ORIGIN });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    await workerControls(page);
    const cdp = await context.newCDPSession(page);
    const { url } = await cdp.send('Page.getAppManifest');
    expect(url).toBe(`${ORIGIN}/manifest.webmanifest`);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test('orders, admin and signed-in answers never reach the cache storage', async ({ page }) => {
  const privateCalls: string[] = [];
  page.on('request', (request) => {
    if (/^\/api\/(orders|admin)/.test(new URL(request.url()).pathname)) privateCalls.push(request.url());
  });
  const [book] = await booksInStock(page, 3);
  await signIn(page);
  await workerControls(page);
  await page.goto('/');
  await expect(page.locator('main article img').first()).toBeVisible();
  await page.goto(`/books/${book!._id}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await cartCounts(page, 1);
  // Checkout pre-fills from GET /api/orders?limit=1 once the sign-in is known: waited for, so the
  // page is not left before it asks.
  const prefill = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/orders' && res.request().method() === 'GET');
  await page.goto('/checkout');
  await expect(page.getByRole('heading', { name: 'Cash On Delevary' })).toBeVisible();
  await prefill;
  await page.goto('/orders');
  await expect(page.getByRole('heading', { name: 'Your Orders' })).toBeVisible();
  await adminLogin(page);
  await expect(page.getByText('Total Orders')).toBeVisible();
  await page.goto('/dashboard/orders');
  await expect(page.getByRole('heading', { name: 'Orders', exact: true })).toBeVisible();
  await page.goto('/dashboard/manage-books');
  await expect(page.getByRole('heading', { name: 'All Books' })).toBeVisible();
  await page.goto('/'); // the storefront read with the admin's token: private answers
  await expect(page.getByRole('heading', { name: 'Top Sellers' })).toBeVisible();
  await page.waitForLoadState('networkidle');

  // The private calls did happen, from pages the worker controlled...
  expect(privateCalls.some((u) => u.includes('/api/orders'))).toBe(true);
  expect(privateCalls.some((u) => u.includes('/api/admin'))).toBe(true);
  // ...and none of them, nor anything sent with a token, nor any other origin, was kept.
  const cached = await cachedRequests(page);
  expect(cached.filter((r) => /^\/api\/(orders|admin|auth)/.test(new URL(r.url).pathname) || new URL(r.url).pathname.startsWith('/__/'))).toEqual([]);
  expect(cached.filter((r) => r.authorization)).toEqual([]);
  expect(cached.filter((r) => new URL(r.url).origin !== ORIGIN)).toEqual([]);
  // The caches that should fill did (so the checks above look at real caches).
  expect(cached.filter((r) => r.cache === 'covers').length).toBeGreaterThan(0);
  expect(cached.filter((r) => r.cache === 'catalogue').length).toBeGreaterThan(0);
  expect(cached.some((r) => r.cache.startsWith('workbox-precache'))).toBe(true);
});

test('a book shown from the cache is redrawn when the background refresh brings a change', async ({ page, request }) => {
  const token = await ownerToken(request);
  const auth = { Authorization: `Bearer ${token}` };
  const fields = { title: `Cached Price ${Date.now()}`, description: 'Priced twice', category: 'fiction', trending: false, oldPrice: 30, newPrice: '21.00', coverImage: 'book-5', stock: 5 };
  const created = await request.post('/api/books/create-book', { headers: auth, data: fields });
  expect(created.status()).toBe(201);
  const id: string = (await created.json()).book._id;
  const price = page.getByRole('article').getByText('$21.00');
  try {
    await page.goto(`/books/${id}`);
    await workerControls(page);
    await page.reload(); // under the worker now: the book's answer goes into its cache
    await catalogueCached(page, [`/api/books/${id}`]);
    await expect(price).toBeVisible();

    const edited = await request.put(`/api/books/edit/${id}`, { headers: auth, data: { ...fields, newPrice: '17.00' } });
    expect(edited.status()).toBe(200);
    // The worker answers at once with the cached $21.00 and asks the network behind it; the changed
    // answer is announced and the page refetches it, without another reload.
    await page.reload();
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await expect(page.getByRole('article').getByText('$17.00')).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  } finally {
    await request.delete(`/api/books/${id}`, { headers: auth });
  }
});

// @serial: it rewrites web/dist, which Hosting serves to every test.
test.describe('a new deploy under an open tab (with the worker)', { tag: '@serial' }, () => {
  // The document the worker answers every navigation with (NAVIGATION_FALLBACK): what a deploy changes under the tab.
  const SHELL = join(process.cwd(), 'web', 'dist', 'shell.html');
  const SW = join(process.cwd(), 'web', 'dist', 'sw.js');
  let saved: { shell: string; sw: string };
  test.beforeEach(() => {
    saved = { shell: readFileSync(SHELL, 'utf8'), sw: readFileSync(SW, 'utf8') };
  });
  test.afterEach(() => {
    writeFileSync(SHELL, saved.shell);
    writeFileSync(SW, saved.sw);
  });

  test("'A new version is available' appears, the tab keeps its build until Reload, and Reload starts the new one", async ({ page }) => {
    const build = page.locator('meta[name="bookstore-build"]');
    await page.goto('/');
    await workerControls(page);
    await expect(page.getByRole('heading', { name: 'Top Sellers' })).toBeVisible();
    await expect(build).toHaveCount(0);

    // "Deploy" a new build: shell.html changes, so the worker's precache list carries its new revision.
    const shell = saved.shell.replace('<head>', '<head><meta name="bookstore-build" content="second">');
    const entry = /\{url:"shell\.html",revision:"([0-9a-f]+)"\}/.exec(saved.sw);
    expect(entry, 'sw.js lists shell.html with a revision').not.toBeNull();
    writeFileSync(SHELL, shell);
    writeFileSync(SW, saved.sw.replace(entry![0], `{url:"shell.html",revision:"${createHash('md5').update(shell).digest('hex')}"}`));

    // The tab checks for a new worker (hourly and on navigations; here at once).
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const prompt = page.getByRole('status').filter({ hasText: 'A new version is available' });
    await expect(prompt).toBeVisible({ timeout: 20_000 });

    // Until the shopper chooses, the tab stays on its build, even across a reload.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Top Sellers' })).toBeVisible();
    await expect(build).toHaveCount(0);
    await expect(prompt).toBeVisible();

    await prompt.getByRole('button', { name: 'Reload' }).click();
    await expect(build).toHaveAttribute('content', 'second');
    await expect(page.getByRole('heading', { name: 'Top Sellers' })).toBeVisible();
    await expect(prompt).toBeHidden();
  });
});
