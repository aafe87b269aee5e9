import type { Book } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import { matchBooks } from './search';

const books = [
  { _id: '1', title: 'The Quiet Ledger', author: 'Mara Ellison', category: 'business' },
  { _id: '2', title: 'Salt and Circuitry', category: 'fiction' },
] as Book[];

describe('matchBooks', () => {
  it('matches title, author or category, case-insensitively, every word', () => {
    expect(matchBooks(books, 'ELLIS').map((b) => b._id)).toEqual(['1']);
    expect(matchBooks(books, 'fiction salt').map((b) => b._id)).toEqual(['2']);
    expect(matchBooks(books, '   ')).toEqual([]);
    expect(matchBooks(books, 'poetry')).toEqual([]);
  });
});
