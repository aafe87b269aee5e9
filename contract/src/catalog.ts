import { z } from 'zod';
import { CursorSchema } from './paging';
import { optionalText } from './text';
import { CategorySchema } from './book';
import type { Book } from './book-fields';
import { BROWSE_MAX_PAGE_SIZE, BROWSE_PAGE_SIZE, BROWSE_SORTS, PRICE_EDGES, type Category } from './catalog-terms';

// The catalogue's read API at scale: browse (GET /api/books?sort=...), search, suggestions and the
// admin's Manage Books. Every list is paged on the server; a bad parameter is a 400 whose
// `details` names the field (`{ message, details: { minPrice: ['...'] } }`).

const edgeSchema = (field: string) =>
  z.coerce
    .number({ error: `${field} must be a number` })
    .refine((value) => (PRICE_EDGES as readonly number[]).includes(value), {
      message: `${field} must be one of ${PRICE_EDGES.join(', ')}`,
    });

const flag = (field: string) =>
  z
    .enum(['true', 'false', '1', '0'], { error: `${field} must be true or false` })
    .transform((value) => value === 'true' || value === '1');


const pageSize = (max: number, fallback: number) =>
  z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(max, `limit must be at most ${max}`)
    .default(fallback);

export const BrowseQuerySchema = z
  .object({
    sort: z.enum(BROWSE_SORTS, { error: `sort must be one of ${BROWSE_SORTS.join(', ')}` }).default('newest'),
    category: CategorySchema.optional(),
    minPrice: edgeSchema('minPrice').optional(),
    maxPrice: edgeSchema('maxPrice').optional(),
    /** true: only books with stock > 0; false or absent: every book. */
    inStock: flag('inStock').optional(),
    cursor: CursorSchema.optional(),
    limit: pageSize(BROWSE_MAX_PAGE_SIZE, BROWSE_PAGE_SIZE),
  })
  .strip()
  .superRefine((query, ctx) => {
    if (query.minPrice !== undefined && query.maxPrice !== undefined && query.maxPrice <= query.minPrice) {
      ctx.addIssue({ code: 'custom', path: ['maxPrice'], message: 'maxPrice must be greater than minPrice' });
    }
    if (query.maxPrice === 0) ctx.addIssue({ code: 'custom', path: ['maxPrice'], message: 'maxPrice must be greater than 0' });
  });
export type BrowseQuery = z.infer<typeof BrowseQuerySchema>;
/** What a client may send (every field optional, values as strings or numbers). */
export type BrowseParams = z.input<typeof BrowseQuerySchema>;

/** A page of books. A null nextCursor means this is the last page; a null prevCursor, the first. */
export interface BooksPage {
  books: Book[];
  nextCursor: string | null;
  prevCursor: string | null;
}

// ---------------------------------------------------------------------------------------------
// Search: GET /api/books/search?q=&page=&limit=  ->  SearchResponse
// Ranked title > author > category > description; typos (fuzzy), prefixes, accents and case are
// forgiven. `page` is 1-based; a page past the end is 200 with no books. The books are read
// fresh (price, stock) for the page asked.
// Suggestions: GET /api/books/suggest?q=&limit=  ->  SuggestResponse (for the header box; cheap,
// no document read).
// ---------------------------------------------------------------------------------------------

export const SEARCH_PAGE_SIZE = 24;
export const MAX_SEARCH_PAGE = 100;
export const SUGGEST_LIMIT = 8;

const searchText = z
  .string({ error: (issue) => (issue.input === undefined ? 'q is required' : 'q must be text') })
  .trim()
  .min(1, 'q is required')
  .max(100, 'q must be at most 100 characters');

export const SearchQuerySchema = z
  .object({
    q: searchText,
    page: z.coerce
      .number({ error: 'page must be a number' })
      .int('page must be a whole number')
      .min(1, 'page must be at least 1')
      .max(MAX_SEARCH_PAGE, `page must be at most ${MAX_SEARCH_PAGE}`)
      .default(1),
    limit: pageSize(BROWSE_MAX_PAGE_SIZE, SEARCH_PAGE_SIZE),
  })
  .strip();
export type SearchQuery = z.infer<typeof SearchQuerySchema>;
export type SearchParams = z.input<typeof SearchQuerySchema>;

export interface SearchResponse {
  books: Book[];
  /** How many books match in all. */
  total: number;
  page: number;
  /** ceil(total / limit), at least 1. */
  pageCount: number;
}

export const SuggestQuerySchema = z
  .object({ q: searchText, limit: pageSize(SUGGEST_LIMIT, SUGGEST_LIMIT) })
  .strip();
export type SuggestQuery = z.infer<typeof SuggestQuerySchema>;

export interface Suggestion {
  _id: string;
  title: string;
  author?: string;
  category: Category;
  coverImage: string;
}
export interface SuggestResponse {
  suggestions: Suggestion[];
}

// ---------------------------------------------------------------------------------------------
// Admin's Manage Books: GET /api/admin/books?q=&sort=&dir=&cursor=&limit=  (admin token)
// Pages of 25. `q` matches title or author (prefixes and small typos forgiven); the matches are
// then sorted by `sort`. Default order: date newest first; title and price ascending.
// ---------------------------------------------------------------------------------------------

export const ADMIN_BOOKS_PAGE_SIZE = 25;
export const ADMIN_BOOK_SORTS = ['title', 'price', 'date'] as const;
export type AdminBookSort = (typeof ADMIN_BOOK_SORTS)[number];

export const AdminBooksQuerySchema = z
  .object({
    q: optionalText('q', 100, { search: true }),
    sort: z.enum(ADMIN_BOOK_SORTS, { error: `sort must be one of ${ADMIN_BOOK_SORTS.join(', ')}` }).default('date'),
    dir: z.enum(['asc', 'desc'], { error: 'dir must be asc or desc' }).optional(),
    cursor: CursorSchema.optional(),
    limit: pageSize(ADMIN_BOOKS_PAGE_SIZE, ADMIN_BOOKS_PAGE_SIZE),
  })
  .strip()
  .transform((query) => ({ ...query, dir: query.dir ?? (query.sort === 'date' ? 'desc' : 'asc') }));
export type AdminBooksQuery = z.infer<typeof AdminBooksQuerySchema>;
export type AdminBooksParams = z.input<typeof AdminBooksQuerySchema>;

export interface AdminBooksPage extends BooksPage {
  /** Number of matches; only when `q` is given (counting the whole catalogue is not free). */
  total?: number;
}

// ---------------------------------------------------------------------------------------------
// Book pages and /books are served by the `pages` function as the web app's own server render
// (web/src/server/, docs/decisions/020-one-renderer.md): the data travels as TanStack Query's
// dehydrated state, under the same query keys the pages read; nothing here names an element.
// ---------------------------------------------------------------------------------------------
