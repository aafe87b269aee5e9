import { describe, expect, it } from 'vitest';
import { planFromIds, URLS_PER_FILE } from './sitemap.repo';

describe('sitemap plan', () => {
  it('starts a file at every perFile-th id in id order, so each file holds perFile books', () => {
    const ids = ['e', 'a', 'd', 'b', 'g', 'c', 'f'];
    expect(planFromIds(ids, 3)).toEqual({ perFile: 3, starts: ['', 'd', 'g'], books: 7 });
    expect(planFromIds(ids.slice(0, 6), 3).starts).toEqual(['', 'd']);
    expect(planFromIds([], 3)).toEqual({ perFile: 3, starts: [''], books: 0 });
  });

  it('orders ids by their UTF-8 bytes, as Firestore orders document ids', () => {
    // UTF-16 order would put the astral character before U+FF5E; bytes put it after.
    expect(planFromIds(['\u{1F600}', '\uFF5E', 'z'], 1).starts).toEqual(['', '\uFF5E', '\u{1F600}']);
  });

  it('plans 100,000 books as 3 files of at most 40,000 (the protocol allows 50,000)', () => {
    const ids = Array.from({ length: 100_000 }, (_, i) => `isbn-978${String(i).padStart(10, '0')}`);
    const plan = planFromIds(ids);
    expect(plan.starts).toHaveLength(Math.ceil(100_000 / URLS_PER_FILE));
    expect(plan.starts[1]).toBe(ids[URLS_PER_FILE]);
  });
});
