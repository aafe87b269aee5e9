import { expect, type Page } from '@playwright/test';

/** Waits until the service worker has installed (precached the build) and controls the page. */
export async function workerControls(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 30_000 });
}

export interface CachedRequest { cache: string; url: string; authorization: boolean }

/** Every request kept in the page's CacheStorage, with the cache that holds it. */
export function cachedRequests(page: Page): Promise<CachedRequest[]> {
  return page.evaluate(async () => {
    const out: { cache: string; url: string; authorization: boolean }[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) out.push({ cache: name, url: request.url, authorization: request.headers.has('authorization') });
    }
    return out;
  });
}

/** Waits until the worker's catalogue cache holds an answer for each path (it writes after answering). */
export async function catalogueCached(page: Page, paths: string[]) {
  await expect
    .poll(async () => {
      const urls = (await cachedRequests(page)).filter((r) => r.cache === 'catalogue').map((r) => new URL(r.url).pathname);
      return paths.filter((p) => !urls.includes(p));
    }, { timeout: 15_000 })
    .toEqual([]);
}
