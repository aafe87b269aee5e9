import { memo, Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Spinner } from '../../components/ui/spinner';
import { useHydrated } from '../../lib/use-hydrated';
import { WishlistAccount } from '../../lib/wishlist/wishlist-account';
import { CartStockSync } from '../cart-stock-sync';
import { Footer } from './footer';
import { Header } from './header';

export function StorefrontLayout() {
  // A served page shows its buttons and fields before its JavaScript has run; until React owns them
  // they are disabled (a click would do nothing), so nothing typed or clicked is lost. The box-less
  // fieldset disables every control of the page's content at once (inside <main>: HTML allows no
  // <main> in a fieldset); links work throughout. The header's search field waits the same way.
  const hydrated = useHydrated();
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only z-50 rounded bg-white px-4 py-2 focus:not-sr-only focus:fixed focus:left-2 focus:top-2">Skip to content</a>
      <Header />
      <main id="main" className="mx-auto min-h-[calc(100vh-4rem)] w-full max-w-content flex-1 px-4 sm:px-8">
        <fieldset disabled={!hydrated} role="none" className="contents">
          <Page />
        </fieldset>
      </main>
      <Footer />
      <CartStockSync />
      <WishlistAccount />
    </div>
  );
}

// Memoised: enabling the fieldset right after hydration (a synchronous render) re-renders the
// fieldset alone, not the page under it.
const Page = memo(function Page() {
  return (
    <Suspense fallback={<Spinner />}>
      <Outlet />
    </Suspense>
  );
});
