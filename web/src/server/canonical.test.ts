import { describe, expect, it } from 'vitest';
import { canonicalPath } from './canonical';

describe('canonicalPath', () => {
  it('keeps a URL the app builds as it is', () => {
    expect(canonicalPath('/books', '')).toBe('/books');
    expect(canonicalPath('/books', '?category=fiction&inStock=true&sort=price-asc')).toBe('/books?category=fiction&inStock=true&sort=price-asc');
  });

  it('drops what no page reads, and puts the rest in the app’s form', () => {
    expect(canonicalPath('/books', '?utm_source=x')).toBe('/books');
    expect(canonicalPath('/books', '?sort=price-asc&category=Fiction&_=1')).toBe('/books?category=fiction&sort=price-asc');
    expect(canonicalPath('/books', '?category=poetry')).toBe('/books');
    expect(canonicalPath('/books/abc', '?v=2')).toBe('/books/abc');
    expect(canonicalPath('/sitemap.xml', '?x=1')).toBe('/sitemap.xml');
  });
});
