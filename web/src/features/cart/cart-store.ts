import { useSyncExternalStore } from 'react';
import { addToCart, parseStoredCart, removeFromCart, type CartItem } from './cart-rules';

// The cart lives in localStorage: it survives a reload, and the `storage` event keeps open tabs in step.
const KEY = 'bookstore.cart';
const listeners = new Set<() => void>();
let items: CartItem[] = typeof localStorage === 'undefined' ? [] : parseStoredCart(localStorage.getItem(KEY));

function emit(): void {
  for (const listener of listeners) listener();
}

function write(next: CartItem[]): void {
  items = next;
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    /* private mode or full storage: the cart still works for this tab */
  }
  emit();
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== KEY && event.key !== null) return;
    items = parseStoredCart(localStorage.getItem(KEY));
    emit();
  });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const cart = {
  /** true when added, false when the book was already in the cart. */
  add(book: CartItem): boolean {
    const result = addToCart(items, book);
    if (result.added) write(result.items);
    return result.added;
  },
  remove(id: string): void {
    write(removeFromCart(items, id));
  },
  /** true when there was something to clear. */
  clear(): boolean {
    if (items.length === 0) return false;
    write([]);
    return true;
  },
};

export function useCartItems(): CartItem[] {
  return useSyncExternalStore(subscribe, () => items, () => items);
}
