import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { gunzipSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from '../playwright.config';
import { median } from './lighthouse';

// How long a shopper on a phone waits for a page's Add to Cart to work (issue 38), not only to be
// painted: Lighthouse's mobile throttling applied in Chromium itself (4x CPU, 150 ms round trip,
// 1.6 Mbit/s down, 750 kbit/s up), a fresh context per run, timed from the navigation's start by a
// probe in the page (every 50 ms) until
//   - first paint: Chromium's first-contentful-paint;
//   - first card: the first book card's Add to Cart is drawn (on /cart: the cart line's Remove);
//   - works: that button is enabled, outside any disabled fieldset, and React owns it (its props
//     are attached): a tap then has its effect at once;
//   - a tap at draw: the probe clicks the button the moment it is drawn, and this is when the cart
//     shows one book ('lost' when it never does within the run). Not on /cart (its line is the cart).
//   - answered (issue 60): from that tap to the first frame painted after the header's Cart link
//     says 'Cart, 1 item' (its aria-label: the start script answers before the app, the app after),
//     the figure a shopper feels (Interaction to Next Paint's; good within 200 ms).
// The floor of a page: its HTML and the JavaScript it needs (the entry, its imports, the route's
// chunk) over the same link with nothing waiting between them: the same document with every one of
// those scripts named as a modulepreload in its head (nothing run), timed until the last byte of the
// last of them (Resource Timing).

export const THROTTLING = {
  latencyMs: 150,
  downloadBytesPerSecond: (1.6 * 1024 * 1024) / 8,
  uploadBytesPerSecond: (750 * 1024) / 8,
  cpuSlowdown: 4,
} as const;
export const INTERACTIVE_RUNS = Number(process.env.BOOKSTORE_INTERACTIVE_RUNS) || 5;
/** How long one run waits for the button to work (and a tap's effect) before giving up. */
const RUN_TIMEOUT_MS = 20_000;

export interface InteractiveRun {
  fcpMs: number | null;
  lcpMs: number | null;
  cardMs: number | null;
  worksMs: number | null;
  /** When the cart showed the book after a tap the moment the button was drawn (null: lost). */
  tapEffectMs?: number | null;
  /** From that tap to the next frame after the header counted the book (null: never). */
  answeredMs?: number | null;
}

export interface InteractiveResult {
  page: string;
  runs: InteractiveRun[];
  fcpMs: number;
  lcpMs: number;
  cardMs: number;
  worksMs: number;
  /** Median of the taps' effects; NaN when most taps were lost. */
  tapEffectMs?: number;
  /** How many of the runs' taps at draw were lost. */
  tapsLost?: number;
  /** Median of the taps' answers (tap to the next paint showing the count); NaN when most were lost. */
  answeredMs?: number;
  floorMs: number;
  floorRuns: number[];
}

export interface InteractiveSection {
  date: string;
  chromium: string;
  /** `uptime`'s 1-minute load average when the runs started, and when they ended. */
  load: [number, number];
  runs: number;
  pages: InteractiveResult[];
}

type Probe = { fcp: number | null; lcp: number | null; card: number | null; works: number | null; tap: number | null; tapped: boolean; answered: number | null; done: boolean };

/**
 * The in-page probe (an init script, so it runs before the page's own scripts), as plain source:
 * a function compiled by tsx would carry its helpers (`__name`), which the page does not have.
 * `cartPage` picks the cart line's Remove instead of Add to Cart; `tap` clicks the button the
 * moment it is drawn; the cart count is the header's badge.
 */
function probeScript({ cartPage, tap }: { cartPage: boolean; tap: boolean }): string {
  return `(() => {
  const cartPage = ${JSON.stringify(cartPage)}, tap = ${JSON.stringify(tap)};
  const state = { fcp: null, lcp: null, card: null, works: null, tap: null, tapped: false, answered: null, done: false };
  let tapAt = 0, counted = false;
  // The header counts the book (whoever draws it): the next frame after that is the answer's paint.
  const answer = () => {
    if (counted || !state.tapped || document.querySelector('a[href="/cart"]')?.getAttribute('aria-label') !== 'Cart, 1 item') return;
    counted = true;
    requestAnimationFrame(() => setTimeout(() => { state.answered = performance.now() - tapAt; }, 0));
  };
  new MutationObserver(answer).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] });
  window.__probe = state;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') state.fcp = e.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    const last = list.getEntries().at(-1);
    if (last) state.lcp = last.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const button = () => Array.from(document.querySelectorAll(cartPage ? '[data-testid="cart-line"] button' : 'main button'))
    .find((b) => (cartPage ? /Remove/ : /Add to Cart/).test(b.textContent || ''));
  const drawn = (el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && el.checkVisibility({ visibilityProperty: true });
  };
  const reactOwns = (el) => Object.keys(el).some((k) => k.startsWith('__reactProps$') && typeof el[k]?.onClick === 'function');
  const timer = setInterval(() => {
    const now = performance.now();
    const el = button();
    if (el && drawn(el)) {
      if (state.card === null) state.card = now;
      if (tap && !state.tapped) {
        state.tapped = true;
        tapAt = performance.now();
        el.click();
        answer();
      }
      if (state.works === null && !el.disabled && !el.closest('fieldset:disabled') && reactOwns(el)) state.works = now;
    }
    if (tap && state.tapped && state.tap === null && document.querySelector('[data-testid="cart-count"]')?.textContent?.trim() === '1') state.tap = now;
    state.done = state.works !== null && state.fcp !== null && (!tap || (state.tap !== null && state.answered !== null));
    if (state.done) clearInterval(timer);
  }, 50);
})();`;
}

async function throttle(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: THROTTLING.latencyMs,
    downloadThroughput: THROTTLING.downloadBytesPerSecond,
    uploadThroughput: THROTTLING.uploadBytesPerSecond,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING.cpuSlowdown });
}

const PHONE = { viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, serviceWorkers: 'block' as const };

/** A book for /cart's runs: the cart is this browser's, so each run starts with it in local storage. */
export interface CartBook { _id: string; [key: string]: unknown }

async function oneRun(browser: Browser, url: string, cartBook: CartBook | undefined): Promise<InteractiveRun> {
  const context = await browser.newContext(PHONE);
  try {
    const cartPage = cartBook !== undefined;
    if (cartBook) await context.addInitScript((book) => localStorage.setItem('bookstore.cart', JSON.stringify([book])), cartBook);
    await context.addInitScript({ content: probeScript({ cartPage, tap: !cartPage }) });
    const page = await context.newPage();
    await throttle(context, page);
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => (window as unknown as { __probe?: Probe }).__probe?.done === true, undefined, { timeout: RUN_TIMEOUT_MS, polling: 250 }).catch(() => undefined);
    const p = await page.evaluate(() => (window as unknown as { __probe: Probe }).__probe);
    const ms = (v: number | null) => (v === null ? null : Math.round(v));
    return { fcpMs: ms(p.fcp), lcpMs: ms(p.lcp), cardMs: ms(p.card), worksMs: ms(p.works), ...(cartPage ? {} : { tapEffectMs: ms(p.tap), answeredMs: ms(p.answered) }) };
  } finally {
    await context.close();
  }
}

/** The scripts a served page needs: those its start script names, or its module tags. */
export function pageScripts(html: string): string[] {
  const found = new Set<string>();
  for (const m of html.matchAll(/data-(?:entry|preload)="([^"]*)"/g)) m[1]!.split(/\s+/).filter(Boolean).forEach((s) => found.add(s));
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g)) found.add(m[1]!);
  for (const m of html.matchAll(/<script[^>]+type="module"[^>]*src="([^"]+)"/g)) found.add(m[1]!);
  return [...found];
}

/** The floor's document: the page's HTML without its scripts, every script it needs preloaded in its head. */
export function floorDocument(html: string): string {
  const scripts = pageScripts(html);
  const withoutScripts = html.replace(/<script(?![^>]*type="application\/json")[^>]*>[\s\S]*?<\/script>/g, '').replace(/<link[^>]+rel="modulepreload"[^>]*>/g, '');
  const preloads = scripts.map((src) => `<link rel="modulepreload" crossorigin href="${src}">`).join('');
  return withoutScripts.replace('<meta charset="UTF-8">', `<meta charset="UTF-8">${preloads}`);
}

/**
 * A proxy in front of the shop that answers `page`'s document as its floor (floorDocument) and passes
 * every other request through unchanged: same origin for the scripts, same compression.
 */
async function floorProxy(shop: string, page: string): Promise<{ url: string; stop(): Promise<void> }> {
  const target = new URL(shop);
  const server: Server = createServer((req, res) => {
    const isDocument = req.url === page;
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host, ...(isDocument ? { 'accept-encoding': 'gzip' } : {}) } },
      (up: IncomingMessage) => {
        if (!isDocument) {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', () => {
          const raw = Buffer.concat(chunks);
          const enc = up.headers['content-encoding'];
          const html = (enc === 'gzip' ? gunzipSync(raw) : enc === 'br' ? brotliDecompressSync(raw) : raw).toString('utf8');
          const body = gzipSync(floorDocument(html));
          const headers = { ...up.headers, 'content-encoding': 'gzip', 'content-length': String(body.length) };
          delete headers['transfer-encoding'];
          res.writeHead(up.statusCode ?? 200, headers).end(body);
        });
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function floorRun(browser: Browser, base: string, page: string): Promise<number> {
  const context = await browser.newContext(PHONE);
  try {
    const tab = await context.newPage();
    await throttle(context, tab);
    await tab.goto(`${base}${page}`, { waitUntil: 'load', timeout: 60_000 });
    return await tab.evaluate(() => {
      const scripts = performance.getEntriesByType('resource').filter((e) => /\.js(\?|$)/.test(e.name)) as PerformanceResourceTiming[];
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return Math.round(Math.max(nav.responseEnd, ...scripts.map((s) => s.responseEnd)));
    });
  } finally {
    await context.close();
  }
}

const loadAverage = () => Number(loadavg()[0]!.toFixed(2));

/**
 * Each page `runs` times (fresh context each), then its floor as many times; medians. `cartBook`
 * fills /cart's cart. Nothing else should run meanwhile: the CPU's throttling multiplies the
 * machine's own slowness.
 */
export async function measureInteractive(shop: string, pages: string[], options: { runs?: number; cartBook?: CartBook; log?: (line: string) => void } = {}): Promise<InteractiveSection> {
  const runs = options.runs ?? INTERACTIVE_RUNS;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const started = loadAverage();
  const results: InteractiveResult[] = [];
  try {
    for (const page of pages) {
      const cartBook = page === '/cart' ? options.cartBook : undefined;
      const list: InteractiveRun[] = [];
      for (let i = 0; i < runs; i++) {
        const run = await oneRun(browser, `${shop}${page}`, cartBook);
        options.log?.(`  ${page} run ${i + 1}: paint ${run.fcpMs} ms, LCP ${run.lcpMs} ms, first card ${run.cardMs} ms, works ${run.worksMs} ms${run.tapEffectMs !== undefined ? `, tap at draw -> ${run.tapEffectMs ?? 'lost'}, answered in ${run.answeredMs ?? 'never'}` : ''}`);
        list.push(run);
      }
      const proxy = await floorProxy(shop, page);
      const floorRuns: number[] = [];
      try {
        for (let i = 0; i < runs; i++) floorRuns.push(await floorRun(browser, proxy.url, page));
      } finally {
        await proxy.stop();
      }
      options.log?.(`  ${page} floor (HTML + its JavaScript): ${floorRuns.join(' / ')} ms`);
      const pick = (k: keyof InteractiveRun) => median(list.map((r) => r[k] ?? Number.NaN));
      const taps = list.filter((r) => r.tapEffectMs !== undefined);
      const lost = taps.filter((r) => r.tapEffectMs === null).length;
      results.push({
        page, runs: list,
        fcpMs: pick('fcpMs'), lcpMs: pick('lcpMs'), cardMs: pick('cardMs'), worksMs: pick('worksMs'),
        ...(taps.length ? { tapEffectMs: lost * 2 > taps.length ? Number.NaN : pick('tapEffectMs'), answeredMs: lost * 2 > taps.length ? Number.NaN : pick('answeredMs'), tapsLost: lost } : {}),
        floorMs: median(floorRuns), floorRuns,
      });
    }
    return { date: new Date().toISOString(), chromium: browser.version(), load: [started, loadAverage()], runs, pages: results };
  } finally {
    await browser.close();
  }
}
