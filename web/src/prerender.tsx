import { QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, type RouteObject } from 'react-router-dom';
import { App } from './app/app';
import { routes } from './app/routes';

// Build-time prerender (web/prerender.ts runs it after the client build): the HTML of a page's first
// render, with the same tree main.tsx hydrates. No data is fetched: lists render their skeletons,
// the cart renders its neutral form (see useHydrated), the header shows an empty cart and no user.

/** Where the pages function puts a book's article (functions/src/pages/book-page.ts). */
export const BOOK_SLOT = '<div data-slot="book"></div>';

async function renderRoutes(table: RouteObject[], url: string): Promise<string> {
  const router = createMemoryRouter(table, { initialEntries: [url] });
  if (!router.state.initialized) {
    await new Promise<void>((resolve) => {
      const stop = router.subscribe((state) => {
        if (!state.initialized) return;
        stop();
        resolve();
      });
    });
  }
  const html = renderToString(<App router={router} queryClient={new QueryClient()} />);
  router.dispose();
  return html;
}

/** A route's first render, for hydration. */
export function render(url: string): Promise<string> {
  return renderRoutes(routes, url);
}

/** The storefront's layout (header, footer) around BOOK_SLOT: the frame of a server-filled book page. */
export function renderBookFrame(): Promise<string> {
  const slot: RouteObject = { path: 'books/:id', element: <div data-slot="book" /> };
  const table = routes.map((route): RouteObject => (route.path === '/' && !route.index ? { ...route, children: [slot] } : route));
  return renderRoutes(table, '/books/slot');
}
