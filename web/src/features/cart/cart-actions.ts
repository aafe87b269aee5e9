import type { Book } from '@bookstore/contract';
import { alertBox, toast } from '../../lib/notify';
import { cart } from './cart-store';

export function addBookToCart(book: Book): void {
  if (cart.add(book)) void toast('Item added to cart', { timer: 1500 });
  else void alertBox('Already in cart', undefined, 'warning');
}

export function clearCart(): void {
  if (cart.clear()) void toast('Cart cleared', { timer: 2000, progress: true });
}
