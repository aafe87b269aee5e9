import { CATEGORIES, type Book, type BooksPage, type BooksQuery } from '@bookstore/contract';
import { dehydrate, QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, matchRoutes } from 'react-router-dom';
import { App } from '../app/app';
import { routes } from '../app/routes';
import { browseQuery } from '../features/catalog/api/browse-books';
import { parseBrowseParams, toApiParams } from '../features/catalog/browse/browse-params';
import { HOME_LIST_LIMIT } from '../features/catalog/components/top-sellers';
import { bookQuery } from '../lib/books/get-book';
import { booksQuery } from '../lib/books/get-books';
import { pageTitle, takeServerTitle } from '../lib/use-page-title';

// The one server render of the storefront: the same route components and the same App tree the
// browser hydrates (app/start.tsx), for the build's prerendered pages (web/prerender.ts) and for the
// `pages` function at request time (functions/src/pages/pages.app.ts bundles this module).
//
// Data: the server's loaders fill a QueryClient under the keys of the same queryOptions the pages
// read (bookQuery, browseQuery); its dehydrated state goes into the page once (document.ts) and the
// browser's QueryClient is hydrated from it before React hydrates (app/start.tsx). Nothing else is
// embedded, and no page has a reader of its own.
//
// The router is a memory router started at the URL, rendered by the same RouterProvider as in the
// browser: the tree (and so useId's ids) is the browser's, and lazy routes are resolved before the
// render, as the browser's router does before its first render.

/** Where the server's data comes from: the function's repositories. The build's prerender has none. */
export interface Loaders {
  book(id: string): Promise<Book | null>;
  /** One page of the browse, given the API's query parameters (GET /api/books?...). */
  browse(params: Record<string, string>): Promise<BooksPage>;
  /** The home page's list, newest first (GET /api/books?limit=16): its carousels' books. */
  books(query: BooksQuery): Promise<Book[]>;
}

export interface RenderedPage {
  /** 404 for an unknown route or book, else 200. */
  status: number;
  /** The route's own module (src/app/routes/<name>.tsx), for its modulepreload; null for none. */
  routeModule: string | null;
  /** The HTML inside #root. */
  html: string;
  /** React's resource hints (the cover's preload) taken out of the tree: they go into the head. */
  hints: string[];
  /** TanStack Query's dehydrated state, for the browser's QueryClient. */
  state: unknown;
  /** The title the page set (usePageTitle). */
  title: string;
  /** The book a book page shows (its meta tags are the caller's). */
  book: Book | null;
  /** Drawn without data its page should have had (the home list could not be read): not for a cache. */
  partial: boolean;
}

/** The storefront page names whose module the route table lazy-loads (routes.tsx). */
const ROUTE_MODULES: Record<string, string> = {
  '/': 'home',
  '/books': 'books',
  '/books/:id': 'book-detail',
  '/cart': 'cart',
  '/about': 'about',
  '/login': 'login',
  '/register': 'register',
};

/** A 4xx from a loader (a bad cursor or filter): the browser's request will get the same answer. */
const refused = (error: unknown) => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
};

interface Prefetched {
  book: Book | null;
  partial: boolean;
}

/**
 * The route's data, fetched into the client under the page's own queryOptions (their queryFn
 * swapped for the server's loader). A failed read throws (the function answers 500), except a 4xx
 * on /books (that query stays empty, the page renders its skeletons and the browser asks the API)
 * and the home list (`partial`: its skeletons, not cached).
 */
async function prefetch(client: QueryClient, url: URL, pattern: string, params: Record<string, string | undefined>, loaders: Loaders): Promise<Prefetched> {
  if (pattern === '/books/:id' && params.id) {
    const id = params.id;
    // An unknown book is cached as null: the page renders its "not found" branch (book-detail.tsx
    // tests `!book`), the same text the browser shows after the API's 404, and the answer is a 404.
    return { book: await client.fetchQuery({ ...bookQuery(id), queryFn: async () => (await loaders.book(id)) as Book }), partial: false };
  }
  if (pattern === '/') {
    // The home page's carousels (Top Sellers, Recommended) share one list: served with the page, so
    // its first cards and their Add to Cart are in the first HTML (issue 38). A failed read draws
    // the skeletons instead, and the browser asks the API as the app did before.
    const query = { limit: HOME_LIST_LIMIT };
    const partial = await client.fetchQuery({ ...booksQuery(query), queryFn: () => loaders.books(query) }).then(
      () => false,
      () => {
        client.removeQueries({ queryKey: booksQuery(query).queryKey });
        return true;
      },
    );
    return { book: null, partial };
  }
  if (pattern === '/books') {
    const state = parseBrowseParams(url.searchParams, CATEGORIES);
    const apiParams = Object.fromEntries(toApiParams(state));
    await client.fetchQuery({ ...browseQuery(state), queryFn: () => loaders.browse(apiParams) }).catch((error: unknown) => {
      if (!refused(error)) throw error;
      client.removeQueries({ queryKey: browseQuery(state).queryKey });
    });
  }
  return { book: null, partial: false };
}

/** Renders `path` (with its query) as the browser's first render will, with the loaders' data. */
export async function renderPage(path: string, loaders?: Loaders): Promise<RenderedPage> {
  const url = new URL(path, 'http://localhost');
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const matches = matchRoutes(routes, url.pathname) ?? [];
  const leaf = matches.at(-1);
  const pattern = leaf ? `/${matches.map((m) => m.route.path ?? '').filter((p) => p && p !== '/').join('/')}` : '';
  let status = !leaf || leaf.route.path === '*' ? 404 : 200;
  const { book, partial } = loaders && leaf ? await prefetch(client, url, pattern, leaf.params, loaders) : { book: null, partial: false };
  if (pattern === '/books/:id' && loaders && !book) status = 404;

  const router = createMemoryRouter(routes, { initialEntries: [`${url.pathname}${url.search}`] });
  if (!router.state.initialized) {
    await new Promise<void>((resolve) => {
      const stop = router.subscribe((state) => {
        if (!state.initialized) return;
        stop();
        resolve();
      });
    });
  }
  takeServerTitle();
  const rendered = renderToString(<App router={router} queryClient={client} />);
  const title = takeServerTitle() ?? pageTitle('Bookstore');
  router.dispose();
  const hints: string[] = [];
  const html = rendered.replace(/<link rel="preload"[^>]*\/>/g, (tag) => {
    hints.push(tag);
    return '';
  });
  const state = dehydrate(client);
  client.clear();
  return { status, routeModule: ROUTE_MODULES[pattern] ?? null, title, html, hints, state, book, partial };
}
