import { hydrate as hydrateQueries, onlineManager } from '@tanstack/react-query';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { createBrowserRouter } from 'react-router-dom';
import { routes, type AppRouter } from './routes';
import { QUERY_STATE_ID } from '../server/document';
import { ApiError } from '../lib/api-client';
import { stopEarlyInput } from '../lib/early-input';
import { networkStatus } from '../lib/network-status';
import { ShopQueryClient } from '../lib/query-client';
import { followCatalogueUpdates } from '../lib/pwa/catalogue-updates';

/**
 * The app's start, called by the entry (main.tsx) once the modules are evaluated: the query client,
 * then the router, then React, each in a task of its own.
 */
export function start(onRouter: (router: AppRouter) => void): void {
  setTimeout(() => {
    const queryClient = new ShopQueryClient({
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
    // Queries pause and resume with the shop's own network status (lib/network-status.ts), not only
    // navigator.onLine: a page opened offline, or on a network that lies, starts offline.
    onlineManager.setEventListener((setOnline) => {
      setOnline(networkStatus!.online());
      return networkStatus!.subscribe(() => setOnline(networkStatus!.online()));
    });

    // The service worker (offline, installable): registered once the page has loaded, from its own chunk.
    const registerWorker = () => void import('../lib/pwa/register-sw').then((m) => m.registerServiceWorker());
    if (document.readyState === 'complete') registerWorker();
    else window.addEventListener('load', registerWorker, { once: true });

    // The first HTML already shows the page: the build's prerendered pages and the pages function's
    // answers are the server render of this same app (src/server/render.tsx), with the data they were
    // drawn from as TanStack Query's dehydrated state. The QueryClient takes that state first, then React
    // hydrates the HTML: the same components with the same data draw the same text. Only the plain shell
    // (every other route, and the service worker's navigations) has an empty root, and renders.
    const container = document.getElementById('root')!;
    const state = document.getElementById(QUERY_STATE_ID)?.textContent;
    if (state) hydrateQueries(queryClient, JSON.parse(state));
    const hydrate = container.hasChildNodes();

    // Each step in a task of its own (a phone's main thread stays free between them): the query
    // state (this task), the router's start (it matches the URL and asks for the route's code), then
    // React's render, itself in slices (a transition).
    setTimeout(() => {
      const started = createBrowserRouter(routes);
      onRouter(started);
      const app = <App router={started} queryClient={queryClient} />;
      // In a transition, React hydrates and renders in slices of a few milliseconds, yielding to the
      // browser between them, instead of one long task a phone feels as a frozen page.
      const render = () => startTransition(() => {
        // From here React's listeners see every event: the start script stops keeping them, and what
        // it kept is replayed once the page is hydrated (App, useReplayEarlyInput).
        stopEarlyInput();
        if (hydrate) hydrateRoot(container, app);
        else createRoot(container).render(app);
      });
      if (started.state.initialized) setTimeout(render, 0);
      else {
        const stop = started.subscribe((state) => {
          if (!state.initialized) return;
          stop();
          render();
        });
      }
    }, 0);
  }, 0);
}
