import { offerUpdate } from './update-state';

// The service worker (built by vite-plugin-pwa, web/pwa.config.ts) is registered after the page has
// loaded, from a chunk of its own: registration and workbox-window cost the first paint nothing.
// `vite` dev builds no worker (devOptions disabled), so there is nothing to register there.

/** How often an open tab asks the server whether a new build was deployed (also on each navigation). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

export async function registerServiceWorker(): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const { registerSW } = await import('virtual:pwa-register');
  const updateSW = registerSW({
    immediate: true, // this module is imported after the load event already
    // A new build is installed and waiting: ask, never swap files under a running page. Reload
    // activates it (skipWaiting) and reloads this tab once the new worker controls it.
    onNeedRefresh: () => offerUpdate(() => updateSW(true)),
    onRegisteredSW: (_url, registration) => {
      if (!registration) return;
      setInterval(() => {
        if (navigator.onLine) void registration.update().catch(() => undefined);
      }, UPDATE_CHECK_MS);
    },
    onRegisterError: (error) => console.warn('Service worker registration failed', error),
  });
}
