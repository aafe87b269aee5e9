import type { Book } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';

export const bookQuery = (id: string) =>
  queryOptions({
    queryKey: ['books', 'detail', id],
    queryFn: () => apiFetch<Book>(`/api/books/${encodeURIComponent(id)}`, { token: adminToken() }),
  });
