import type { Book } from '@bookstore/contract';

/** Books whose title, author or category contains every word of the query, case-insensitively. */
export function matchBooks(books: Book[], query: string): Book[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  return books.filter((book) => {
    const haystack = `${book.title} ${book.author ?? ''} ${book.category}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}
