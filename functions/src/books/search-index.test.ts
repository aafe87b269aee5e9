import { describe, expect, it } from 'vitest';
import { generatedBooks, KNOWN_BOOKS } from './catalog-fixtures';
import { buildIndex, loadIndex, searchBooks, searchTitleOrAuthor, serializeIndex } from './search-index';

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

describe('stored snapshot', () => {
  it('answers every query exactly as the index it was made from', () => {
    const loaded = loadIndex(serializeIndex(index));
    expect(loaded.size).toBe(index.size);
    expect([...loaded.documentFrequency]).toEqual([...index.documentFrequency]);
    for (const q of ['harri poter', 'dune mess', 'CAFÉ', 'rowling', 'the', 'zzzz nothing']) {
      expect(searchBooks(loaded, q)).toEqual(searchBooks(index, q));
      expect(searchTitleOrAuthor(loaded, q)).toEqual(searchTitleOrAuthor(index, q));
    }
  });

  it('is compressed: well under the raw JSON', () => {
    const bytes = serializeIndex(index);
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b])); // gzip
    expect(bytes.length).toBeLessThan(JSON.stringify(index.index).length / 2);
  });
});
