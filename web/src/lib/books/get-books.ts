import { MAX_BOOKS_LIST, type Book, type BooksQuery } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { adminToken } from '../admin-session';
import { apiFetch } from '../api-client';
import { queryKeys } from '../query-keys';

/** The most one list call asks for (the API's own cap). */
export const MAX_LIST_LIMIT = MAX_BOOKS_LIST;

// The books service sends the admin token when one is stored (spec section 7), which also makes
// the API answer privately, so an admin always sees their own edits.
export function getBooks(query: BooksQuery = {}, signal?: AbortSignal): Promise<Book[]> {
  const params = new URLSearchParams();
  params.set('limit', String(Math.min(query.limit ?? MAX_LIST_LIMIT, MAX_LIST_LIMIT)));
  if (query.category) params.set('category', query.category);
  if (query.after) params.set('after', query.after);
  return apiFetch<Book[]>(`/api/books?${params}`, { token: adminToken(), signal });
}

export const booksQueryKey = queryKeys.books;

export const booksQuery = (query: BooksQuery = {}) =>
  queryOptions({ queryKey: [...booksQueryKey, query], queryFn: ({ signal }) => getBooks(query, signal) });
