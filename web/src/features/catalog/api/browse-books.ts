import type { BooksPage } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { booksQueryKey } from '../../../lib/books/get-books';
import { toApiParams, type BrowseState } from '../browse/browse-params';

// GET /api/books?category=&minPrice=&maxPrice=&inStock=&sort=&cursor=&limit=24
// The key holds every parameter sent, so a filter change never reuses another query's books.
export const browseQuery = (state: BrowseState) => {
  const params = toApiParams(state);
  return queryOptions({
    queryKey: [...booksQueryKey, 'browse', Object.fromEntries(params)],
    queryFn: ({ signal }) => apiFetch<BooksPage>(`/api/books?${params}`, { token: adminToken(), signal }),
  });
};

