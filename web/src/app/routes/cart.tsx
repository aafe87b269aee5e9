import { fromCents } from '@bookstore/contract';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Link } from 'react-router-dom';
import { buttonClass, textLink } from '../../components/ui/button';
import { StockBadge } from '../../components/ui/stock-badge';
import { FollowStock } from '../../features/cart/lazy-follow-stock';
import { clearCart, removeUnavailableItems } from '../../features/cart/cart-actions';
import { lineProblem, savingsCents, subtotal, unavailableIds } from '../../features/cart/cart-rules';
import { cart, useCartState } from '../../features/cart/cart-store';
import { ProblemBadge, UnavailableNotice } from '../../features/cart/unavailable-notice';
import { quoteQuery } from '../../features/checkout/get-quote';
import { bookQuery } from '../../lib/books/get-book';
import { coverUrl } from '../../lib/covers';
import { money } from '../../lib/format';
import { useHydrated } from '../../lib/use-hydrated';
import { useLiveAfterStart } from '../../lib/use-live-after-start';
import { usePageTitle } from '../../lib/use-page-title';

// Each line's stock, followed live (Firestore SDK, reactfire), loads after the cart has rendered, on
// the first touch or a few seconds after the app started (lib/use-live-after-start.ts): the lines
// were read fresh as the page loaded (CartStockSync).

export function Component() {
  usePageTitle('Shopping cart');
  const { items, flags } = useCartState();
  const hydrated = useHydrated();
  const live = useLiveAfterStart();
  // Each line's book, fresh (a cart can be days old): CartStockSync copies stock and 404s onto the lines.
  // At most MAX_ORDER_ITEMS small requests, whatever the catalogue's size.
  useQueries({ queries: items.map((book) => ({ ...bookQuery(book._id), retry: false })) });
  const unavailable = unavailableIds(items, flags).length;
  // The shop's free-shipping threshold, against the server's subtotal (issue 27); any method will do.
  const quote = useQuery({ ...quoteQuery(items.map((b) => b._id), 'pickup'), enabled: hydrated && items.length > 0 && unavailable === 0 });
  const free = items.length > 0 && quote.data?.freeShippingFrom !== undefined ? quote.data : undefined;
  const saved = savingsCents(items.filter((book) => !lineProblem(book, flags)));
  return (
    <section className="py-6 md:py-10">
      <h1 className="text-2xl font-bold md:text-3xl">Shopping Cart</h1>
      {live && items.length > 0 && (
        <Suspense fallback={null}>
          <FollowStock ids={items.map((book) => book._id)} />
        </Suspense>
      )}
      {unavailable > 0 && (
        <div className="mt-6">
          <UnavailableNotice count={unavailable} onRemove={removeUnavailableItems} />
        </div>
      )}
      {/* The lines, then the summary beside them from lg (below on phones): Checkout is the one primary button. */}
      <div className="mt-6 grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <div>
          {/* This browser's cart (local storage): drawn after hydration; data-client-state tells the
              hydration test (web/e2e/hydration.serial.spec.ts) this part is not the server's to match. */}
          <div data-client-state="">
            {items.length === 0 && !hydrated ? (
              // The prerendered page cannot know this browser's cart: the empty message's room, blank.
              <div className="h-22" aria-hidden="true" />
            ) : items.length === 0 ? (
              <p className="py-8 text-gray-700">No product found!</p>
            ) : (
              <ul className="divide-y divide-gray-200 border-y border-gray-200">
                {items.map((book) => {
                  const problem = lineProblem(book, flags);
                  return (
                    <li key={book._id} className="flex py-6" data-testid="cart-line" data-unavailable={problem ? 'true' : undefined}>
                      <img src={coverUrl(book.coverImage)} alt={`Cover of ${book.title}`} width={64} height={96} className={`h-24 w-16 shrink-0 rounded-md border border-gray-200 object-cover ${problem ? 'opacity-50 grayscale' : ''}`} />
                      <div className="ml-4 flex flex-1 flex-col">
                        <div className="flex flex-wrap justify-between gap-2 font-semibold">
                          <h2>
                            {problem === 'deleted' ? book.title : <Link to={`/books/${book._id}`} className="hover:underline">{book.title}</Link>}
                          </h2>
                          <p className={problem ? 'text-gray-500 line-through' : ''}>
                            {money(book.newPrice)}
                            {!problem && book.oldPrice > book.newPrice && (
                              <span className="ml-2 text-sm font-normal text-gray-600 line-through">{money(book.oldPrice)}</span>
                            )}
                          </p>
                        </div>
                        <p className="mt-1 text-sm capitalize text-gray-600"><strong>Category:</strong> {book.category}</p>
                        <div className="mt-1">{problem ? <ProblemBadge problem={problem} /> : <StockBadge stock={book.stock} />}</div>
                        <div className="mt-auto flex items-end justify-between pt-2 text-sm">
                          <p className="text-gray-600"><strong>Qty:</strong> 1</p>
                          <button type="button" onClick={() => cart.remove(book._id)} className={textLink}>
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
          <div className="mt-6 flex flex-wrap items-center justify-between gap-4">
            <Link to="/" className={textLink}>
              Continue Shopping<span aria-hidden="true"> &rarr;</span>
            </Link>
            <button type="button" onClick={clearCart} className={buttonClass('secondary', 'sm')}>
              Clear Cart
            </button>
          </div>
        </div>
        <div className="rounded-lg bg-gray-50 p-6 ring-1 ring-gray-200">
          <div className="flex justify-between text-lg font-semibold">
            <p>Subtotal</p>
            <p data-testid="subtotal">${subtotal(items)}</p>
          </div>
          <div data-client-state="">
            {saved > 0 && (
              <p className="mt-1 flex justify-between text-sm font-semibold text-accent" data-testid="savings">
                <span>You save</span>
                <span>{money(fromCents(saved))}</span>
              </p>
            )}
          </div>
          <p className="mt-2 text-sm text-gray-600">Shipping and taxes calculated at checkout.</p>
          <Link to="/checkout" className={buttonClass('primary', 'lg', 'mt-6 w-full')}>
            Checkout
          </Link>
          {/* Under the button, which so stays where it is when the server's answer brings the line. */}
          <div data-client-state="" aria-live="polite">
            {free && (
              <p className="mt-3 rounded-md bg-accent-soft px-3 py-2 text-sm text-secondary ring-1 ring-accent" data-testid="free-shipping">
                {free.toFreeShipping !== undefined
                  ? `You are ${money(free.toFreeShipping)} from free shipping`
                  : `Your order ships free by post (from ${money(free.freeShippingFrom!)})`}
              </p>
            )}
          </div>
          <p className="mt-3 text-center text-sm text-gray-600">Cash on delivery: you pay when you receive your books.</p>
        </div>
      </div>
    </section>
  );
}
