import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { getApps, initializeApp } from 'firebase-admin/app';
import { getFirestore } from 'firebase-admin/firestore';
import { adminLogin } from './helpers';

// A redeploy under an open tab: the tab was loaded from one build, the server now holds another
// (every hashed file renamed, the old ones gone, as after `firebase deploy`), and the shopper opens a
// lazily loaded route. The old chunk's request fails (404 once Hosting answers missing assets so;
// index.html as text/html before that: a module script refuses both), Vite fires
// vite:preloadError, and the app reloads once into the new build.
// Serial (the file name): it rewrites web/dist, which Hosting serves to every test.

const DIST = join(process.cwd(), 'web', 'dist');
const BACKUP = join(process.cwd(), 'artifacts', 'dist-before-redeploy');

/** Turns web/dist into a "new build": each hashed asset renamed, references rewritten, old files removed. Returns the old names of the chunks it dropped. */
function redeploy(options: { drop?: RegExp } = {}): string[] {
  const dropped: string[] = [];
  const assets = join(DIST, 'assets');
  const names = readdirSync(assets).filter((n) => /-[A-Za-z0-9_-]{6,}\.(js|css)$/.test(n));
  const renamed = new Map(names.map((n) => [n, n.replace(/(\.[a-z]+)$/, `v2$1`)]));
  const rewrite = (text: string) => {
    for (const [from, to] of renamed) text = text.split(from).join(to);
    return text;
  };
  for (const [from, to] of renamed) {
    const text = readFileSync(join(assets, from), 'utf8');
    rmSync(join(assets, from));
    if (options.drop?.test(from)) {
      dropped.push(from); // a chunk the "new build" lacks as well
      continue;
    }
    writeFileSync(join(assets, to), rewrite(text));
  }
  // Every page the build wrote (the prerendered ones, the shell, the book frame) and the manifest.
  const pages = readdirSync(DIST).filter((n) => n.endsWith('.html'));
  for (const file of [...pages, '.vite/manifest.json']) {
    const path = join(DIST, file);
    try {
      let text = rewrite(readFileSync(path, 'utf8'));
      if (file.endsWith('.html')) text = text.replace('<head>', '<head><meta name="bookstore-build" content="second">');
      writeFileSync(path, text);
    } catch {
      /* no manifest: nothing to rewrite */
    }
  }
  return dropped;
}

/** Counts full page loads of the tab (a reload is one more). */
function countDocumentLoads(page: Page): () => number {
  let loads = 0;
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) loads += 1;
  });
  return () => loads;
}

test.describe('a deploy under an open tab', () => {
  // A browser without the service worker (or a first visit, before it controls the tab). Under the
  // worker the old build stays whole in its precache until the shopper chooses 'Reload': pwa.spec.ts.
  test.use({ serviceWorkers: 'block' });
  test.beforeEach(() => {
    rmSync(BACKUP, { recursive: true, force: true });
    cpSync(DIST, BACKUP, { recursive: true });
  });
  test.afterEach(() => {
    rmSync(DIST, { recursive: true, force: true });
    cpSync(BACKUP, DIST, { recursive: true });
    rmSync(BACKUP, { recursive: true, force: true });
  });

  test('opening a lazy route after a redeploy reloads once into the new build, which works', async ({ page }) => {
    const loads = countDocumentLoads(page);
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
    // The prerendered page shows its links before the app runs: wait until the app owns the page.
    await expect(page.getByLabel('Search books')).toBeEnabled();
    await page.evaluate(() => ((window as unknown as { oldTab: boolean }).oldTab = true));
    expect(loads()).toBe(1);

    redeploy();
    const old = await page.request.get('/assets/login-does-not-exist.js');
    expect(old.headers()['content-type'] ?? '').not.toContain('javascript'); // 404 (or the SPA's HTML before that rule)

    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL('/login');
    await expect(page.locator('meta[name="bookstore-build"]')).toHaveAttribute('content', 'second');
    await expect(page.getByLabel('Email', { exact: true })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { oldTab?: boolean }).oldTab)).toBeUndefined();
    expect(loads()).toBe(2);
    // The new build keeps working without further reloads (once it owns the page: before the app
    // has hydrated the served /login, its links are plain links, and a click is a page load).
    await expect(page.getByLabel('Search books')).toBeEnabled();
    await page.getByRole('link', { name: 'Bookstore home' }).click();
    await expect(page).toHaveURL('/');
    await page.getByRole('link', { name: /^Cart,/ }).click();
    await expect(page).toHaveURL('/cart');
    expect(loads()).toBe(2);
  });

  test('a chunk missing from the new build too shows the error page after one reload, never a loop', async ({ page }) => {
    const loads = countDocumentLoads(page);
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
    // The prerendered page shows its links before the app runs: wait until the app owns the page.
    await expect(page.getByLabel('Search books')).toBeEnabled();
    const dropped = redeploy({ drop: /^login-/ });
    expect(dropped.length).toBeGreaterThan(0);
    // The tab's chunk is gone: Hosting hands the name to `pages`, whose 404 (from its own copy of the
    // build, decision 033) is what the tab gets. Asked first here, as the other test does: a cold
    // `pages` worker in the Functions emulator can take longer than an expectation waits.
    for (const name of dropped) expect((await page.request.get(`/assets/${name}`)).status()).toBe(404);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    await expect(page.locator('meta[name="bookstore-build"]')).toHaveAttribute('content', 'second');
    await page.waitForTimeout(1_500);
    expect(loads()).toBe(2);
  });
});

// Filling the shop after a deploy: the admin import page, a dry run then the import, in chunks.
test.describe('catalogue import page', () => {
  const RUN = String(Math.floor(Math.random() * 90) + 10);
  const isbn = (n: number) => {
    const body = `9797${RUN}${String(n).padStart(6, '0')}`;
    const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
    return body + ((10 - (sum % 10)) % 10);
  };

  test.afterAll(async () => {
    // Leave the storefront as the other specs expect it: delete what this test imported, straight
    // in the Firestore emulator (npm test exports FIRESTORE_EMULATOR_HOST to Playwright).
    const db = getFirestore(getApps()[0] ?? initializeApp({ projectId: 'demo-bookstore' }));
    const writer = db.bulkWriter();
    for (let n = 1; n <= 600; n += 1) void writer.delete(db.collection('books').doc(`isbn-${isbn(n)}`));
    await writer.close();
  });

  test('checks a 600-row CSV, lists the bad rows, then imports the rest with progress', async ({ page }) => {
    await adminLogin(page);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Import Books' }).click();
    await expect(page).toHaveURL('/dashboard/import');

    const lines = ['title,author,description,category,oldPrice,newPrice,stock,isbn,coverImage'];
    for (let n = 1; n <= 600; n += 1) {
      const category = n === 3 ? 'poetry' : 'adventure';
      const price = n === 550 ? '1.999' : '9.99';
      lines.push(`"Page import ${RUN}-${n}",Ann Author,"Imported, from the page",${category},12,${price},2,${isbn(n)},book-4`);
    }
    await page.getByLabel('Catalogue file').setInputFiles({ name: 'books.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
    await expect(page.getByText('Checked 600 rows: 598 new, 0 updated, 0 unchanged, 2 errors.')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByLabel('Check progress')).toHaveAttribute('value', '600');
    const errors = page.getByRole('table');
    await expect(errors.getByRole('row')).toHaveCount(3); // header + 2
    await expect(errors.getByRole('row').nth(1)).toContainText('3category');
    await expect(errors.getByRole('row').nth(2)).toContainText('550newPrice');

    await page.getByRole('button', { name: 'Import 598 books (skip 2 errors)' }).click();
    await expect(page.getByText('Imported: 598 new, 0 updated, 0 unchanged, 2 rows skipped.')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByLabel('Import progress')).toHaveAttribute('value', '600');
    const book = await page.request.get(`/api/books/isbn-${isbn(599)}`);
    expect(await book.json()).toMatchObject({ title: `Page import ${RUN}-599`, category: 'adventure', newPrice: 9.99, stock: 2 });
  });
});
