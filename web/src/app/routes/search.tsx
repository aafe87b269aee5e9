import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { addBookToCart } from '../../features/cart/cart-actions';
import { booksQuery } from '../../features/catalog/api/get-books';
import { BookCard } from '../../features/catalog/components/book-card';
import { matchBooks } from '../../features/catalog/search';
import { usePageTitle } from '../use-page-title';

export function Component() {
  const [params] = useSearchParams();
  const q = params.get('q') ?? '';
  usePageTitle(`Search: ${q}`);
  const { data, isPending, isError } = useQuery(booksQuery());
  const results = data ? matchBooks(data, q) : [];
  return (
    <section className="py-10">
      <h1 className="mb-8 text-3xl font-semibold">Results for &ldquo;{q}&rdquo;</h1>
      {isPending ? (
        <p role="status">Loading...</p>
      ) : isError ? (
        <p role="alert" className="text-red-700">Could not search right now. Please try again.</p>
      ) : results.length === 0 ? (
        <p>No books match</p>
      ) : (
        <>
          <p className="mb-6 text-gray-700">{results.length} {results.length === 1 ? 'book' : 'books'} found</p>
          <ul className="grid gap-8 md:grid-cols-2 carousel:grid-cols-3">
            {results.map((book) => <li key={book._id}><BookCard book={book} onAdd={addBookToCart} /></li>)}
          </ul>
        </>
      )}
    </section>
  );
}
