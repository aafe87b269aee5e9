import type { AppRouter } from './app/routes';
import { start } from './app/start';
import './index.css';

// After a redeploy, an open tab asks for chunks whose hashes no longer exist. Vite reports the
// failed import as `vite:preloadError`: load the page the shopper was going to (the router has not
// moved there yet) from the new version, once. The timestamp in sessionStorage stops a loop when
// the chunk is missing from the new version too (the route's error page shows instead); a later
// deploy, a minute on, may reload again.
const CHUNK_RELOAD_KEY = 'bookstore:chunk-reload-at';
let router: AppRouter | undefined;
window.addEventListener('vite:preloadError', (event) => {
  // Under the service worker the tab runs the build the worker precached until the shopper takes an
  // update: a reload would bring the same build, and a failed chunk there means offline (the
  // dashboard's and the Firebase SDK's chunks are not precached). The import's own caller copes.
  if (navigator.serviceWorker?.controller) return;
  try {
    const last = Number(sessionStorage.getItem(CHUNK_RELOAD_KEY) ?? 0);
    if (Date.now() - last < 60_000) return;
    sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now()));
  } catch {
    return; // no sessionStorage (blocked): without the guard, never reload
  }
  event.preventDefault();
  const next = router?.state.navigation.location;
  if (next) window.location.assign(`${next.pathname}${next.search}${next.hash}`);
  else window.location.reload();
});

// From a microtask, not the module's top level: the start's first timer is recorded with its stack
// under an inspector (Lighthouse, the bench), and a stack holding the entry's top level makes V8
// re-parse the whole entry chunk for it (about 40 ms at 4x CPU; decision 061).
queueMicrotask(() => start((started) => { router = started; }));
