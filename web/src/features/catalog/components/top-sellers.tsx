import type { Book, Category } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { booksQuery } from '../../../lib/books/get-books';
import { BookCarousel } from './book-carousel';

export const HOME_LIST_LIMIT = 16;
const TOP_SELLERS_SHOWN = 12;
const GENRES: { value: '' | Category; label: string }[] = [
  { value: '', label: 'Choose a genre' },
  { value: 'business', label: 'Business' },
  { value: 'fiction', label: 'Fiction' },
  { value: 'horror', label: 'Horror' },
  { value: 'adventure', label: 'Adventure' },
];

export function TopSellers({ onAdd }: { onAdd: (book: Book) => void }) {
  const [genre, setGenre] = useState<'' | Category>('');
  // The default view shares the home list request; a genre asks the server for that genre only.
  const query = useQuery(genre ? booksQuery({ category: genre, limit: TOP_SELLERS_SHOWN }) : booksQuery({ limit: HOME_LIST_LIMIT }));
  const books = query.data?.filter((b) => !genre || b.category === genre).slice(0, TOP_SELLERS_SHOWN);
  return (
    <section className="pb-10 pt-4 md:pt-10" aria-labelledby="top-sellers">
      {/* Heading and genre on one row: a phone's first screen reaches the first book. */}
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3 md:mb-6">
        <h2 id="top-sellers" className="text-2xl font-bold md:text-3xl">Top Sellers</h2>
        <label htmlFor="genre" className="sr-only">Filter by genre</label>
        <select
          id="genre"
          value={genre}
          onChange={(e) => setGenre(e.target.value as '' | Category)}
          className="rounded-md border border-gray-300 bg-gray-100 px-4 py-2 focus:outline-2 focus:outline-accent"
        >
          {GENRES.map((g) => <option key={g.value} value={g.value}>{g.label}</option>)}
        </select>
      </div>
      <BookCarousel label="Top Sellers" books={books} loading={query.isPending} error={query.isError} onAdd={onAdd} eager />
    </section>
  );
}

export function Recommended({ onAdd }: { onAdd: (book: Book) => void }) {
  const query = useQuery(booksQuery({ limit: HOME_LIST_LIMIT }));
  return (
    // Below the first screen: not laid out or painted until scrolled near (the page's start is lighter).
    <section className="py-10 [contain-intrinsic-block-size:auto_560px] [content-visibility:auto]" aria-labelledby="recommended">
      <h2 id="recommended" className="mb-4 text-2xl font-bold md:mb-6 md:text-3xl">Recommended for you</h2>
      <BookCarousel label="Recommended for you" books={query.data?.slice(8, 16)} loading={query.isPending} error={query.isError} onAdd={onAdd} />
    </section>
  );
}
