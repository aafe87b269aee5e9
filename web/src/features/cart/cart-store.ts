import { useSyncExternalStore } from 'react';
import {
  addToCart,
  applyFreshBooks,
  parseStoredCart,
  parseStoredFlags,
  removeFromCart,
  unavailableIds,
  type CartItem,
  type Unavailability,
  type UnavailableFlags,
} from './cart-rules';

// The cart lives in localStorage: it survives a reload, and the `storage` event keeps open tabs in step.
// Beside it, the lines the server or fresher data said cannot be ordered (out of stock, deleted).
const KEY = 'bookstore.cart';
const FLAGS_KEY = 'bookstore.cart.unavailable';
const listeners = new Set<() => void>();
const canStore = typeof localStorage !== 'undefined';

export interface CartState {
  items: CartItem[];
  flags: UnavailableFlags;
}

let state: CartState = {
  items: canStore ? parseStoredCart(localStorage.getItem(KEY)) : [],
  flags: canStore ? parseStoredFlags(localStorage.getItem(FLAGS_KEY)) : {},
};

function emit(): void {
  for (const listener of listeners) listener();
}

/** Flags only for lines still in the cart. */
function prune(items: CartItem[], flags: UnavailableFlags): UnavailableFlags {
  const ids = new Set(items.map((item) => item._id));
  return Object.fromEntries(Object.entries(flags).filter(([id]) => ids.has(id)));
}

function write(items: CartItem[], flags: UnavailableFlags = state.flags): void {
  state = { items, flags: prune(items, flags) };
  try {
    localStorage.setItem(KEY, JSON.stringify(state.items));
    localStorage.setItem(FLAGS_KEY, JSON.stringify(state.flags));
  } catch {
    /* private mode or full storage: the cart still works for this tab */
  }
  emit();
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== KEY && event.key !== FLAGS_KEY && event.key !== null) return;
    state = { items: parseStoredCart(localStorage.getItem(KEY)), flags: parseStoredFlags(localStorage.getItem(FLAGS_KEY)) };
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
    const result = addToCart(state.items, book);
    if (result.added) write(result.items);
    return result.added;
  },
  remove(id: string): void {
    write(removeFromCart(state.items, id));
  },
  /**
   * A book the start script put in the stored cart before the app ran (issue 60). This tab may have
   * read the stored cart before that, and may have written it since: the stored cart is read again,
   * and the book added to it if such a write dropped it, so it is in the cart exactly once.
   */
  adoptEarlyAdd(book: CartItem): void {
    const stored = canStore ? parseStoredCart(localStorage.getItem(KEY)) : state.items;
    write(addToCart(stored, book).items);
  },
  /** true when there was something to clear. */
  clear(): boolean {
    if (state.items.length === 0) return false;
    write([], {});
    return true;
  },
  /** The server said these lines cannot be ordered (checkout's 409 OUT_OF_STOCK / 400 UNKNOWN_BOOKS). */
  markUnavailable(ids: string[], reason: Unavailability): void {
    const at = Date.now();
    const inCart = ids.filter((id) => state.items.some((item) => item._id === id));
    if (inCart.length === 0) return;
    write(state.items, { ...state.flags, ...Object.fromEntries(inCart.map((id) => [id, { reason, at }])) });
  },
  /** Book data fetched at `fetchedAt` (ms): stock copied onto matching lines. */
  noteBooks(books: Pick<CartItem, '_id' | 'stock'>[], fetchedAt: number): void {
    if (state.items.length === 0) return;
    const next = applyFreshBooks(state.items, state.flags, books, fetchedAt);
    if (next) write(next.items, next.flags);
  },
  /** Removes every line that cannot be ordered; returns how many. */
  removeUnavailable(): number {
    const gone = new Set(unavailableIds(state.items, state.flags));
    if (gone.size > 0) write(state.items.filter((item) => !gone.has(item._id)));
    return gone.size;
  },
};

// Prerendered pages (the build's prerender, web/prerender/) show an empty cart; hydration starts from
// the same and React renders again with this browser's cart straight after.
const EMPTY: CartState = { items: [], flags: {} };

export function useCartItems(): CartItem[] {
  return useSyncExternalStore(subscribe, () => state.items, () => EMPTY.items);
}

export function useCartState(): CartState {
  return useSyncExternalStore(subscribe, () => state, () => EMPTY);
}
