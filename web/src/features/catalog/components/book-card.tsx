import type { Book } from '@bookstore/contract';
import { Link } from 'react-router-dom';
import { buttonClass } from '../../../components/ui/button';
import { CartIcon } from '../../../components/ui/icons';
import { WishlistButton } from '../../../components/wishlist-button';
import { PreorderBadge, StockBadge } from '../../../components/ui/stock-badge';
import { coverUrl } from '../../../lib/covers';
import { money, truncate } from '../../../lib/format';
import { preorderDate, stockLevel } from '../../../lib/stock';

/** Two description lines on a phone, three from sm: a fixed slot either way (see BookCard). */
const DESCRIPTION_SLOT = 'mt-2 line-clamp-2 min-h-[2lh] text-sm sm:line-clamp-3 sm:min-h-[3lh]';

/** `titleAs`: h3 under a section's h2 (the home carousels), h2 in a page's own list (/books, /search). */
export function BookCard({ book, onAdd, eager = false, titleAs: Title = 'h3' }: { book: Book; onAdd: (book: Book) => void; eager?: boolean; titleAs?: 'h2' | 'h3' }) {
  const href = `/books/${book._id}`;
  // A forthcoming book is ordered at stock 0 (issue 41): 'Pre-order', with its date in the badge's place.
  const preorder = preorderDate(book);
  const soldOut = !preorder && stockLevel(book.stock).kind === 'out';
  return (
    // Cover beside the text at every width (a phone's first screen shows a whole card). The text column
    // has fixed slots (two title lines, one author line, the description's lines, the badge's line):
    // side by side, title, price and button line up (issue 29), and every card is as tall as its
    // skeleton below, so nothing moves when the books replace the skeletons. A phone shows two
    // description lines, so its first screen still reaches Add to Cart.
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
        <Title className="line-clamp-2 min-h-[2lh] text-lg font-semibold leading-snug">
          <Link to={href} className="hover:text-accent hover:underline">{book.title}</Link>
          {/* Where space allows: from md (cards side by side), in the title's two-line slot, cut off by it when the title is long. */}
          {book.subtitle && <span className="hidden font-normal text-gray-600 md:inline">{`: ${book.subtitle}`}</span>}
        </Title>
        <p className="truncate text-sm text-gray-700">by {book.author || 'admin'}</p>
        <p className={`${DESCRIPTION_SLOT} text-gray-600`}>{truncate(book.description)}</p>
        <p className="mt-2 font-semibold">
          {money(book.newPrice)} <span className="ml-2 font-normal text-gray-600 line-through">{money(book.oldPrice)}</span>
        </p>
        <div className="mt-1 min-h-6">
          {preorder ? <PreorderBadge date={preorder} /> : <StockBadge stock={book.stock} />}
        </div>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          {/* data-book: before the app runs, the start script answers a tap itself (issue 60, start-script.ts). */}
          <button type="button" onClick={() => onAdd(book)} disabled={soldOut} data-book={book._id} className={buttonClass('primary', 'md', 'px-4')}>
            <CartIcon className="size-4" />
            {preorder ? 'Pre-order' : 'Add to Cart'}
            <span className="sr-only">: {book.title}</span>
          </button>
          <WishlistButton book={book} titled />
        </div>
      </div>
    </article>
  );
}

/**
 * Same footprint as a card at every width, so nothing moves when the books arrive: the card's own
 * slots, with the button row's real contents kept invisible (it wraps where the card's does).
 */
export function BookCardSkeleton() {
  return (
    <div className="flex h-full animate-pulse gap-4 p-1 sm:gap-6" aria-hidden="true">
      <div className="h-42 w-28 shrink-0 rounded-md bg-gray-200 sm:h-54 sm:w-36" />
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="min-h-[2lh] text-lg leading-snug"><div className="h-5 w-3/4 rounded bg-gray-200" /></div>
        <div className="flex h-[1lh] items-center text-sm"><div className="h-3 w-1/2 rounded bg-gray-200" /></div>
        <div className={`${DESCRIPTION_SLOT} space-y-2 pt-1`}>
          <div className="h-3 w-full rounded bg-gray-200" />
          <div className="h-3 w-2/3 rounded bg-gray-200" />
        </div>
        <p className="invisible mt-2 font-semibold">$0.00</p>
        <div className="mt-1 min-h-6" />
        <div className="invisible mt-2 flex flex-wrap items-center gap-2">
          <span className={buttonClass('primary', 'md', 'px-4')}><CartIcon className="size-4" />Add to Cart</span>
          <span className="h-9 w-10.5" /> {/* the wishlist button: a 20 px heart, 10 px padding a side, 1 px border */}
        </div>
      </div>
    </div>
  );
}
