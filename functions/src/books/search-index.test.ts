import { describe, expect, it } from 'vitest';
import { generatedBooks, KNOWN_BOOKS } from './catalog-fixtures';
import { gunzipSync, gzipSync } from 'node:zlib';
import { buildIndex, loadIndex, loadIndexAsync, SEARCH_SCHEMA, searchBooks, searchTitleOrAuthor, serializeIndex } from './search-index';

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
    const loaded = loadIndex(serializeIndex(index))!;
    expect(loaded.size).toBe(index.size);
    expect([...loaded.documentFrequency]).toEqual([...index.documentFrequency]);
    for (const q of ['harri poter', 'dune mess', 'CAFÉ', 'rowling', 'the', 'zzzz nothing']) {
      expect(searchBooks(loaded, q)).toEqual(searchBooks(index, q));
      expect(searchTitleOrAuthor(loaded, q)).toEqual(searchTitleOrAuthor(index, q));
    }
  });

  it('loads the same index without holding the event loop (loadIndexAsync, what search instances use)', async () => {
    const bytes = serializeIndex(index);
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 0);
    const loaded = (await loadIndexAsync(bytes))!;
    clearInterval(timer);
    expect(loaded.size).toBe(index.size);
    for (const q of ['harri poter', 'dune mess', 'CAFÉ', 'rowling', 'the']) expect(searchBooks(loaded, q)).toEqual(searchBooks(index, q));
    expect(ticks, 'timers ran while it loaded').toBeGreaterThan(0);
  });

  it('is never loaded into another shape: a snapshot of older fields (no schema, or another) reads as none, to be built again', () => {
    const text = gunzipSync(serializeIndex(index)).toString('utf8');
    const split = text.indexOf('\n');
    const head = JSON.parse(text.slice(0, split)) as Record<string, unknown>;
    expect(head.schema).toBe(SEARCH_SCHEMA);
    const { schema: _schema, ...older } = head; // as stored before snapshots carried their shape
    expect(loadIndex(gzipSync(`${JSON.stringify(older)}\n${text.slice(split + 1)}`))).toBeNull();
    expect(loadIndex(gzipSync(`${JSON.stringify({ ...head, schema: 'another-shape' })}\n${text.slice(split + 1)}`))).toBeNull();
  });

  it('searches the subtitle, between the title and the author (issue 37)', () => {
    const subtitled = buildIndex([
      ...KNOWN_BOOKS,
      { id: 'atlas', title: "The Lantern Keeper's Atlas", subtitle: 'Maps of Quiet Coasts', category: 'adventure', description: 'Lighthouses.', coverImage: 'book-1', titleKey: 'lantern', priceCents: 100, createdAt: '2020-01-01' },
      { id: 'coasts', title: 'Quiet Coasts', category: 'adventure', description: 'A novel.', coverImage: 'book-1', titleKey: 'quiet coasts', priceCents: 100, createdAt: '2020-01-01' },
    ]);
    expect(searchBooks(subtitled, 'maps of quiet').map((h) => h.id)[0]).toBe('atlas');
    expect(searchBooks(subtitled, 'quiet coasts').map((h) => h.id).slice(0, 2)).toEqual(['coasts', 'atlas']); // a title match ranks first
  });

  it('is compressed: well under the raw JSON', () => {
    const bytes = serializeIndex(index);
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b])); // gzip
    expect(bytes.length).toBeLessThan(JSON.stringify(index.index).length / 2);
  });
});
