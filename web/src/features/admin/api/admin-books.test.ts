import { describe, expect, it } from 'vitest';
import { adminBooksQuery, parseAdminBooksParams, toAdminBooksSearch } from './admin-books';

const parse = (search: string) => parseAdminBooksParams(new URLSearchParams(search));

describe('Manage Books URL state', () => {
  it('round-trips search, sort, direction and page', () => {
    const search = '?q=ellison&sort=price&dir=desc&page=2&cursor=abc_1';
    expect(parse(search)).toEqual({ q: 'ellison', sort: 'price', dir: 'desc', page: 2, cursor: 'abc_1' });
    expect(toAdminBooksSearch(parse(search))).toBe(search);
  });

  it('falls back to newest first, page 1, for values the API would refuse', () => {
    expect(parse('?sort=rating&dir=up&page=3&cursor=bad cursor')).toEqual({ q: '', sort: 'date', dir: undefined, page: 1, cursor: undefined });
  });

  it('keys the query by every parameter it sends', () => {
    const a = adminBooksQuery(parse('?q=ann&sort=title'));
    const b = adminBooksQuery(parse('?q=ann&sort=title&page=2&cursor=xyz'));
    expect(a.queryKey).not.toEqual(b.queryKey);
    expect(a.queryKey).toEqual(['books', 'admin', { sort: 'title', q: 'ann' }]);
  });
});
