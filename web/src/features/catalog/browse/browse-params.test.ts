import { describe, expect, it } from 'vitest';
import { parseBrowseParams, toApiParams, toBrowseSearch, withFilters } from './browse-params';

const CATS = ['business', 'technology', 'fiction', 'horror', 'adventure'];
const parse = (search: string) => parseBrowseParams(new URLSearchParams(search), CATS);

describe('browse URL state', () => {
  it('round-trips every filter, the sort and the page through the URL', () => {
    const search = '?category=fiction&minPrice=10&maxPrice=20&inStock=true&sort=price-asc&page=3&cursor=abc_12-3';
    const state = parse(search);
    expect(state).toEqual({ category: 'fiction', minPrice: 10, maxPrice: 20, inStock: true, sort: 'price-asc', page: 3, cursor: 'abc_12-3' });
    expect(toBrowseSearch(state)).toBe(search);
  });

  it('drops what the API would refuse: unknown category or sort, prices off the edges, a page without its cursor', () => {
    expect(parse('?category=cooking&sort=random&minPrice=12&maxPrice=abc&page=4')).toEqual({
      category: undefined, minPrice: undefined, maxPrice: undefined, inStock: undefined, sort: 'newest', page: 1, cursor: undefined,
    });
    expect(parse('?page=2&cursor=not a cursor')).toMatchObject({ page: 1, cursor: undefined });
    expect(toBrowseSearch(parse('?sort=newest&page=1&minPrice=0'))).toBe('');
  });

  it('drops a maximum at or below the minimum', () => {
    expect(parse('?minPrice=30&maxPrice=10')).toMatchObject({ minPrice: 30, maxPrice: undefined });
  });

  it('a filter or sort change goes back to page 1', () => {
    const state = parse('?category=fiction&page=3&cursor=abc');
    expect(withFilters(state, { sort: 'title' })).toBe('?category=fiction&sort=title');
    expect(withFilters(state, { category: undefined })).toBe('');
    expect(withFilters(parse('?maxPrice=15'), { minPrice: 20 })).toBe('?minPrice=20');
  });

  it('asks the API for one page of 24 with every filter in the query', () => {
    const params = toApiParams(parse('?category=horror&maxPrice=15&inStock=true&page=2&cursor=xyz'));
    expect(Object.fromEntries(params)).toEqual({ category: 'horror', maxPrice: '15', inStock: 'true', sort: 'newest', cursor: 'xyz', limit: '24' });
  });
});
