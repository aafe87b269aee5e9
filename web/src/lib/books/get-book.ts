import type { Book } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { adminToken } from '../admin-session';
import { apiFetch } from '../api-client';
import { embeddedData } from '../embedded-data';
import { queryKeys } from '../query-keys';

export const bookQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.book(id),
    queryFn: ({ signal }) => apiFetch<Book>(`/api/books/${encodeURIComponent(id)}`, { token: adminToken(), signal }),
  });

// The server fills /books/:id's HTML with the book's JSON (for robots and link previews); the first
// render uses it instead of waiting for the API. The id is the contract's BOOK_DATA_ELEMENT_ID,
// written out so this chunk does not pull in zod.
const isBook = (value: unknown): value is Book => !!value && typeof value === 'object' && typeof (value as Book)._id === 'string';

/** The book embedded in the page as first served, when it is the one asked for. */
export function embeddedBook(id: string): Book | undefined {
  const book = embeddedData('book-data', isBook);
  return book?._id === id ? book : undefined;
}

/**
 * bookQuery plus the embedded book as initial data. Hosting's CDN may serve that HTML up to 5 minutes
 * old, so it counts as stale (updated at 0): the book shows at once and is refetched in the background.
 */
export const bookPageQuery = (id: string) =>
  queryOptions({ ...bookQuery(id), initialData: () => embeddedBook(id), initialDataUpdatedAt: 0 });
