import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';

// A redeploy under an open tab: the tab was loaded from one build, the server now holds another
// (every hashed file renamed, the old ones gone, as after `firebase deploy`), and the shopper opens a
// lazily loaded route. The old chunk's request fails (404 once Hosting answers missing assets so;
// index.html as text/html before that: a module script refuses both), Vite fires
// vite:preloadError, and the app reloads once into the new build.

const DIST = join(process.cwd(), 'web', 'dist');
const BACKUP = join(process.cwd(), 'artifacts', 'dist-before-redeploy');

/** Turns web/dist into a "new build": each hashed asset renamed, references rewritten, old files removed. */
function redeploy(options: { drop?: RegExp } = {}) {
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
    if (options.drop?.test(from)) continue; // a chunk the "new build" lacks as well
    writeFileSync(join(assets, to), rewrite(text));
  }
  for (const file of ['index.html', '.vite/manifest.json']) {
    const path = join(DIST, file);
    try {
      let text = rewrite(readFileSync(path, 'utf8'));
      if (file === 'index.html') text = text.replace('<head>', '<head><meta name="bookstore-build" content="second">');
      writeFileSync(path, text);
    } catch {
      /* no manifest: nothing to rewrite */
    }
  }
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
    // The new build keeps working without further reloads.
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
    redeploy({ drop: /^login-/ });
    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    await expect(page.locator('meta[name="bookstore-build"]')).toHaveAttribute('content', 'second');
    await page.waitForTimeout(1_500);
    expect(loads()).toBe(2);
  });
});
