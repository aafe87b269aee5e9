import { describe, expect, it } from 'vitest';
import { AdminBooksQuerySchema, BrowseQuerySchema, SearchQuerySchema, priceBandOf, priceRangeLabel } from './index';

describe('BrowseQuerySchema', () => {
  it('defaults to newest, 24 a page, and reads string flags', () => {
    expect(BrowseQuerySchema.parse({})).toEqual({ sort: 'newest', limit: 24 });
    expect(BrowseQuerySchema.parse({ sort: 'title', inStock: 'true', minPrice: '10', maxPrice: '20', category: 'Fiction' })).toEqual({
      sort: 'title', inStock: true, minPrice: 10, maxPrice: 20, category: 'fiction', limit: 24,
    });
  });

  it('names the bad field', () => {
    const fieldOf = (q: Record<string, string>) => {
      const r = BrowseQuerySchema.safeParse(q);
      return r.success ? null : r.error.issues[0]!.path.join('.');
    };
    expect(fieldOf({ sort: 'cheapest' })).toBe('sort');
    expect(fieldOf({ minPrice: '12' })).toBe('minPrice');
    expect(fieldOf({ minPrice: '20', maxPrice: '10' })).toBe('maxPrice');
    expect(fieldOf({ limit: '49' })).toBe('limit');
    expect(fieldOf({ inStock: 'yes' })).toBe('inStock');
    expect(fieldOf({ cursor: 'a b' })).toBe('cursor');
  });
});

describe('price bands', () => {
  it('puts a price in the band of the highest edge at or below it', () => {
    expect(priceBandOf(0)).toBe(0);
    expect(priceBandOf(999)).toBe(0);
    expect(priceBandOf(1000)).toBe(1);
    expect(priceBandOf(1999)).toBe(2);
    expect(priceBandOf(2000)).toBe(3);
    expect(priceBandOf(1_000_000)).toBe(6);
    expect(priceRangeLabel(0, 10)).toBe('Under $10');
    expect(priceRangeLabel(10, 15)).toBe('$10 to $15');
    expect(priceRangeLabel(100, undefined)).toBe('$100 and over');
  });
});

describe('search and admin queries', () => {
  it('requires q for search and defaults the admin order by sort', () => {
    expect(SearchQuerySchema.safeParse({ q: '  ' }).success).toBe(false);
    expect(SearchQuerySchema.safeParse({}).error?.issues[0]?.message).toBe('q is required');
    expect(SearchQuerySchema.parse({ q: 'harri' })).toEqual({ q: 'harri', page: 1, limit: 24 });
    expect(AdminBooksQuerySchema.parse({})).toEqual({ sort: 'date', dir: 'desc', limit: 25 });
    expect(AdminBooksQuerySchema.parse({ sort: 'title', q: '' })).toEqual({ sort: 'title', dir: 'asc', limit: 25 });
  });
});
