import { describe, expect, it } from 'vitest';
import { splitImportFile } from './split-file';

const HEADER = 'title,author,description,category,oldPrice,newPrice,stock,isbn,coverImage';

describe('splitImportFile', () => {
  it('splits a CSV into numbered chunks of JSON lines, quoted newlines kept inside their row', () => {
    const rows = Array.from({ length: 5 }, (_, i) => `Book ${i + 1},,"Line one\nline two, ${i + 1}",fiction,2,1,1,,book-1`);
    const chunks = splitImportFile('catalogue.csv', `${HEADER}\n${rows.join('\n')}\n`, 2);
    expect(chunks.map((c) => [c.firstRow, c.rows])).toEqual([[1, 2], [3, 2], [5, 1]]);
    const first = chunks[0]!.body.split('\n').map((line) => JSON.parse(line));
    expect(first[1]).toMatchObject({ title: 'Book 2', description: 'Line one\nline two, 2', category: 'fiction' });
  });

  it('keeps JSON lines as they are, skipping blank lines as the server does', () => {
    const chunks = splitImportFile('books.ndjson', '{"title":"A"}\n\nnot json\n{"title":"C"}\n', 2);
    expect(chunks).toEqual([
      { firstRow: 1, rows: 2, body: '{"title":"A"}\nnot json' },
      { firstRow: 3, rows: 1, body: '{"title":"C"}' },
    ]);
  });

  it('refuses a CSV with a broken header before sending anything', () => {
    expect(() => splitImportFile('x.csv', 'name,price\nA,1\n')).toThrow(/Unknown columns "name", "price"/);
  });

  it('ends a chunk at the most distinct cover URLs a request may fetch (a repeated URL counts once)', () => {
    const url = (n: number) => `https://covers.example.com/${n}.jpg`;
    const lines = [1, 2, 2, 3, 4, 5].map((n, i) => JSON.stringify({ title: `B${i}`, coverUrl: url(n) })).join('\n');
    const chunks = splitImportFile('books.ndjson', lines, 500, 2);
    expect(chunks.map((c) => [c.firstRow, c.rows])).toEqual([[1, 3], [4, 2], [6, 1]]);
  });
});
