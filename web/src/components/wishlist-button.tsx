import { toggleWishlist } from '../lib/wishlist/wishlist-actions';
import { useWishlistIds } from '../lib/wishlist/wishlist-store';
import { HeartIcon } from './ui/icons';

/**
 * The heart on cards and book pages (issue 28): 'Add to wishlist' or 'Remove from wishlist'. The
 * served page and the first render in the browser show 'Add to wishlist' (the server cannot know
 * this browser's list; useWishlistIds is empty while hydrating), then the real state right after.
 * `titled`: the book's title follows the name for screen readers (a list of cards has many hearts).
 */
export function WishlistButton({ book, withText = false, titled = false, className = '', display = 'inline-flex' }: { book: { _id: string; title: string }; withText?: boolean; titled?: boolean; className?: string; display?: string }) {
  const saved = useWishlistIds().includes(book._id);
  const label = saved ? 'Remove from wishlist' : 'Add to wishlist';
  return (
    <button
      type="button"
      onClick={() => toggleWishlist(book)}
      title={withText ? undefined : label}
      className={`${display} min-h-9 min-w-9 items-center justify-center gap-2 rounded-md border border-gray-300 px-2.5 text-sm font-semibold hover:border-secondary hover:bg-gray-50 ${saved ? 'text-danger' : 'text-secondary'} ${className}`}
    >
      <HeartIcon className="size-5 shrink-0" fill={saved ? 'currentColor' : 'none'} />
      <span className={withText ? '' : 'sr-only'}>{label}</span>
      {titled && <span className="sr-only">: {book.title}</span>}
    </button>
  );
}
