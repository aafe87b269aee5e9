import { ADMIN_BOOK_SORTS, isCursor, type AdminBookSort, type AdminBooksPage } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { booksQueryKey } from '../../../lib/books/get-books';

/** Manage Books' state, kept in its URL (?q=&sort=&dir=&page=&cursor=) so Back and reload keep the page. */
export interface AdminBooksState {
  q: string;
  sort: AdminBookSort;
  dir?: 'asc' | 'desc';
  page: number;
  cursor?: string;
}

export function parseAdminBooksParams(params: URLSearchParams): AdminBooksState {
  const sort = params.get('sort') ?? '';
  const dir = params.get('dir');
  const cursor = params.get('cursor') ?? '';
  const page = Number(params.get('page'));
  const hasCursor = isCursor(cursor) && Number.isInteger(page) && page > 1;
  return {
    q: (params.get('q') ?? '').trim().slice(0, 100),
    sort: (ADMIN_BOOK_SORTS as readonly string[]).includes(sort) ? (sort as AdminBookSort) : 'date',
    dir: dir === 'asc' || dir === 'desc' ? dir : undefined,
    page: hasCursor ? page : 1,
    cursor: hasCursor ? cursor : undefined,
  };
}

export function toAdminBooksSearch(state: Partial<AdminBooksState>): string {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  if (state.sort && state.sort !== 'date') params.set('sort', state.sort);
  if (state.dir) params.set('dir', state.dir);
  if (state.page && state.page > 1 && state.cursor) {
    params.set('page', String(state.page));
    params.set('cursor', state.cursor);
  }
  const search = params.toString();
  return search ? `?${search}` : '';
}

// GET /api/admin/books?q=&sort=&dir=&cursor=  (pages of 25; the key holds every parameter sent)
export const adminBooksQuery = (state: AdminBooksState) => {
  const params = new URLSearchParams({ sort: state.sort });
  if (state.q) params.set('q', state.q);
  if (state.dir) params.set('dir', state.dir);
  if (state.cursor) params.set('cursor', state.cursor);
  return queryOptions({
    queryKey: [...booksQueryKey, 'admin', Object.fromEntries(params)],
    queryFn: ({ signal }) => apiFetch<AdminBooksPage>(`/api/admin/books?${params}`, { token: adminToken(), signal }),
  });
};
