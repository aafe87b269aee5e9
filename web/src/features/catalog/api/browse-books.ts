import type { BooksPage } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { embeddedData } from '../../../lib/embedded-data';
import { booksQueryKey } from '../../../lib/books/get-books';
import { toApiParams, toBrowseSearch, type BrowseState } from '../browse/browse-params';

// GET /api/books?category=&minPrice=&maxPrice=&inStock=&sort=&cursor=&limit=24
// The key holds every parameter sent, so a filter change never reuses another query's books.
export const browseQuery = (state: BrowseState) => {
  const params = toApiParams(state);
  return queryOptions({
    queryKey: [...booksQueryKey, 'browse', Object.fromEntries(params)],
    queryFn: ({ signal }) => apiFetch<BooksPage>(`/api/books?${params}`, { token: adminToken(), signal }),
  });
};

// GET /books (no query) comes with its first page of books in the HTML (the pages function,
// contract: catalog.ts): the first render shows them instead of waiting for the API. The id is the
// contract's BOOKS_PAGE_DATA_ELEMENT_ID, written out so this chunk does not pull in zod.
const isBooksPage = (value: unknown): value is BooksPage => !!value && typeof value === 'object' && Array.isArray((value as BooksPage).books);

/**
 * browseQuery plus, for the default browse's first page, the page embedded in the HTML as initial
 * data. Hosting's CDN may serve that HTML up to 5 minutes old: it counts as stale (updated at 0),
 * shows at once and is refetched in the background.
 */
export const browsePageQuery = (state: BrowseState) =>
  queryOptions({
    ...browseQuery(state),
    initialData: () => (toBrowseSearch(state) === '' ? embeddedData('books-page-data', isBooksPage) : undefined),
    initialDataUpdatedAt: 0,
  });
