import type { BrowserContext, Page, Route } from '@playwright/test';

// What the specs of a page before its app has started share (early-tap.spec.ts, before-the-app.spec.ts):
// a phone, Lighthouse's mobile throttling, the app's code held back, and the marks of the app's start.

export const PHONE = { viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, serviceWorkers: 'block' as const };

/** Lighthouse's mobile throttling in Chromium: 4x CPU and, with `network`, 150 ms round trip, 1.6 Mbit/s down. */
export async function throttle(context: BrowserContext, page: Page, network = true): Promise<void> {
  const cdp = await context.newCDPSession(page);
  if (network) {
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

/** Holds the app's scripts (the page is drawn, the app cannot start) until the returned release is called. */
export async function holdTheApp(page: Page): Promise<() => Promise<void>> {
  const held: Route[] = [];
  let released = false;
  await page.route('**/assets/*.js', (route) => (released ? route.continue() : void held.push(route)));
  return async () => {
    released = true;
    await Promise.all(held.splice(0).map((route) => route.continue()));
  };
}

/** The app has started and hydrated the element (React owns it). */
export const appOwns = (page: Page, selector: string, timeout: number) =>
  page.waitForFunction((s) => {
    const el = document.querySelector(s);
    return !!el && Object.keys(el).some((k) => k.startsWith('__reactProps$'));
  }, selector, { timeout });

/** How many books this browser's stored cart holds. */
export const cartSize = (page: Page) => page.evaluate(() => (JSON.parse(localStorage.getItem('bookstore.cart') ?? '[]') as unknown[]).length);
