import { describe, expect, it } from 'vitest';
import { generatedBooks, KNOWN_BOOKS } from './catalog-fixtures';
import { buildIndex, searchBooks, searchTitleOrAuthor } from './search-index';

const index = buildIndex([...generatedBooks(500), ...KNOWN_BOOKS]);
const top = (q: string, n = 3) => searchBooks(index, q).slice(0, n).map((hit) => hit.id);

describe('search index', () => {
  it('forgives misspellings: harri poter finds Harry Potter first', () => {
    expect(top('harri poter')[0]).toBe('hp1');
    expect(top('hary potter')).toContain('hp1');
    expect(top('philosopers stone')).toContain('hp1');
  });

  it('matches prefixes while typing', () => {
    expect(top('harr')).toContain('hp1');
    expect(top('dune mess')[0]).toBe('dune');
  });

  it('ignores accents and case both ways', () => {
    expect(top('cafe eclair')[0]).toBe('cafe');
    expect(top('CAFÉ')).toContain('cafe');
    expect(top('zoe bronte')[0]).toBe('cafe');
  });

  it("finds an author's name", () => {
    expect(top('rowling')[0]).toBe('hp1');
    expect(top('frank herbert')[0]).toBe('dune');
  });

  it('ranks a title match above a description match', () => {
    const ids = searchBooks(index, 'potter').map((hit) => hit.id);
    expect(ids.indexOf('hp1')).toBeLessThan(ids.indexOf('clay'));
    expect(ids).toContain('clay');
  });

  it('falls back to any word when no book has them all', () => {
    expect(top('rowling xyzzyqq')[0]).toBe('hp1');
    expect(searchBooks(index, 'xyzzyqq')).toEqual([]);
  });

  it('admin search looks at title and author only', () => {
    expect(searchTitleOrAuthor(index, 'ellison').map((h) => h.id)).toEqual(['quiet']);
    expect(searchTitleOrAuthor(index, 'wizard')).toEqual([]);
  });
});
