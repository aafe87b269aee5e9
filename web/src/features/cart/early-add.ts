import { toast } from '../../lib/notify-later';
import { addedMessage, parseStoredCart } from './cart-rules';
import { cart } from './cart-store';

/**
 * Add to Cart tapped before the app ran, already answered by the start script (the book in the stored
 * cart, the header's count; issue 60): kept once, and the toast the app's own add would show.
 * The app's entry imports this (app.tsx): only what the header already loads, so the first load's
 * JavaScript stays within its budget (bundle-budget.test.ts; cart-actions.ts would bring lib/stock).
 */
export function confirmEarlyAdd(book: unknown): void {
  const [item] = parseStoredCart(JSON.stringify([book])); // the page's data, checked as a stored line is
  if (!item) return;
  cart.adoptEarlyAdd(item);
  toast(addedMessage(item), { timer: 1500 });
}
