import type { Book } from '@bookstore/contract';
import { Link } from 'react-router-dom';
import { CartIcon } from '../../../components/ui/icons';
import { WishlistButton } from '../../../components/wishlist-button';
import { StockBadge } from '../../../components/ui/stock-badge';
import { coverUrl } from '../../../lib/covers';
import { money, truncate } from '../../../lib/format';
import { stockLevel } from '../../../lib/stock';

/** `titleAs`: h3 under a section's h2 (the home carousels), h2 in a page's own list (/books, /search). */
export function BookCard({ book, onAdd, eager = false, titleAs: Title = 'h3' }: { book: Book; onAdd: (book: Book) => void; eager?: boolean; titleAs?: 'h2' | 'h3' }) {
  const href = `/books/${book._id}`;
  const soldOut = stockLevel(book.stock).kind === 'out';
  return (
    <article className="flex h-full flex-col gap-4 rounded-lg p-1 sm:flex-row sm:items-center sm:gap-6">
      <Link to={href} className="shrink-0 self-center sm:self-auto">
        <img
          src={coverUrl(book.coverImage)}
          alt={`Cover of ${book.title}`}
          width={144}
          height={216}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          className="h-54 w-36 rounded-md object-cover shadow-md transition duration-200 hover:scale-105"
        />
      </Link>
      <div className="flex min-w-0 flex-1 flex-col">
        <Title className="text-lg font-semibold leading-snug">
          <Link to={href} className="hover:text-blue-700 hover:underline">{book.title}</Link>
        </Title>
        <p className="mt-2 text-sm text-gray-700">{truncate(book.description)}</p>
        <p className="mt-3 font-medium">
          {money(book.newPrice)} <span className="ml-2 font-normal text-gray-600 line-through">{money(book.oldPrice)}</span>
        </p>
        <StockBadge stock={book.stock} className="mt-2" />
        <div className="mt-4 flex flex-wrap items-center gap-2">
          <button
            type="button"
            onClick={() => onAdd(book)}
            disabled={soldOut}
            className="inline-flex w-fit items-center gap-2 rounded-md bg-primary px-5 py-2 text-sm font-semibold text-secondary hover:bg-secondary hover:text-white disabled:cursor-not-allowed disabled:bg-gray-200 disabled:text-gray-600"
          >
            <CartIcon className="size-4" />
            Add to Cart
            <span className="sr-only">: {book.title}</span>
          </button>
          <WishlistButton book={book} titled />
        </div>
      </div>
    </article>
  );
}

/** Same footprint as a card, so nothing moves when the books arrive. */
export function BookCardSkeleton() {
  return (
    <div className="flex animate-pulse flex-col gap-4 p-1 sm:flex-row sm:items-center sm:gap-6" aria-hidden="true">
      <div className="h-54 w-36 self-center rounded-md bg-gray-200 sm:self-auto" />
      <div className="flex-1 space-y-3">
        <div className="h-5 w-3/4 rounded bg-gray-200" />
        <div className="h-4 w-full rounded bg-gray-200" />
        <div className="h-4 w-2/3 rounded bg-gray-200" />
        <div className="h-9 w-32 rounded bg-gray-200" />
      </div>
    </div>
  );
}
