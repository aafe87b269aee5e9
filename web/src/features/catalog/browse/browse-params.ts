// The browse page's whole state lives in its URL (/books?category=fiction&sort=price-asc&page=3&cursor=...),
// so reload, Back and a shared link show the same books. Unknown or malformed values are dropped
// rather than sent, so a hand-edited link still shows a sensible page.

export const SORTS = [
  { value: 'newest', label: 'Newest' },
  { value: 'price-asc', label: 'Price: low to high' },
  { value: 'price-desc', label: 'Price: high to low' },
  { value: 'title', label: 'Title A-Z' },
] as const;
export type BrowseSort = (typeof SORTS)[number]['value'];
export const DEFAULT_SORT: BrowseSort = 'newest';
export const BROWSE_PAGE_SIZE = 24;

/** What selects the books (everything but the page). */
export interface BrowseFilters {
  category?: string;
  minPrice?: number;
  maxPrice?: number;
  inStock?: boolean;
  sort: BrowseSort;
}

export interface BrowseState extends BrowseFilters {
  /** 1-based, for display and for Previous; the cursor says where the page starts. */
  page: number;
  cursor?: string;
}

const PRICE = /^\d{1,5}(\.\d{1,2})?$/;
const CURSOR = /^[A-Za-z0-9_\-.~=:%+/]{1,512}$/;

function price(value: string | null): number | undefined {
  const trimmed = value?.trim() ?? '';
  return PRICE.test(trimmed) && Number(trimmed) <= 10_000 ? Number(trimmed) : undefined;
}

export function parseBrowseParams(params: URLSearchParams, categories: readonly string[]): BrowseState {
  const category = params.get('category')?.trim().toLowerCase();
  const sort = params.get('sort');
  const page = Number(params.get('page'));
  const cursor = params.get('cursor') ?? '';
  let minPrice = price(params.get('minPrice'));
  let maxPrice = price(params.get('maxPrice'));
  if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice) [minPrice, maxPrice] = [maxPrice, minPrice];
  const hasCursor = CURSOR.test(cursor);
  return {
    category: category && categories.includes(category) ? category : undefined,
    minPrice,
    maxPrice,
    inStock: params.get('inStock') === 'true' || params.get('inStock') === '1' ? true : undefined,
    sort: SORTS.some((s) => s.value === sort) ? (sort as BrowseSort) : DEFAULT_SORT,
    // A page number without its cursor cannot be honoured: that is page 1.
    page: hasCursor && Number.isInteger(page) && page > 1 ? page : 1,
    cursor: hasCursor && page > 1 ? cursor : undefined,
  };
}

/** The URL's query for a state: defaults left out, keys in a fixed order (one URL per page). */
export function toBrowseSearch(state: Partial<BrowseState>): string {
  const params = new URLSearchParams();
  if (state.category) params.set('category', state.category);
  if (state.minPrice !== undefined) params.set('minPrice', String(state.minPrice));
  if (state.maxPrice !== undefined) params.set('maxPrice', String(state.maxPrice));
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
  return toBrowseSearch({ ...state, ...change, page: 1, cursor: undefined });
}

export function hasFilters(state: BrowseFilters): boolean {
  return Boolean(state.category || state.minPrice !== undefined || state.maxPrice !== undefined || state.inStock);
}

/** The API's query string for one page: every filter, the sort, the cursor and the page size. */
export function toApiParams(state: BrowseState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.category) params.set('category', state.category);
  if (state.minPrice !== undefined) params.set('minPrice', String(state.minPrice));
  if (state.maxPrice !== undefined) params.set('maxPrice', String(state.maxPrice));
  if (state.inStock) params.set('inStock', 'true');
  params.set('sort', state.sort);
  if (state.cursor) params.set('cursor', state.cursor);
  params.set('limit', String(BROWSE_PAGE_SIZE));
  return params;
}
