import { buttonClass, textLink } from '../../components/ui/button';
import { pageClass, pageTitle } from '../../components/ui/page';
import type { Book } from '@bookstore/contract';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { CartIcon, HeartIcon } from '../../components/ui/icons';
import { StockBadge } from '../../components/ui/stock-badge';
import { addBookToCart } from '../../features/cart/cart-actions';
import { ApiError } from '../../lib/api-client';
import { useAuth } from '../../lib/auth/auth-context';
import { bookQuery } from '../../lib/books/get-book';
import { coverUrl } from '../../lib/covers';
import { money } from '../../lib/format';
import { stockLevel } from '../../lib/stock';
import { useHydrated } from '../../lib/use-hydrated';
import { usePageTitle } from '../../lib/use-page-title';
import { wishlist, useWishlistIds } from '../../lib/wishlist/wishlist-store';

// /wishlist (issue 28): the books this browser's wishlist holds (signed in: the account's, followed
// live by lib/wishlist/wishlist-account.tsx), newest first, each with its price and stock fetched
// fresh (the worker keeps the answers: it works offline for books seen before), a page at a time.
const PAGE = 24;

export function Component() {
  usePageTitle('Wishlist');
  const hydrated = useHydrated();
  const { status } = useAuth();
  const ids = useWishlistIds();
  const [shown, setShown] = useState(PAGE);
  const newestFirst = [...ids].reverse();
  const visible = newestFirst.slice(0, shown);
  const books = useQueries({ queries: visible.map((id) => ({ ...bookQuery(id), retry: false })) });
  return (
    <section className={`${pageClass} max-w-3xl`}>
      <h1 className={pageTitle}>Your Wishlist</h1>
      {/* This browser's list (local storage, or the account's copy): drawn after hydration. */}
      <div data-client-state="">
        {!hydrated ? (
          <div className="h-22" aria-hidden="true" />
        ) : (
          <>
            <p className="mt-1 text-sm text-gray-600" aria-live="polite">
              {ids.length === 1 ? '1 book' : `${ids.length} books`}
              {status !== 'signedIn' && (
                <>
                  {' '}saved on this device. <Link to="/login" className={textLink}>Sign in</Link> to keep them on all your devices.
                </>
              )}
            </p>
            {ids.length === 0 ? (
              <div className="py-10 text-center text-gray-700">
                <HeartIcon className="mx-auto mb-3 size-8 text-gray-400" />
                <p>Your wishlist is empty. Press the heart on a book to keep it here.</p>
                <Link to="/books" className={buttonClass('secondary', 'md', 'mt-4')}>Browse All Books</Link>
              </div>
            ) : (
              <ul className="mt-4 divide-y divide-gray-200">
                {visible.map((id, i) => (
                  <WishlistLine key={id} id={id} book={books[i]?.data} error={books[i]?.error ?? null} waiting={books[i]?.fetchStatus === 'paused'} />
                ))}
              </ul>
            )}
            {newestFirst.length > shown && (
              <button type="button" onClick={() => setShown((n) => n + PAGE)} className={buttonClass('secondary', 'md', 'mt-4 w-full')}>
                Show More ({newestFirst.length - shown} more)
              </button>
            )}
          </>
        )}
      </div>
    </section>
  );
}

function WishlistLine({ id, book, error, waiting }: { id: string; book: Book | undefined; error: Error | null; waiting: boolean }) {
  const remove = (
    <button type="button" onClick={() => wishlist.toggle(id)} className={`text-sm ${textLink}`}>
      Remove<span className="sr-only"> {book?.title ?? 'this book'} from the wishlist</span>
    </button>
  );
  if (!book) {
    const gone = error instanceof ApiError && error.status === 404;
    return (
      <li className="flex items-center justify-between gap-4 py-4" data-testid="wishlist-line">
        <p className="text-sm text-gray-700">
          {gone ? 'This book is no longer available.' : waiting ? 'This book has not been opened on this device yet; it will show once you are back online.' : error ? 'This book could not be loaded.' : 'Loading...'}
        </p>
        {remove}
      </li>
    );
  }
  const out = stockLevel(book.stock).kind === 'out';
  return (
    <li className="flex gap-4 py-4" data-testid="wishlist-line">
      <Link to={`/books/${book._id}`} className="shrink-0">
        <img src={coverUrl(book.coverImage)} alt={`Cover of ${book.title}`} width={64} height={96} className="h-24 w-16 rounded-md border border-gray-200 object-cover" />
      </Link>
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="flex flex-wrap justify-between gap-x-4 gap-y-1">
          <h2 className="font-medium">
            <Link to={`/books/${book._id}`} className="hover:underline">{book.title}</Link>
          </h2>
          <p className="font-medium">{money(book.newPrice)}</p>
        </div>
        {book.author && <p className="text-sm text-gray-600">{book.author}</p>}
        <div className="mt-1">{stockLevel(book.stock).kind === 'in' ? <span className="text-xs font-semibold text-secondary">In stock</span> : <StockBadge stock={book.stock} />}</div>
        <div className="mt-auto flex flex-wrap items-center justify-between gap-2 pt-2">
          <button
            type="button"
            onClick={() => addBookToCart(book)}
            disabled={out}
            className={buttonClass('primary', 'sm')}
          >
            <CartIcon className="size-4" /> Add to Cart<span className="sr-only">: {book.title}</span>
          </button>
          {remove}
        </div>
      </div>
    </li>
  );
}
