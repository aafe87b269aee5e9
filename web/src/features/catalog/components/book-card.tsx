import type { Book } from '@bookstore/contract';
import { Link } from 'react-router-dom';
import { buttonClass } from '../../../components/ui/button';
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
    // Cover beside the text at every width (a phone's first screen shows a whole card). From md, where
    // cards stand side by side, the text column has fixed slots (two title lines, one author line,
    // three description lines, the badge's line), so title, price and button line up (issue 29).
    <article className="flex h-full gap-4 rounded-lg p-1 sm:gap-6">
      <Link to={href} className="shrink-0">
        <img
          src={coverUrl(book.coverImage)}
          alt={`Cover of ${book.title}`}
          width={144}
          height={216}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          className="h-42 w-28 rounded-md object-cover shadow-md transition duration-200 hover:scale-105 sm:h-54 sm:w-36"
        />
      </Link>
      <div className="flex min-w-0 flex-1 flex-col">
        <Title className="line-clamp-2 text-lg md:min-h-[2lh] font-semibold leading-snug">
          <Link to={href} className="hover:text-accent hover:underline">{book.title}</Link>
        </Title>
        <p className="truncate text-sm text-gray-700">by {book.author || 'admin'}</p>
        <p className="mt-2 line-clamp-3 text-sm text-gray-600 md:min-h-[3lh]">{truncate(book.description)}</p>
        <p className="mt-2 font-semibold">
          {money(book.newPrice)} <span className="ml-2 font-normal text-gray-600 line-through">{money(book.oldPrice)}</span>
        </p>
        <div className="mt-1 md:min-h-6">
          <StockBadge stock={book.stock} />
        </div>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <button type="button" onClick={() => onAdd(book)} disabled={soldOut} className={buttonClass('primary', 'md', 'px-4')}>
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
    <div className="flex animate-pulse gap-4 p-1 sm:gap-6" aria-hidden="true">
      <div className="h-42 w-28 shrink-0 rounded-md bg-gray-200 sm:h-54 sm:w-36" />
      <div className="flex-1 space-y-3">
        <div className="h-5 w-3/4 rounded bg-gray-200" />
        <div className="h-4 w-full rounded bg-gray-200" />
        <div className="h-4 w-2/3 rounded bg-gray-200" />
        <div className="h-9 w-32 rounded bg-gray-200" />
      </div>
    </div>
  );
}
