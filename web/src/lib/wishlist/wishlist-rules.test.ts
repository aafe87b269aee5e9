import { MAX_WISHLIST_BOOKS } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import { applyOps, cleanIds, mergeLists, parseIds, parseOps } from './wishlist-rules';

describe('wishlist rules', () => {
  it('keeps distinct, well-formed ids from storage, at most the limit', () => {
    expect(parseIds('["a","b","a","../x",3,"__c"]')).toEqual(['a', 'b']);
    expect(parseIds('not json')).toEqual([]);
    expect(parseIds(null)).toEqual([]);
    expect(cleanIds(Array.from({ length: 600 }, (_, i) => `b${i}`))).toHaveLength(MAX_WISHLIST_BOOKS);
    expect(parseOps([{ kind: 'add', id: 'a', seq: 1 }, { kind: 'drop', id: 'b', seq: 2 }, { kind: 'remove', id: 'c' }])).toEqual([{ kind: 'add', id: 'a', seq: 1 }]);
  });

  it('shows pending changes on top of the server list, idempotently', () => {
    const ops = [
      { kind: 'add', id: 'c', seq: 1 },
      { kind: 'remove', id: 'a', seq: 2 },
      { kind: 'add', id: 'b', seq: 3 },
    ] as const;
    expect(applyOps(['a', 'b'], [...ops])).toEqual(['b', 'c']);
    // The server already has them: the same list.
    expect(applyOps(['b', 'c'], [...ops])).toEqual(['b', 'c']);
  });

  it('merges a guest list into the account: account first, no duplicates, capped', () => {
    expect(mergeLists(['a', 'b'], ['b', 'c'])).toEqual(['a', 'b', 'c']);
    const full = Array.from({ length: MAX_WISHLIST_BOOKS }, (_, i) => `b${i}`);
    expect(mergeLists(full, ['new'])).toEqual(full);
  });
});
