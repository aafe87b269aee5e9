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
    void queryClient.invalidateQueries({ queryKey: ['books'] });
  });
}
