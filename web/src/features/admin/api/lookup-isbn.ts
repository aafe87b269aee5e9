import type { IsbnLookup } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';

// GET /api/admin/isbn/:isbn: what Open Library knows of an edition (issue 26). Kept for the
// session: an ISBN's details do not change while a form is open.
export const isbnLookupQuery = (isbn13: string) =>
  queryOptions({
    queryKey: ['isbn-lookup', isbn13],
    queryFn: ({ signal }) => apiFetch<IsbnLookup>(`/api/admin/isbn/${encodeURIComponent(isbn13)}`, { token: adminToken(), signal }),
    staleTime: Infinity,
    retry: false,
  });
