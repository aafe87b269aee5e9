import type { Book } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { adminToken } from '../admin-session';
import { apiFetch } from '../api-client';
import { queryKeys } from '../query-keys';

export const bookQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.book(id),
    queryFn: ({ signal }) => apiFetch<Book>(`/api/books/${encodeURIComponent(id)}`, { token: adminToken(), signal }),
  });

