import type { Book } from '@bookstore/contract';
import { alertBox, toast } from '../../lib/notify-later';
import { preorderDate, stockLevel } from '../../lib/stock';
import { parseStoredCart } from './cart-rules';
import { cart } from './cart-store';

export function addBookToCart(book: Book): void {
  // The button is disabled for these; this guards a stale page or a keyboard shortcut.
  const preorder = preorderDate(book);
  if (!preorder && stockLevel(book.stock).kind === 'out') {
    alertBox('Out of stock', `${book.title} is not available right now.`, 'warning');
    return;
  }
  if (cart.add(book)) toast(preorder ? 'Pre-order added to cart' : 'Item added to cart', { timer: 1500 });
  else alertBox('Already in cart', undefined, 'warning');
}

/**
 * Add to Cart tapped before the app ran, already answered by the start script (the book in the stored
 * cart, the header's count; issue 60): kept once, and the toast the app's own add would show.
 */
export function confirmEarlyAdd(book: unknown): void {
  const [item] = parseStoredCart(JSON.stringify([book])); // the page's data, checked as a stored line is
  if (!item) return;
  cart.adoptEarlyAdd(item);
  toast(preorderDate(item) ? 'Pre-order added to cart' : 'Item added to cart', { timer: 1500 });
}

export function clearCart(): void {
  if (cart.clear()) toast('Cart cleared', { timer: 2000, progress: true });
}

export function removeUnavailableItems(): void {
  const removed = cart.removeUnavailable();
  if (removed > 0) toast(`${removed === 1 ? '1 unavailable item' : `${removed} unavailable items`} removed`, { timer: 2000 });
}
