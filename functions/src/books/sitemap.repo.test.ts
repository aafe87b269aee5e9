import { describe, expect, it } from 'vitest';
import { idRange, MAX_URLS_PER_FILE, sitemapFileCount } from './sitemap.repo';

describe('sitemap files', () => {
  it('uses one file up to 5,000 books, then files of about 4,000', () => {
    expect(sitemapFileCount(0)).toBe(1);
    expect(sitemapFileCount(MAX_URLS_PER_FILE)).toBe(1);
    expect(sitemapFileCount(5001)).toBe(2);
    expect(sitemapFileCount(10_000)).toBe(3);
  });

  it('cuts the id space into contiguous ranges that cover every id once', () => {
    for (const files of [2, 3, 7, 25]) {
      const ranges = Array.from({ length: files }, (_, i) => idRange(i + 1, files));
      expect(ranges[0]!.from).toBeUndefined();
      expect(ranges.at(-1)!.to).toBeUndefined();
      for (let i = 1; i < files; i++) expect(ranges[i]!.from).toBe(ranges[i - 1]!.to);
      const ids = ['-', '0', '00aa', 'A1', 'Zz', '_x', 'a', 'zzzzzzzzzzzzzzzzzzzz', 'Kq3vX9'];
      for (const id of ids) {
        const holders = ranges.filter((r) => (!r.from || id >= r.from) && (!r.to || id < r.to));
        expect(holders, `${id} in ${files} files`).toHaveLength(1);
      }
    }
  });
});
