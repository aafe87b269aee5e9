import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Spinner } from '../../components/ui/spinner';
import { CartStockSync } from '../cart-stock-sync';
import { Footer } from './footer';
import { Header } from './header';

// The storefront's frame. (Its controls used to sit in a disabled fieldset until hydration; HTML
// allows no <main> inside a fieldset, and the app's script is now asked for with the page, so
// hydration follows the first paint closely: docs/decisions/020-one-renderer.md.)
export function StorefrontLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only z-50 rounded bg-white px-4 py-2 focus:not-sr-only focus:fixed focus:left-2 focus:top-2">Skip to content</a>
      <Header />
      <main id="main" className="mx-auto min-h-[calc(100vh-4rem)] w-full max-w-7xl flex-1 px-4 sm:px-8">
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <CartStockSync />
    </div>
  );
}
