import { useQueries, useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Link } from 'react-router-dom';
import { StockBadge } from '../../components/ui/stock-badge';
import { FollowStock } from '../../features/cart/lazy-follow-stock';
import { clearCart, removeUnavailableItems } from '../../features/cart/cart-actions';
import { lineProblem, subtotal, unavailableIds } from '../../features/cart/cart-rules';
import { cart, useCartState } from '../../features/cart/cart-store';
import { ProblemBadge, UnavailableNotice } from '../../features/cart/unavailable-notice';
import { quoteQuery } from '../../features/checkout/get-quote';
import { bookQuery } from '../../lib/books/get-book';
import { coverUrl } from '../../lib/covers';
import { money } from '../../lib/format';
import { useHydrated } from '../../lib/use-hydrated';
import { usePageTitle } from '../../lib/use-page-title';

// Each line's stock, followed live (Firestore SDK, reactfire), loads after the cart has rendered.

export function Component() {
  usePageTitle('Shopping cart');
  const { items, flags } = useCartState();
  const hydrated = useHydrated();
  // Each line's book, fresh (a cart can be days old): CartStockSync copies stock and 404s onto the lines.
  // At most MAX_ORDER_ITEMS small requests, whatever the catalogue's size.
  useQueries({ queries: items.map((book) => ({ ...bookQuery(book._id), retry: false })) });
  const unavailable = unavailableIds(items, flags).length;
  // The shop's free-shipping threshold, against the server's subtotal (issue 27); any method will do.
  const quote = useQuery({ ...quoteQuery(items.map((b) => b._id), 'pickup'), enabled: hydrated && items.length > 0 && unavailable === 0 });
  const free = items.length > 0 && quote.data?.freeShippingFrom !== undefined ? quote.data : undefined;
  return (
    <section className="mx-auto mt-10 max-w-3xl rounded-lg bg-white shadow-lg ring-1 ring-gray-100">
      <div className="px-4 py-6 sm:px-6">
        <div className="flex items-center justify-between gap-4">
          <h1 className="text-lg font-semibold">Shopping cart</h1>
          <button type="button" onClick={clearCart} className="rounded-md bg-red-700 px-3 py-1 text-sm text-white hover:bg-red-800">
            Clear Cart
          </button>
        </div>
        {items.length > 0 && (
          <Suspense fallback={null}>
            <FollowStock ids={items.map((book) => book._id)} />
          </Suspense>
        )}
        {unavailable > 0 && (
          <div className="mt-6">
            <UnavailableNotice count={unavailable} onRemove={removeUnavailableItems} />
          </div>
        )}
        {/* This browser's cart (local storage): drawn after hydration; data-client-state tells the
            hydration test (web/e2e/hydration.spec.ts) this part is not the server's to match. */}
        <div className="mt-8" data-client-state="">
          {items.length === 0 && !hydrated ? (
            // The prerendered page cannot know this browser's cart: the empty message's room, blank.
            <div className="h-22" aria-hidden="true" />
          ) : items.length === 0 ? (
            <p className="py-8 text-center text-gray-700">No product found!</p>
          ) : (
            <ul className="-my-6 divide-y divide-gray-200">
              {items.map((book) => {
                const problem = lineProblem(book, flags);
                return (
                  <li key={book._id} className="flex py-6" data-testid="cart-line" data-unavailable={problem ? 'true' : undefined}>
                    <img src={coverUrl(book.coverImage)} alt={`Cover of ${book.title}`} width={64} height={96} className={`h-24 w-16 shrink-0 rounded-md border border-gray-200 object-cover ${problem ? 'opacity-50 grayscale' : ''}`} />
                    <div className="ml-4 flex flex-1 flex-col">
                      <div className="flex flex-wrap justify-between gap-2 font-medium">
                        <h2>
                          {problem === 'deleted' ? book.title : <Link to={`/books/${book._id}`} className="hover:underline">{book.title}</Link>}
                        </h2>
                        <p className={problem ? 'text-gray-500 line-through' : ''}>{money(book.newPrice)}</p>
                      </div>
                      <p className="mt-1 text-sm capitalize text-gray-600"><strong>Category:</strong> {book.category}</p>
                      <div className="mt-1">{problem ? <ProblemBadge problem={problem} /> : <StockBadge stock={book.stock} />}</div>
                      <div className="mt-auto flex items-end justify-between pt-2 text-sm">
                        <p className="text-gray-600"><strong>Qty:</strong> 1</p>
                        <button type="button" onClick={() => cart.remove(book._id)} className="font-medium text-indigo-700 hover:text-indigo-900">
                          Remove<span className="sr-only"> {book.title}</span>
                        </button>
                      </div>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      </div>
      <div className="border-t border-gray-200 px-4 py-6 sm:px-6">
        <div className="flex justify-between font-medium">
          <p>Subtotal</p>
          <p data-testid="subtotal">${subtotal(items)}</p>
        </div>
        <p className="mt-1 text-sm text-gray-600">Shipping and taxes calculated at checkout.</p>
        <div data-client-state="" aria-live="polite">
          {free && (
            <p className="mt-2 rounded-md bg-teal-50 px-3 py-2 text-sm text-teal-900 ring-1 ring-teal-200" data-testid="free-shipping">
              {free.toFreeShipping !== undefined
                ? `You are ${money(free.toFreeShipping)} from free shipping`
                : `Your order ships free by post (from ${money(free.freeShippingFrom!)})`}
            </p>
          )}
        </div>
        <Link to="/checkout" className="mt-6 flex items-center justify-center rounded-md bg-indigo-700 px-6 py-3 font-medium text-white shadow-sm hover:bg-indigo-800">
          Checkout
        </Link>
        <p className="mt-6 text-center text-sm text-gray-600">
          or{' '}
          <Link to="/" className="font-medium text-indigo-700 hover:text-indigo-900">
            Continue Shopping<span aria-hidden="true"> &rarr;</span>
          </Link>
        </p>
      </div>
    </section>
  );
}
