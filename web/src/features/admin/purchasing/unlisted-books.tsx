import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { buttonClass, textLink } from '../../../components/ui/button';
import { useMe } from '../api/staff-api';
import { unlistedBooksQuery } from './purchasing-api';

// Books received that the catalogue does not list (issue 56, decision 056): their copies are
// counted but no shopper sees them. Adding the book with the same ISBN lists it, copies included.

export function UnlistedBooks() {
  const me = useMe();
  const list = useInfiniteQuery(unlistedBooksQuery());
  const rows = list.data?.pages.flatMap((p) => p.unlistedBooks) ?? [];
  if (list.isPending || rows.length === 0) return null;
  return (
    <section aria-labelledby="unlisted-heading" className="mt-6 rounded-lg bg-white p-4 shadow sm:p-6">
      <h2 id="unlisted-heading" className="text-lg font-semibold">Unlisted books</h2>
      <p className="mt-1 text-sm text-gray-600">
        Received, but not in the catalogue: shoppers cannot see or buy them. Add the book with the same ISBN and its copies move to it.
      </p>
      <ul aria-label="Unlisted books" className="mt-3 divide-y divide-gray-100">
        {rows.map((book) => (
          <li key={book.isbn} className="flex flex-wrap items-baseline gap-x-3 py-2">
            <span className="min-w-0 grow font-medium">{book.title}</span>
            <span className="font-mono text-sm text-gray-700">{book.isbn}</span>
            <span className="tabular-nums text-sm text-gray-700">{book.stock === 1 ? '1 copy' : `${book.stock} copies`}</span>
            {/* The book form starts with the ISBN and offers its lookup (add-book.tsx). */}
            {me.can('books.create') && <Link to={`/dashboard/add-new-book?isbn=${book.isbn}`} className={textLink}>Add<span className="sr-only"> {book.title}</span> to the catalogue</Link>}
          </li>
        ))}
      </ul>
      {list.hasNextPage && (
        <button type="button" className={`mt-3 ${buttonClass('secondary', 'md')}`} disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {list.isFetchingNextPage ? 'Loading...' : 'More unlisted books'}
        </button>
      )}
    </section>
  );
}
