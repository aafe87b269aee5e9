import type { Plugin } from 'vite';
import type { VitePWAOptions } from 'vite-plugin-pwa';

type ManifestTransform = NonNullable<NonNullable<VitePWAOptions['workbox']>['manifestTransforms']>[number];

// The service worker and web app manifest (issue 14 parts 1-3, docs/decisions/014-service-worker.md).
// Built by vite-plugin-pwa with Workbox (generateSW): nothing in the worker is hand-written.

/**
 * The page every SPA navigation is answered with by the worker, from the precache: the plain shell
 * (index.html carries the prerendered home page; web/prerender.ts).
 */
export const NAVIGATION_FALLBACK = 'shell.html';

const SITE_THEME = '#0d0842'; // --color-secondary, the header logo and <meta name="theme-color">
const SITE_BACKGROUND = '#ffffff'; // the body's background

/** Page routes that are not the app: the API, Firebase's reserved /__/ (Auth's helpers), sitemaps, and any file. */
const NOT_APP_PAGES = [/^\/api\//, /^\/__\//, /^\/sitemap/, /\/[^/?]+\.[^/]+$/];

/**
 * The storefront's pages (src/app/routes/): their chunks, with the entry and everything they import
 * statically, are the precached app shell. The dashboard, the order desk, the import page and the
 * Firebase SDK (auth, the live Firestore pages: dynamic imports) are not: they are fetched when used
 * and kept then by the `assets` route below.
 */
const STOREFRONT_ROUTE = /\/src\/app\/routes\/[a-z-]+\.tsx$/;
/** Pages reached only from a mail's link (confirm, unsubscribe): online by nature, fetched when opened. */
const MAIL_LINK_PAGE = /\/src\/app\/routes\/(?:newsletter-confirm|mail-unsubscribe)\.tsx$/;
/** The Firebase SDK (and the app's module that starts it): never precached, nor a page that needs it (the live orders). */
const FIREBASE = /\/node_modules\/(?:firebase|@firebase|reactfire)\/|\/src\/lib\/firebase\.ts$/;
/**
 * Swiper only enhances the carousels once touched (decision 004); sweetalert2 draws the alerts, which
 * fall back to a plain notice when its code is not at hand (lib/notify.ts): fetched when used, kept by
 * the `assets` route, not precached (the first visit's budget, web/e2e/first-visit.spec.ts).
 */
const ENHANCEMENT_ONLY = /\/node_modules\/(?:swiper|sweetalert2)\//;

/** The shell's scripts, found in the bundle by storefrontShell() before the worker is generated. */
const shellScripts = new Set<string>();

/** A route's own chunk (a storefront page is a root of the walk; the dashboard's are never walked). */
const isPage = (chunk: OutputChunkLike | undefined) => !!chunk && chunk.type === 'chunk' && /\/src\/(?:app\/routes|features\/admin)\//.test(chunk.facadeModuleId ?? '');
type OutputChunkLike = { type: string; facadeModuleId?: string | null };

/** Walks the bundle: the entry and the storefront routes' chunks, and their static imports. */
export function storefrontShell(): Plugin {
  return {
    name: 'bookstore-storefront-shell',
    apply: 'build',
    generateBundle(_options, bundle) {
      if (this.environment?.config.build.ssr) return;
      shellScripts.clear();
      const chunkOf = (file: string) => {
        const chunk = bundle[file];
        return chunk?.type === 'chunk' ? chunk : undefined;
      };
      const needsFirebase = (file: string, seen = new Set<string>()): boolean => {
        const chunk = chunkOf(file);
        if (!chunk || seen.has(file)) return false;
        seen.add(file);
        return chunk.moduleIds.some((id) => FIREBASE.test(id)) || chunk.imports.some((next) => needsFirebase(next, seen));
      };
      const visit = (file: string) => {
        const chunk = chunkOf(file);
        if (!chunk || shellScripts.has(file) || needsFirebase(file)) return;
        if (chunk.moduleIds.some((id) => ENHANCEMENT_ONLY.test(id))) return;
        shellScripts.add(file);
        chunk.imports.forEach(visit);
        // What the storefront loads on use (the alerts), but not another page.
        chunk.dynamicImports.filter((next) => !isPage(bundle[next])).forEach(visit);
      };
      for (const [file, chunk] of Object.entries(bundle)) {
        const route = chunk.type === 'chunk' ? chunk.facadeModuleId ?? '' : '';
        if (chunk.type === 'chunk' && (chunk.isEntry || (STOREFRONT_ROUTE.test(route) && !MAIL_LINK_PAGE.test(route)))) visit(file);
      }
    },
  };
}

/** Every script outside the shell leaves the precache (pages, styles, images and icons stay). */
const onlyTheShell: ManifestTransform = async (entries) => ({
  // (and not the web app manifest, which the browser fetches itself).
  manifest: entries.filter((entry) => (entry.url.startsWith('assets/') && entry.url.endsWith('.js') ? shellScripts.has(entry.url) : entry.url !== 'manifest.webmanifest')),
  warnings: shellScripts.size === 0 ? ['storefrontShell() found no scripts: is the plugin in vite.config.ts?'] : [],
});

export const pwaOptions: Partial<VitePWAOptions> = {
  registerType: 'prompt', // a new deploy waits for the shopper's 'Reload' (web/src/lib/pwa/)
  injectRegister: false, // registered by web/src/lib/pwa/register-sw.ts, after the page has loaded
  // Never in `vite` dev: a worker there would serve yesterday's modules (README, 'Installable and offline').
  devOptions: { enabled: false },
  includeManifestIcons: false, // the glob below has them already (a second entry would be a duplicate)
  manifest: {
    name: 'Book Store',
    short_name: 'Book Store',
    description: 'An independent online book shop: books delivered to your door, cash on delivery.',
    id: '/',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: SITE_THEME,
    background_color: SITE_BACKGROUND,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    // The app shell: every built script, style and page, the site's own images and icons. Covers are
    // cached as they are seen (below), not up front. Vite's hashed /assets/ names are their own revision;
    // every other file gets a content hash in sw.js, so each build replaces exactly what changed.
    // (The plugin adds manifest.webmanifest itself.)
    globPatterns: ['**/*.{js,css,html,svg,png}'],
    // ...but of the scripts only the storefront's shell (storefrontShell above; decision 014).
    manifestTransforms: [onlyTheShell],
    // Not the prerendered pages, the home page included: a navigation gets shell.html and the app
    // renders (the server's HTML matters for a first paint, which the worker never serves; the home
    // page was the worker's second download of the document the first visit had just read, 6 KB of
    // the 250 KB first-visit budget). Not the icons or the home page's pictures: the browser fetches
    // those itself, and keeps them in its cache.
    globIgnores: ['covers/**', 'icons/**', 'images/**', 'index.html', 'cart.html', 'about.html', 'login.html'],
    navigateFallback: NAVIGATION_FALLBACK,
    navigateFallbackDenylist: NOT_APP_PAGES,
    cleanupOutdatedCaches: true,
    // The first visit's page comes under the worker as soon as it activates, so the catalogue answers
    // it fetches next are kept for offline use. (An update still waits for 'Reload': clientsClaim only
    // acts when a worker activates, and a waiting one activates when the shopper asks.)
    clientsClaim: true,
    runtimeCaching: [
      // Workbox copies these callbacks into sw.js as source text: they may use nothing from this module.
      {
        // Book covers: bundled (/covers/book-N.svg) and uploaded (/api/covers/<sha256>.<ext>, immutable).
        urlPattern: ({ url, request, sameOrigin }) =>
          sameOrigin && /^\/(?:covers|api\/covers)\//.test(url.pathname) && !request.headers.has('authorization'),
        handler: 'CacheFirst',
        options: {
          cacheName: 'covers',
          cacheableResponse: { statuses: [200] },
          expiration: { maxEntries: 200, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true },
        },
      },
      {
        // The public catalogue: lists, browse, search, suggestions, one book. Never a request carrying a
        // token (an admin reading the catalogue gets private answers); /api/admin/books is not under it.
        urlPattern: ({ url, request, sameOrigin }) =>
          sameOrigin && /^\/api\/books(?:\/|$)/.test(url.pathname) && !request.headers.has('authorization'),
        handler: 'StaleWhileRevalidate',
        options: {
          cacheName: 'catalogue',
          cacheableResponse: { statuses: [200] },
          expiration: { maxEntries: 300, maxAgeSeconds: 24 * 60 * 60, purgeOnQuotaError: true },
          // When the background refresh brings a different answer (its ETag changed), the open pages are
          // told, and refetch (web/src/lib/pwa/catalogue-updates.ts): a stale price shows one round trip.
          broadcastUpdate: { channelName: 'catalogue-updates', options: { headersToCheck: ['etag'] } },
          plugins: [
            {
              // Belt and braces: whatever the server marks private or no-store is never written.
              cacheWillUpdate: async ({ response }) =>
                /no-store|private/i.test(response.headers.get('cache-control') ?? '') ? null : response,
            },
            {
              // The broadcast above compares the network's answer with the cache's, which a concurrent
              // refresh (another tab, or the page the shopper just reloaded away from) may have updated
              // already: the page served the old copy would then never hear of the change. So the page
              // that was answered from the cache is told whenever the network's answer differs from
              // what it was served. Workbox serializes these functions into the worker: no outer names.
              cachedResponseWillBeUsed: async ({ event, cachedResponse }) => {
                if (event && cachedResponse) (event as unknown as { servedEtag?: string | null }).servedEtag = cachedResponse.headers.get('etag');
                return cachedResponse;
              },
              cacheDidUpdate: async ({ event, request, newResponse }) => {
                const fetchEvent = event as unknown as { servedEtag?: string | null; clientId?: string } | undefined;
                if (!fetchEvent?.clientId || fetchEvent.servedEtag === undefined || newResponse.headers.get('etag') === fetchEvent.servedEtag) return;
                const worker = self as unknown as { clients: { get(id: string): Promise<{ postMessage(message: unknown): void } | undefined> } };
                const client = await worker.clients.get(fetchEvent.clientId);
                client?.postMessage({ type: 'CACHE_UPDATED', meta: 'workbox-broadcast-update', payload: { cacheName: 'catalogue', updatedURL: request.url } });
              },
            },
          ],
        },
      },
      {
        // The build's other scripts (the dashboard, the desk, the import page, the Firebase SDK): kept
        // once used. Their names carry their content's hash, so a kept one never goes stale.
        urlPattern: ({ url, sameOrigin }) => sameOrigin && /^\/assets\/[^/]+\.js$/.test(url.pathname),
        handler: 'CacheFirst',
        options: {
          cacheName: 'assets',
          cacheableResponse: { statuses: [200] },
          expiration: { maxEntries: 100, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true },
        },
      },
      // Everything else (orders, admin, auth, Firestore, Google's identity APIs) has no route: the
      // worker does not answer it and the browser goes to the network as if there were no worker.
    ],
  },
};
