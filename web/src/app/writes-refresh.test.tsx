// @vitest-environment happy-dom
import type { Book, Order } from '@bookstore/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDeleteBook } from '../features/admin/api/delete-book';
import { useUpdateBook } from '../features/admin/api/update-book';
import { useChangeOrderStatus } from '../features/admin/orders/desk-api';
import { usePlaceOrder } from '../features/checkout/create-order';
import { useCancelOrder } from '../features/orders/cancel-order';
import { queryKeys } from '../lib/query-keys';

// Every writer refreshes what it changed: each mutation runs against a stubbed fetch, and the cached
// reads it must mark stale (and those it must leave alone) are checked by their keys.

const book: Book = {
  _id: 'b1', title: 'Dune', description: 'Sand.', category: 'fiction', trending: false, coverImage: 'book-1',
  oldPrice: 10, newPrice: 9, stock: 3, createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z',
};
const order = {
  _id: 'o1', uid: 'u1', name: 'Ann', email: 'ann@example.com', phone: '5550100',
  address: { street: '1 Main St', city: 'Springfield', country: 'US', state: 'IL', zipcode: '62701' },
  productIDs: ['b1'], items: [], totalPrice: 9, status: 'cancelled', events: [], createdAt: '2026-11-22T00:00:00.000Z', updatedAt: '2026-11-22T00:00:00.000Z',
  payment: { method: 'cash', status: 'due', amount: 9, refunded: 0, refunds: [] },
} satisfies Order;

const CACHED = {
  bookList: [...queryKeys.books, { limit: 100 }],
  bookDetail: queryKeys.book('b1'),
  adminBooks: [...queryKeys.books, 'admin', { sort: 'date' }],
  stats: queryKeys.adminStats,
  myOrders: [...queryKeys.myOrders, 'mine', 'u1'],
  desk: [...queryKeys.adminOrders, 'list', { status: 'all' }],
  mySpecialOrders: queryKeys.mySpecialOrders,
  deskSpecialOrders: [...queryKeys.adminSpecialOrders, 'accepted', null],
} as const;
type Cached = keyof typeof CACHED;

let client: QueryClient;
function run<T>(hook: () => T) {
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return renderHook(hook, { wrapper }).result;
}
/** The cached reads now marked stale by the write. */
const invalidated = () => (Object.keys(CACHED) as Cached[]).filter((name) => client.getQueryState(CACHED[name])?.isInvalidated);

beforeAll(() => {
  // The customer calls load the auth SDK (no one signed in: no token; the stub answers anyway).
  vi.stubEnv('VITE_FIREBASE_API_KEY', 'test-api-key');
  vi.stubEnv('VITE_FIREBASE_AUTH_DOMAIN', 'demo-bookstore.firebaseapp.com');
  vi.stubEnv('VITE_FIREBASE_PROJECT_ID', 'demo-bookstore');
});
beforeEach(() => {
  client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  for (const key of Object.values(CACHED)) client.setQueryData(key, {});
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    const body = url.startsWith('/api/books') ? { message: 'ok', book } : url.includes('/status') || url.includes('/cancel') ? { message: 'ok', order } : order;
    return new Response(JSON.stringify(body), { status: 200 });
  }));
});
afterEach(() => vi.unstubAllGlobals());

describe('what each write refreshes', () => {
  it('deleting a book: every book list and the overview', async () => {
    const mutation = run(useDeleteBook);
    await mutation.current.mutateAsync('b1');
    expect(invalidated()).toEqual(['bookList', 'adminBooks', 'stats']);
    expect(client.getQueryState(CACHED.bookDetail)).toBeUndefined(); // gone, not refetched
  });

  it('editing a book: the book, every list and the overview', async () => {
    const mutation = run(() => useUpdateBook('b1', () => undefined));
    const { title, description, category, oldPrice, newPrice, coverImage, stock } = book;
    await mutation.current.mutateAsync({ book: { title, author: undefined, description, category, trending: true, oldPrice, newPrice, coverImage, isbn: undefined, stock }, cover: null });
    expect(invalidated()).toEqual(['bookList', 'bookDetail', 'adminBooks', 'stats']);
  });

  it('placing an order: the customer’s orders, the desk, the overview and the books’ stock', async () => {
    const mutation = run(usePlaceOrder);
    const placed = await mutation.current.mutateAsync({
      order: { name: 'Ann', email: 'ann@example.com', phone: '5550100', address: order.address, productIDs: ['b1'], totalPrice: '9.00' },
      idempotencyKey: 'key-12345678',
      confirmNewTotal: async () => true,
    });
    expect(placed?._id).toBe('o1');
    expect(invalidated().sort()).toEqual(['adminBooks', 'bookDetail', 'bookList', 'desk', 'myOrders', 'stats']);
  });

  it('a customer’s cancel: their orders, the desk, the overview and the stock that came back', async () => {
    const mutation = run(useCancelOrder);
    await mutation.current.mutateAsync({ id: 'o1' });
    await waitFor(() => expect(invalidated().sort()).toEqual(['adminBooks', 'bookDetail', 'bookList', 'desk', 'myOrders', 'stats']));
  });

  it('a move on the desk: the desk, the overview and the stock, not the customer’s own cache', async () => {
    const mutation = run(useChangeOrderStatus);
    await mutation.current.mutateAsync({ id: 'o1', status: 'cancelled' });
    expect(invalidated().sort()).toEqual(['adminBooks', 'bookDetail', 'bookList', 'desk', 'stats']);
  });

  describe('a special order’s order, cancelled: its request closes with it', () => {
    const special = { ...order, _id: 'special-r1' };
    beforeEach(() => {
      vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ message: 'ok', order: special }), { status: 200 })));
    });

    it('by the customer: their special orders too', async () => {
      const mutation = run(useCancelOrder);
      await mutation.current.mutateAsync({ id: 'special-r1' });
      await waitFor(() => expect(invalidated().sort()).toEqual(['adminBooks', 'bookDetail', 'bookList', 'desk', 'myOrders', 'mySpecialOrders', 'stats']));
    });

    it('on the desk: the desk’s special orders too', async () => {
      const mutation = run(useChangeOrderStatus);
      await mutation.current.mutateAsync({ id: 'special-r1', status: 'cancelled' });
      expect(invalidated().sort()).toEqual(['adminBooks', 'bookDetail', 'bookList', 'desk', 'deskSpecialOrders', 'stats']);
    });
  });
});
