import type { Book } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';

export const bookQuery = (id: string) =>
  queryOptions({
    queryKey: ['books', 'detail', id],
    queryFn: ({ signal }) => apiFetch<Book>(`/api/books/${encodeURIComponent(id)}`, { token: adminToken(), signal }),
  });

// The server fills /books/:id's HTML with the book's JSON (for robots and link previews); the first
// render uses it instead of asking the API again. Read once: it describes the page as first loaded.
const loadedAt = Date.now();
let embedded: Book | null | undefined;

/** The book embedded in the page as first served, when it is the one asked for. */
export function embeddedBook(id: string): Book | undefined {
  if (embedded === undefined) {
    embedded = null;
    const text = typeof document === 'undefined' ? null : document.getElementById('book-data')?.textContent;
    try {
      const parsed: unknown = text ? JSON.parse(text) : null;
      if (parsed && typeof parsed === 'object' && typeof (parsed as Book)._id === 'string') embedded = parsed as Book;
    } catch {
      // A broken script tag only costs the round trip it was meant to save.
    }
  }
  return embedded?._id === id ? embedded : undefined;
}

/** bookQuery plus the embedded book as initial data (fresh as of the page load, then refetched as usual). */
export const bookPageQuery = (id: string) =>
  queryOptions({ ...bookQuery(id), initialData: () => embeddedBook(id), initialDataUpdatedAt: loadedAt });
