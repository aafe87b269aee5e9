import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { buttonClass, textLink } from '../../components/ui/button';
import { CartIcon } from '../../components/ui/icons';
import { OfflineNotice } from '../../components/ui/offline-notice';
import { PreorderBadge, StockBadge } from '../../components/ui/stock-badge';
import { WishlistButton } from '../../components/wishlist-button';
import { FollowStock } from '../../features/cart/lazy-follow-stock';
import { BookDetails } from '../../features/catalog/components/book-details';
import { addBookToCart } from '../../features/cart/cart-actions';
import { NotifyMe } from '../../features/subscriptions/notify-me';
import { bookQuery } from '../../lib/books/get-book';
import { coverUrl } from '../../lib/covers';
import { formatDate, money } from '../../lib/format';
import { preorderDate, stockLevel } from '../../lib/stock';
import { useFirstInteraction } from '../../lib/use-first-interaction';
import { useLiveAfterStart } from '../../lib/use-live-after-start';
import { usePageTitle } from '../../lib/use-page-title';

// The live stock follower (Firestore SDK, reactfire) loads after the page has rendered: on the
// visitor's first touch of the page, or, when the stock is low or out (the badge shows, a sale can
// empty it), also once the page has been quiet a few seconds after the app started
// (lib/use-live-after-start.ts), so a first visit on a phone does not load it with the page. Never
// before hydration: the first render must be the served page's (no Suspense boundary), or hydration fails.

export function Component() {
  const { id = '' } = useParams();
  const { data: book, isPending, isError, fetchStatus } = useQuery(bookQuery(id));
  // Once it follows, it keeps following (a restock must not stop it).
  const touched = useFirstInteraction();
  const ready = useLiveAfterStart(); // touched, or quiet a while after the start
  const [live, setLive] = useState(false);
  if (!live && ready && book && (touched || stockLevel(book.stock).kind !== 'in')) setLive(true);
  usePageTitle(book?.title ?? 'Book');
  // Offline and not in the worker's cache (never opened here): say so; it loads when the network is back.
  if (isPending && fetchStatus === 'paused') return <OfflineNotice className="mx-auto my-16 max-w-xl">This book has not been opened on this device yet; it will show once you are back online.</OfflineNotice>;
  if (isPending) return <p role="status" className="py-16 text-center">Loading...</p>;
  if (isError || !book) {
    return (
      <div className="py-16 text-center">
        <p role="alert" className="text-danger">Error loading book info...</p>
        <p className="mt-3"><Link to="/special-orders" className={textLink}>Can&apos;t find it? Ask us to order it</Link></p>
      </div>
    );
  }
  const preorder = preorderDate(book);
  const soldOut = !preorder && stockLevel(book.stock).kind === 'out';
  return (
    // Cover and the buying box side by side at every width: on a 375 x 812 phone the cover, title,
    // author, price and 'Add to Cart' are all on the first screen (issue 29); the rest follows.
    <article className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-4 gap-y-8 py-6 sm:grid-cols-[15rem_minmax(0,1fr)] sm:gap-x-10 md:py-10">
      <img src={coverUrl(book.coverImage)} alt={`Cover of ${book.title}`} width={240} height={360} fetchPriority="high" className="h-42 w-28 rounded-lg object-cover shadow-lg sm:row-span-2 sm:h-90 sm:w-60" />
      <div className="min-w-0">
        <h1 className="break-words text-2xl font-bold sm:text-3xl">{book.title}</h1>
        {book.subtitle && <p className="mt-1 break-words text-lg text-gray-700 sm:text-xl">{book.subtitle}</p>}
        <p className="mt-2 text-gray-700"><strong>Author:</strong> {book.author || 'admin'}</p>
        <p className="mt-4 text-xl font-semibold">
          {money(book.newPrice)} <span className="ml-2 text-base font-normal text-gray-600 line-through">{money(book.oldPrice)}</span>
        </p>
        {preorder ? <PreorderBadge date={preorder} className="mt-2 text-sm" /> : <StockBadge stock={book.stock} className="mt-2 text-sm" />}
        {live && (
          <Suspense fallback={null}>
            <FollowStock ids={[book._id]} />
          </Suspense>
        )}
        <div className="mt-4 flex flex-wrap items-center gap-3">
          {/* data-book: before the app runs, the start script answers a tap itself (issue 60, start-script.ts). */}
          <button type="button" onClick={() => addBookToCart(book)} disabled={soldOut} data-book={book._id} className={buttonClass('primary', 'lg')}>
            <CartIcon className="size-5" /> {preorder ? 'Pre-order' : 'Add to Cart'}
          </button>
          <WishlistButton book={book} withText className="py-2" />
        </div>
        {soldOut && <NotifyMe bookId={book._id} />}
      </div>
      <div className="col-span-2 max-w-3xl space-y-3 sm:col-span-1 sm:col-start-2">
        <p><strong>Published:</strong> {formatDate(book.createdAt)}</p>
        <p className="capitalize"><strong>Category:</strong> {book.category}</p>
        <p className="text-gray-800"><strong>Description:</strong> {book.description}</p>
        <BookDetails book={book} />
      </div>
    </article>
  );
}
