import type { QueryClient } from '@tanstack/react-query';

// The service worker answers catalogue reads from its cache at once and refreshes the cache behind
// them (stale-while-revalidate, web/pwa.config.ts). When the refresh differs, Workbox's
// BroadcastCacheUpdate posts this message; the book queries then refetch, and read the fresh copy.

const CATALOGUE_CACHE = 'catalogue';
/** One refetch per changed address at most this often, whatever the worker sends. */
const QUIET_MS = 10_000;

interface CacheUpdated {
  type: 'CACHE_UPDATED';
  meta: 'workbox-broadcast-update';
  payload: { cacheName: string; updatedURL: string };
}

const isCatalogueUpdate = (data: unknown): data is CacheUpdated =>
  !!data &&
  typeof data === 'object' &&
  (data as CacheUpdated).meta === 'workbox-broadcast-update' &&
  (data as CacheUpdated).payload?.cacheName === CATALOGUE_CACHE;

export function followCatalogueUpdates(queryClient: QueryClient): void {
  if (!('serviceWorker' in navigator)) return;
  const lastRefetch = new Map<string, number>();
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
    if (!isCatalogueUpdate(event.data)) return;
    const url = event.data.payload.updatedURL;
    const now = Date.now();
    if (now - (lastRefetch.get(url) ?? 0) < QUIET_MS) return;
    lastRefetch.set(url, now);
    refetchBooks(queryClient, now + SETTLE_MS);
  });
}

/** How long a refetch waits for the book requests already in flight to land. */
const SETTLE_MS = 10_000;

/**
 * Refetches the book queries once none is fetching. The message often arrives while the page's
 * first request for the book is still being read (the worker answered it from the cache at once),
 * and TanStack Query keeps, rather than cancels, a fetch that has no data yet: invalidating then
 * would change nothing, and the page would keep the copy the worker served before the update.
 * (ShopQueryClient, lib/query-client.ts, now fetches such a query again itself; this wait came
 * first and stays, as the offline tests prove this path.)
 */
function refetchBooks(queryClient: QueryClient, deadline: number): void {
  if (queryClient.isFetching({ queryKey: ['books'] }) > 0 && Date.now() < deadline) {
    setTimeout(() => refetchBooks(queryClient, deadline), 50);
    return;
  }
  void queryClient.invalidateQueries({ queryKey: ['books'] });
}
