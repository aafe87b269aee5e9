// The catalogue's terms, without zod: the genres, the browse list's sorts, page size and price
// edges, and a page cursor's shape. The storefront's pages import them; taken from book.ts,
// catalog.ts or paging.ts (their schemas built at load) they evaluated zod and the book schema
// first, a long task on a phone (issue 60). Those modules build their schemas from these.

/** The shop's genres. */
export const CATEGORIES = ['business', 'technology', 'fiction', 'horror', 'adventure'] as const;
export type Category = (typeof CATEGORIES)[number];

/** An opaque page cursor: url-safe base64, as returned in `nextCursor` (CursorSchema checks the same). */
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,2048}$/;

export const isCursor = (value: unknown): value is string => typeof value === 'string' && CURSOR_PATTERN.test(value);

// ---------------------------------------------------------------------------------------------
// Browse: GET /api/books?sort=&category=&minPrice=&maxPrice=&inStock=&cursor=&limit=
//
// Sending `sort` selects this API (the answer is a BooksPage object). Without `sort` the old
// `?limit=&category=&after=` call still answers a plain array, newest first (home page carousels).
//
// Paging is by opaque cursor, never by offset: page 10 costs the same as page 1. The web app
// keeps the cursor in its URL with a page number for display only:
//     /books?category=fiction&sort=price-asc&page=3&cursor=<nextCursor of page 2>
// Reload and a shared link are exact (a cursor holds the last book's sort value and id, not a
// position, so it reads no extra document); Back is the browser's history. `prevCursor` goes one
// page back from any page, also from a page opened by a shared link: use it for 'Previous' and
// put `page - 1` beside it (omit cursor and page for page 1; prevCursor is null on page 1).
// If books were added or removed meanwhile, page numbers are labels: the books are still in
// order, none repeated or skipped relative to the cursor.
// ---------------------------------------------------------------------------------------------

export const BROWSE_SORTS = ['newest', 'price-asc', 'price-desc', 'title'] as const;
export type BrowseSort = (typeof BROWSE_SORTS)[number];
export const BROWSE_SORT_LABELS: Record<BrowseSort, string> = {
  newest: 'Newest',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  title: 'Title: A-Z',
};

export const BROWSE_PAGE_SIZE = 24;
export const BROWSE_MAX_PAGE_SIZE = 48;

/**
 * The price filter's range edges, in dollars. `minPrice` and `maxPrice` must each be one of
 * these (a filter offers ranges between them: 'Under $10', '$10 to $15', ..., '$100 and over'),
 * and select `minPrice <= newPrice < maxPrice`; no maxPrice means no upper bound.
 * Why fixed edges: Firestore can only order by the field it range-filters, so 'newest' or
 * 'title' within a price range filters on a stored price band (`priceBand in [...]`) instead.
 */
export const PRICE_EDGES = [0, 10, 15, 20, 30, 50, 100] as const;

/** The band a price (in cents) falls in: i where PRICE_EDGES[i] <= price < PRICE_EDGES[i+1]. */
export function priceBandOf(cents: number): number {
  let band = 0;
  PRICE_EDGES.forEach((edge, i) => {
    if (cents >= edge * 100) band = i;
  });
  return band;
}

/** A label for the range [min, max) in dollars, e.g. 'Under $10', '$10 to $15', '$100 and over'. */
export function priceRangeLabel(min: number | undefined, max: number | undefined): string {
  if ((min ?? 0) === 0 && max !== undefined) return `Under $${max}`;
  if (max === undefined) return `$${min ?? 0} and over`;
  return `$${min} to $${max}`;
}
