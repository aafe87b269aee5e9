import { memo, Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Spinner } from '../../components/ui/spinner';
import { WishlistAccount } from '../../lib/wishlist/wishlist-account';
import { CartStockSync } from '../cart-stock-sync';
import { Footer } from './footer';
import { Header } from './header';

export function StorefrontLayout() {
  // A served page shows its buttons before its JavaScript has run, and they look and are usable:
  // until React owns them the inline start script keeps each tap and the app replays it once
  // hydrated (decision 038). Forms with text fields (sign-in, notify me) stay disabled until then
  // (their own fieldsets), as does the header's search field: typing has no safe replay.
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only z-50 rounded bg-white px-4 py-2 focus:not-sr-only focus:fixed focus:left-2 focus:top-2">Skip to content</a>
      <Header />
      <main id="main" className="mx-auto min-h-[calc(100vh-4rem)] w-full max-w-content flex-1 px-4 sm:px-8">
        <Page />
      </main>
      <Footer />
      <CartStockSync />
      <WishlistAccount />
    </div>
  );
}

// Memoised: the layout's own re-renders after hydration (the header's client state) leave the page be.
const Page = memo(function Page() {
  return (
    <Suspense fallback={<Spinner />}>
      <Outlet />
    </Suspense>
  );
});
