import type { Book } from '@bookstore/contract';
import { useDeferredValue } from 'react';
import { Carousel } from '../../../components/ui/carousel';
import { BookCard, BookCardSkeleton } from './book-card';

export function BookCarousel({ label, books: latest, loading, error, onAdd, eager }: {
  label: string;
  books: Book[] | undefined;
  loading: boolean;
  error: boolean;
  onAdd: (book: Book) => void;
  eager?: boolean;
}) {
  // The cards render in a transition, sliced and interruptible, not in the task that delivered the
  // books: the skeletons stay up a few frames longer and the page stays responsive meanwhile.
  const books = useDeferredValue(latest);
  if (error) return <p className="py-10 text-danger">Could not load books. Please try again later.</p>;
  if (loading || !books) {
    // Three skeleton slides in the carousel's own layout: as many show as books will.
    return (
      <div role="status" aria-label="Loading books">
        <Carousel label={label} items={[1, 2, 3].map((n) => ({ key: `skeleton-${n}`, node: <BookCardSkeleton /> }))} inert />
      </div>
    );
  }
  if (books.length === 0) return <p className="py-10 text-gray-700">No books in this genre yet.</p>;
  return (
    <Carousel
      label={label}
      items={books.map((book, i) => ({ key: book._id, node: <BookCard book={book} onAdd={onAdd} eager={eager && i < 3} /> }))}
    />
  );
}
