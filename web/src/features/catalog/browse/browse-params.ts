import { BROWSE_PAGE_SIZE, BROWSE_SORTS, isCursor, PRICE_EDGES, type BrowseSort } from '@bookstore/contract';

// The browse page's whole state lives in its URL (/books?category=fiction&sort=price-asc&page=3&cursor=...),
// so reload, Back and a shared link show the same books. Values the API would refuse (an unknown
// category, a price that is not one of the contract's edges, a malformed cursor) are dropped rather
// than sent, so a hand-edited link still shows a sensible page.

export const DEFAULT_SORT: BrowseSort = 'newest';

/** What selects the books (everything but the page). */
export interface BrowseFilters {
  category?: string;
  /** One of PRICE_EDGES; 0 means no lower bound and is left out. */
  minPrice?: number;
  /** One of PRICE_EDGES, greater than minPrice. */
  maxPrice?: number;
  inStock?: boolean;
  sort: BrowseSort;
}

export interface BrowseState extends BrowseFilters {
  /** 1-based, a label for display; the cursor says where the page starts. */
  page: number;
  cursor?: string;
}

function edge(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return (PRICE_EDGES as readonly number[]).includes(n) ? n : undefined;
}

export function parseBrowseParams(params: URLSearchParams, categories: readonly string[]): BrowseState {
  const category = params.get('category')?.trim().toLowerCase();
  const sort = params.get('sort');
  const page = Number(params.get('page'));
  const cursor = params.get('cursor') ?? '';
  const minPrice = edge(params.get('minPrice')) || undefined;
  let maxPrice = edge(params.get('maxPrice')) || undefined;
  if (maxPrice !== undefined && minPrice !== undefined && maxPrice <= minPrice) maxPrice = undefined;
  const hasCursor = isCursor(cursor);
  return {
    category: category && categories.includes(category) ? category : undefined,
    minPrice,
    maxPrice,
    inStock: params.get('inStock') === 'true' || params.get('inStock') === '1' ? true : undefined,
    sort: (BROWSE_SORTS as readonly string[]).includes(sort ?? '') ? (sort as BrowseSort) : DEFAULT_SORT,
    // A page number without its cursor cannot be honoured: that is page 1.
    page: hasCursor && Number.isInteger(page) && page > 1 ? page : 1,
    cursor: hasCursor && page > 1 ? cursor : undefined,
  };
}

/** The URL's query for a state: defaults left out, keys in a fixed order (one URL per page). */
export function toBrowseSearch(state: Partial<BrowseState>): string {
  const params = new URLSearchParams();
  if (state.category) params.set('category', state.category);
  if (state.minPrice) params.set('minPrice', String(state.minPrice));
  if (state.maxPrice) params.set('maxPrice', String(state.maxPrice));
  if (state.inStock) params.set('inStock', 'true');
  if (state.sort && state.sort !== DEFAULT_SORT) params.set('sort', state.sort);
  if (state.page && state.page > 1 && state.cursor) {
    params.set('page', String(state.page));
    params.set('cursor', state.cursor);
  }
  const search = params.toString();
  return search ? `?${search}` : '';
}

/** A filter or sort change starts again at page 1: a cursor belongs to the query that made it. */
export function withFilters(state: BrowseState, change: Partial<BrowseFilters>): string {
  const next = { ...state, ...change, page: 1, cursor: undefined };
  if (next.maxPrice !== undefined && next.minPrice !== undefined && next.maxPrice <= next.minPrice) next.maxPrice = undefined;
  return toBrowseSearch(next);
}

export function hasFilters(state: BrowseFilters): boolean {
  return Boolean(state.category || state.minPrice || state.maxPrice || state.inStock);
}

/** The API's query string for one page: every filter, the sort, the cursor and the page size. */
export function toApiParams(state: BrowseState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.category) params.set('category', state.category);
  if (state.minPrice) params.set('minPrice', String(state.minPrice));
  if (state.maxPrice) params.set('maxPrice', String(state.maxPrice));
  if (state.inStock) params.set('inStock', 'true');
  params.set('sort', state.sort);
  if (state.cursor) params.set('cursor', state.cursor);
  params.set('limit', String(BROWSE_PAGE_SIZE));
  return params;
}
