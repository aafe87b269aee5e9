import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { AdminSessionWatcher } from './app/admin-session-watcher';
import { UpdatePrompt } from './components/ui/update-prompt';
import { router } from './app/router';
import { AuthStateProvider } from './lib/auth/auth-context';
import { ApiError } from './lib/api-client';
import { followCatalogueUpdates } from './lib/pwa/catalogue-updates';
import './index.css';

// After a redeploy, an open tab asks for chunks whose hashes no longer exist. Vite reports the
// failed import as `vite:preloadError`: load the page the shopper was going to (the router has not
// moved there yet) from the new version, once. The timestamp in sessionStorage stops a loop when
// the chunk is missing from the new version too (the route's error page shows instead); a later
// deploy, a minute on, may reload again.
const CHUNK_RELOAD_KEY = 'bookstore:chunk-reload-at';
window.addEventListener('vite:preloadError', (event) => {
  try {
    const last = Number(sessionStorage.getItem(CHUNK_RELOAD_KEY) ?? 0);
    if (Date.now() - last < 60_000) return;
    sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now()));
  } catch {
    return; // no sessionStorage (blocked): without the guard, never reload
  }
  event.preventDefault();
  const next = router.state.navigation.location;
  if (next) window.location.assign(`${next.pathname}${next.search}${next.hash}`);
  else window.location.reload();
});

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // Always try the request: offline, the service worker may answer it from its cache (the
      // catalogue, web/pwa.config.ts). Only when that fails too do retries wait for the network,
      // and every active query refetches when it returns ('online' event, TanStack's onlineManager).
      networkMode: 'offlineFirst',
      refetchOnWindowFocus: false,
      // A 4xx will not change on retry; network trouble might.
      retry: (count, error) => count < 2 && !(error instanceof ApiError && typeof error.kind === 'number' && error.kind < 500),
    },
  },
});

followCatalogueUpdates(queryClient);
// TanStack Query assumes 'online' until an event says otherwise; a page opened offline starts offline.
onlineManager.setOnline(navigator.onLine);

// The service worker (offline, installable): registered once the page has loaded, from its own chunk.
const registerWorker = () => void import('./lib/pwa/register-sw').then((m) => m.registerServiceWorker());
if (document.readyState === 'complete') registerWorker();
else window.addEventListener('load', registerWorker, { once: true });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AuthStateProvider>
        <RouterProvider router={router} />
        <AdminSessionWatcher />
        <UpdatePrompt />
      </AuthStateProvider>
    </QueryClientProvider>
  </StrictMode>,
);
