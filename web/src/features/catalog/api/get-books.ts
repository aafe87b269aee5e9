import type { Book, BooksQuery } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';

// The books service sends the admin token when one is stored (spec section 7), which also makes
// the API answer privately, so an admin always sees their own edits.
export function getBooks(query: BooksQuery = {}): Promise<Book[]> {
  const params = new URLSearchParams();
  if (query.limit) params.set('limit', String(query.limit));
  if (query.category) params.set('category', query.category);
  if (query.after) params.set('after', query.after);
  const search = params.toString();
  return apiFetch<Book[]>(`/api/books${search ? `?${search}` : ''}`, { token: adminToken() });
}

export const booksQueryKey = ['books'] as const;

export const booksQuery = (query: BooksQuery = {}) =>
  queryOptions({ queryKey: [...booksQueryKey, query], queryFn: () => getBooks(query) });
