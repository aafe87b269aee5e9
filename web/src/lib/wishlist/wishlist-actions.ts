import { alertBox, toast } from '../notify-later';
import { wishlist } from './wishlist-store';

/** The heart's action: adds or removes the book, and says which. */
export function toggleWishlist(book: { _id: string; title: string }): void {
  const result = wishlist.toggle(book._id);
  if (result === 'full') alertBox('Your wishlist is full', 'A wishlist holds at most 500 books: remove some first.', 'warning');
  else toast(result === 'added' ? 'Added to your wishlist' : 'Removed from your wishlist', { timer: 1500 });
}
