import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { cart } from '../features/cart/cart-store';
import { ApiError } from '../lib/api-client';

type StockedBook = { _id: string; stock: number };

const isStockedBook = (value: unknown): value is StockedBook =>
  !!value && typeof value === 'object' && typeof (value as StockedBook)._id === 'string' && typeof (value as StockedBook).stock === 'number';

/** Books in a query's data: a book, a list of books, or a page `{ books: [...] }`. */
function booksIn(data: unknown): StockedBook[] {
  if (isStockedBook(data)) return [data];
  const list = Array.isArray(data) ? data : data && typeof data === 'object' && Array.isArray((data as { books?: unknown }).books) ? (data as { books: unknown[] }).books : [];
  return list.filter(isStockedBook);
}

/**
 * Keeps the cart's lines in step with every book the storefront fetches (cards, the book page,
 * search results): a book at stock 0 is flagged in the cart, and a 404 for a book in the cart
 * flags it as deleted. Features stay apart; this watches the shared query cache.
 */
export function CartStockSync() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const cache = queryClient.getQueryCache();
    return cache.subscribe((event) => {
      if (event.type !== 'updated' || event.query.queryKey[0] !== 'books') return;
      const { action } = event;
      if (action.type === 'success') cart.noteBooks(booksIn(action.data), event.query.state.dataUpdatedAt || Date.now());
      if (action.type === 'error' && action.error instanceof ApiError && action.error.status === 404) {
        const [, kind, id] = event.query.queryKey;
        if (kind === 'detail' && typeof id === 'string') cart.markUnavailable([id], 'deleted');
      }
    });
  }, [queryClient]);
  return null;
}
