import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminBooksQuery, parseAdminBooksParams } from './features/admin/api/admin-books';
import { browseQuery } from './features/catalog/api/browse-books';
import { booksQuery, getBooks } from './lib/books/get-books';
import { searchQuery, suggestQuery } from './features/catalog/api/search-books';
import { parseBrowseParams } from './features/catalog/browse/browse-params';

// Issue 12: no client request may download the whole catalogue (`GET /api/books` without a limit).
// Two checks: every module that builds a books URL is one of the API modules below, and each of
// those, called the way the app calls it, sends a bounded request.

const SRC = new URL('./', import.meta.url).pathname;
const API_MODULES = [
  'lib/books/get-books.ts',
  'lib/books/get-book.ts',
  'features/catalog/api/browse-books.ts',
  'features/catalog/api/search-books.ts',
  // Writes: one book each, or a cover; none reads a list.
  'features/admin/api/create-book.ts',
  'features/admin/api/update-book.ts',
  'features/admin/api/delete-book.ts',
  'features/admin/api/upload-cover.ts',
  'features/admin/api/admin-books.ts',
  'features/admin/import/import-books.ts', // POST /api/books/import: sends books, downloads none
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

const requested: string[] = [];
function stubFetch() {
  requested.length = 0;
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    requested.push(url);
    return new Response(url.includes('?sort=') || url.includes('/suggest') || url.includes('/search') || url.includes('/admin/') ? '{"books":[],"suggestions":[]}' : '[]', { status: 200 });
  }));
}
afterEach(() => vi.unstubAllGlobals());

const run = (options: { queryFn?: unknown }) =>
  (options.queryFn as (ctx: { signal: AbortSignal }) => Promise<unknown>)({ signal: new AbortController().signal });

/** The books list without a limit (search, suggestions and the admin list are paged by the server). */
function unbounded(url: string): boolean {
  const parsed = new URL(url, 'http://x');
  return parsed.pathname === '/api/books' && !parsed.searchParams.has('limit');
}

describe('no full-catalogue download from the client', () => {
  it('only the API modules build /api/books URLs', () => {
    const offenders = sources(SRC)
      .filter((file) => /['"`]\/api\/books\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file))
      .filter((file) => !API_MODULES.includes(file));
    expect(offenders).toEqual([]);
  });

  it('every books list request the API modules make carries a limit', async () => {
    stubFetch();
    await getBooks();
    await getBooks({ category: 'fiction' });
    await run(booksQuery());
    await run(booksQuery({ limit: 16 }));
    await run(browseQuery(parseBrowseParams(new URLSearchParams(''), ['fiction'])));
    await run(browseQuery(parseBrowseParams(new URLSearchParams('?category=fiction&sort=title&page=3&cursor=abc'), ['fiction'])));
    await run(searchQuery('harri poter', 2));
    await run(suggestQuery('harri'));
    await run(adminBooksQuery(parseAdminBooksParams(new URLSearchParams('?q=ann&sort=price'))));
    expect(requested.length).toBe(9);
    expect(requested.filter(unbounded)).toEqual([]);
    // And the check itself bites: a bare list call is flagged.
    expect(unbounded('/api/books')).toBe(true);
    expect(unbounded('/api/books?category=fiction')).toBe(true);
  });
});
