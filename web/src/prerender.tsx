import { BOOKS_SLOT_END, BOOKS_SLOT_START } from '@bookstore/contract';
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

/** /books as first rendered, its skeleton grid marked as the slot for the first page of books. */
export async function renderBooksFrame(): Promise<string> {
  const html = await render('/books');
  const start = html.indexOf('<div role="status" aria-label="Loading books"');
  if (start < 0) throw new Error('prerender: the skeleton grid of /books was not found');
  const tags = /<div\b|<\/div>/g;
  tags.lastIndex = start;
  let depth = 0;
  for (let tag = tags.exec(html); tag; tag = tags.exec(html)) {
    depth += tag[0] === '</div>' ? -1 : 1;
    if (depth > 0) continue;
    const end = tag.index + tag[0].length;
    return `${html.slice(0, start)}${BOOKS_SLOT_START}${html.slice(start, end)}${BOOKS_SLOT_END}${html.slice(end)}`;
  }
  throw new Error('prerender: the skeleton grid of /books is not closed');
}
