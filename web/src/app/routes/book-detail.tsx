import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { useParams } from 'react-router-dom';
import { CartIcon } from '../../components/ui/icons';
import { OfflineNotice } from '../../components/ui/offline-notice';
import { StockBadge } from '../../components/ui/stock-badge';
import { WishlistButton } from '../../components/wishlist-button';
import { FollowStock } from '../../features/cart/lazy-follow-stock';
import { BookDetails } from '../../features/catalog/components/book-details';
import { addBookToCart } from '../../features/cart/cart-actions';
import { NotifyMe } from '../../features/subscriptions/notify-me';
import { bookQuery } from '../../lib/books/get-book';
import { coverUrl } from '../../lib/covers';
import { formatDate, money } from '../../lib/format';
import { stockLevel } from '../../lib/stock';
import { useFirstInteraction } from '../../lib/use-first-interaction';
import { useHydrated } from '../../lib/use-hydrated';
import { usePageTitle } from '../../lib/use-page-title';

// The live stock follower (Firestore SDK, reactfire) loads after the page has rendered: at once when
// the stock is low or out (the badge shows, a sale can empty it), otherwise on the visitor's first
// touch of the page, so a first visit on a phone does not load it with the page. Never before
// hydration: the first render must be the served page's (no Suspense boundary), or hydration fails.

export function Component() {
  const { id = '' } = useParams();
  const { data: book, isPending, isError, fetchStatus } = useQuery(bookQuery(id));
  // Once it follows, it keeps following (a restock must not stop it).
  const touched = useFirstInteraction();
  const hydrated = useHydrated();
  const [live, setLive] = useState(false);
  if (!live && hydrated && book && (touched || stockLevel(book.stock).kind !== 'in')) setLive(true);
  usePageTitle(book?.title ?? 'Book');
  // Offline and not in the worker's cache (never opened here): say so; it loads when the network is back.
  if (isPending && fetchStatus === 'paused') return <OfflineNotice className="mx-auto my-16 max-w-xl">This book has not been opened on this device yet; it will show once you are back online.</OfflineNotice>;
  if (isPending) return <p role="status" className="py-16 text-center">Loading...</p>;
  if (isError || !book) return <p role="alert" className="py-16 text-center text-red-700">Error loading book info...</p>;
  return (
    <article className="mx-auto max-w-4xl py-10">
      <h1 className="mb-8 text-3xl font-bold">{book.title}</h1>
      <div className="flex flex-col gap-8 sm:flex-row">
        <img src={coverUrl(book.coverImage)} alt={`Cover of ${book.title}`} width={240} height={360} fetchPriority="high" className="h-90 w-60 shrink-0 self-center rounded-lg object-cover shadow-lg sm:self-start" />
        <div className="space-y-3">
          <p><strong>Author:</strong> {book.author || 'admin'}</p>
          <p><strong>Published:</strong> {formatDate(book.createdAt)}</p>
          <p className="capitalize"><strong>Category:</strong> {book.category}</p>
          <p className="text-gray-800"><strong>Description:</strong> {book.description}</p>
          <BookDetails book={book} />
          <p className="text-xl font-semibold">
            {money(book.newPrice)} <span className="ml-2 text-base font-normal text-gray-600 line-through">{money(book.oldPrice)}</span>
          </p>
          <StockBadge stock={book.stock} className="text-sm" />
          {live && (
            <Suspense fallback={null}>
              <FollowStock ids={[book._id]} />
            </Suspense>
          )}
          <button
            type="button"
            onClick={() => addBookToCart(book)}
            disabled={stockLevel(book.stock).kind === 'out'}
            className="inline-flex items-center gap-2 rounded-md bg-primary px-6 py-2 font-semibold text-secondary hover:bg-secondary hover:text-white disabled:cursor-not-allowed disabled:bg-gray-200 disabled:text-gray-600"
          >
            <CartIcon className="size-5" /> Add to Cart
          </button>
          <WishlistButton book={book} withText display="flex sm:inline-flex" className="w-fit py-2 sm:ml-3" />
          {stockLevel(book.stock).kind === 'out' && <NotifyMe bookId={book._id} />}
        </div>
      </div>
    </article>
  );
}
