import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from '../playwright.config';

// Bytes per route from a real first visit in Chromium (empty cache), as transferred (gzip/br as
// served by Hosting), until the network is idle (or 8 s for live pages), with no interaction. Customer routes (/orders) are
// visited signed in: the sign-in happens in another context, whose storage (Firebase Auth keeps its
// session in IndexedDB) the measured context starts with, so its HTTP cache is still empty.

export interface RouteBytes {
  route: string;
  js: number;
  css: number;
  images: number;
  apiJson: number;
  fonts: number;
  document: number;
  total: number;
  requests: number;
  /** Path and query of each API request the visit made (absent in older results). */
  api?: string[];
}

export interface Credentials {
  email: string;
  password: string;
}

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** Signs in through the login page, as a customer does, and keeps the session's storage. */
async function customerSession(browser: Browser, base: string, customer: Credentials): Promise<StorageState> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await page.getByLabel('Email', { exact: true }).fill(customer.email);
    await page.getByLabel('Password').fill(customer.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByRole('heading', { name: 'Login Successful' }).waitFor({ timeout: 15_000 });
    return await context.storageState({ indexedDB: true });
  } finally {
    await context.close();
  }
}

const CUSTOMER_ROUTES = ['/orders'];
/** Where each resource type's bytes go; other requests to /api/ are the API's JSON. */
const KINDS: Record<string, 'js' | 'css' | 'images' | 'fonts' | 'document'> = { script: 'js', stylesheet: 'css', image: 'images', font: 'fonts', document: 'document' };

export async function measureRouteBytes(base: string, routes: string[], adminToken: string, customer?: Credentials): Promise<RouteBytes[]> {
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const results: RouteBytes[] = [];
  try {
    let session: StorageState | undefined;
    for (const route of routes) {
      const signedIn = CUSTOMER_ROUTES.some((r) => route === r || route.startsWith(`${r}/`));
      if (signedIn && !customer) throw new Error(`${route} needs a customer to sign in`);
      if (signedIn && !session) {
        // A failed sign-in leaves the route out (the report then has no /orders row) rather than losing the run.
        session = await customerSession(browser, base, customer!).catch((error: unknown) => {
          console.warn(`  ${route}: customer sign-in failed, route not measured: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
          return undefined;
        });
        if (!session) continue;
      }
      const context = await browser.newContext({ viewport: { width: 412, height: 915 }, ...(signedIn ? { storageState: session } : {}) });
      if (route.startsWith('/dashboard')) {
        await context.addInitScript((token) => {
          localStorage.setItem('bookstore.admin', JSON.stringify({ token, expiresAt: Date.now() + 3_600_000 }));
        }, adminToken);
      }
      const page = await context.newPage();
      const row: RouteBytes = { route, js: 0, css: 0, images: 0, apiJson: 0, fonts: 0, document: 0, total: 0, requests: 0, api: [] };
      const pending: Promise<void>[] = [];
      page.on('requestfinished', (request) => {
        pending.push(
          request.sizes().then((sizes) => {
            const bytes = sizes.responseBodySize + sizes.responseHeadersSize;
            const url = request.url();
            const kind = KINDS[request.resourceType()] ?? (url.includes('/api/') ? 'apiJson' : undefined);
            if (kind) row[kind] += bytes;
            if (url.includes('/api/')) {
              const { pathname, search } = new URL(url);
              row.api!.push(`${request.method()} ${pathname}${search}`);
            }
            row.total += bytes;
            row.requests += 1;
          }),
        );
      });
      await page.goto(`${base}${route}`, { waitUntil: 'load' });
      // Live pages (a book's stock, /orders) keep a Firestore listen channel open, so the network
      // never idles there: wait for it a while, then count what has finished.
      await page.waitForLoadState('networkidle', { timeout: 8_000 }).catch(() => undefined);
      await page.waitForTimeout(1_000);
      await Promise.all(pending);
      results.push(row);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return results;
}

/** One finished request: its URL, its size on the wire (body and headers), and whether the service worker made it. */
export interface CountedRequest {
  url: string;
  bytes: number;
  worker: boolean;
}

/**
 * Counts every request a browser context finishes, the service worker's included (a page's own
 * listener does not see those). Call the returned function once the visit is over.
 */
export function countRequests(context: BrowserContext): () => Promise<CountedRequest[]> {
  const sizes: Promise<CountedRequest>[] = [];
  context.on('requestfinished', (request) => {
    const worker = request.serviceWorker() !== null;
    sizes.push(request.sizes().then((s) => ({ url: request.url(), bytes: s.responseBodySize + s.responseHeadersSize, worker })));
  });
  return () => Promise.all(sizes);
}

export interface FirstVisit {
  /** Everything a first visit to / transfers, the service worker's precache included (bytes). */
  total: number;
  requests: number;
  workerBytes: number;
  workerRequests: number;
}

/**
 * A shopper's first visit to /, counted on the browser context (which sees the service worker's
 * requests too; a page's listener does not), until the worker controls the page (its precache is
 * complete) and the network is idle. web/e2e/first-visit.spec.ts holds it to 250 KB.
 */
export async function measureFirstVisit(base: string): Promise<FirstVisit> {
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 915 } });
    const counted = countRequests(context);
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, undefined, { timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const seen = await counted();
    const sum = (rows: { bytes: number }[]) => rows.reduce((total, r) => total + r.bytes, 0);
    const byWorker = seen.filter((r) => r.worker);
    return { total: sum(seen), requests: seen.length, workerBytes: sum(byWorker), workerRequests: byWorker.length };
  } finally {
    await browser.close();
  }
}
