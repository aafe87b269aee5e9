import type { Book } from '@bookstore/contract';
import { alertBox, toast } from '../../lib/notify-later';
import { preorderDate, stockLevel } from '../../lib/stock';
import { addedMessage } from './cart-rules';
import { cart } from './cart-store';

export function addBookToCart(book: Book): void {
  // The button is disabled for these; this guards a stale page or a keyboard shortcut.
  const preorder = preorderDate(book);
  if (!preorder && stockLevel(book.stock).kind === 'out') {
    alertBox('Out of stock', `${book.title} is not available right now.`, 'warning');
    return;
  }
  if (cart.add(book)) toast(addedMessage(book), { timer: 1500 });
  else alertBox('Already in cart', undefined, 'warning');
}

export function clearCart(): void {
  if (cart.clear()) toast('Cart cleared', { timer: 2000, progress: true });
}

export function removeUnavailableItems(): void {
  const removed = cart.removeUnavailable();
  if (removed > 0) toast(`${removed === 1 ? '1 unavailable item' : `${removed} unavailable items`} removed`, { timer: 2000 });
}
