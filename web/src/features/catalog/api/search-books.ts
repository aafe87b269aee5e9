import type { SearchResponse, SuggestResponse } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { booksQueryKey } from '../../../lib/books/get-books';

// The server ranks (typo-tolerant, title > author > category > description); the client only asks.

/** Trimmed, spaces collapsed, lower-cased: 'Harry  ' and 'harry' share one cache entry. */
export const normaliseQuery = (q: string) => q.trim().replace(/\s+/g, ' ').toLowerCase();

// GET /api/books/suggest?q=
export const suggestQuery = (q: string) => {
  const term = normaliseQuery(q);
  return queryOptions({
    queryKey: [...booksQueryKey, 'suggest', term],
    queryFn: ({ signal }) => apiFetch<SuggestResponse>(`/api/books/suggest?${new URLSearchParams({ q: term })}`, { signal }),
    enabled: term.length > 0,
    staleTime: 60_000,
  });
};

// GET /api/books/search?q=&page=
export const searchQuery = (q: string, page: number) => {
  const term = normaliseQuery(q);
  return queryOptions({
    queryKey: [...booksQueryKey, 'search', term, page],
    queryFn: ({ signal }) => apiFetch<SearchResponse>(`/api/books/search?${new URLSearchParams({ q: term, page: String(page) })}`, { signal }),
    enabled: term.length > 0,
  });
};
