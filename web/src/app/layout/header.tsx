import { Link } from 'react-router-dom';
import { CartIcon, HeartIcon, Logo } from '../../components/ui/icons';
import { useCartItems } from '../../features/cart/cart-store';
import { useWishlistIds } from '../../lib/wishlist/wishlist-store';
import { SearchBox } from '../../features/catalog/components/search-box';
import { AccountMenu } from './account-menu';

export function Header() {
  const count = useCartItems().length;
  const saved = useWishlistIds().length;
  return (
    <header className="sticky top-0 z-30 border-b border-gray-100 bg-white">
      {/* Phones: logo, Books and the icons on one row, the search box full width under them, so its
          placeholder is never cut (issue 29). From md: one row. */}
      <nav aria-label="Main" className="mx-auto flex max-w-content flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2 sm:px-8 md:flex-nowrap md:gap-x-6 md:py-3">
        <Link to="/" className="flex shrink-0 items-center gap-2 font-bold text-secondary" aria-label="Bookstore home">
          <Logo className="size-8" />
          <span className="hidden text-lg sm:inline">Bookstore</span>
        </Link>
        {/* A word, not a second book glyph beside the logo's. */}
        <Link to="/books" aria-label="Browse books" className="shrink-0 rounded-md px-2 py-2 font-semibold text-secondary hover:bg-gray-100">
          Books
        </Link>
        <div className="order-last w-full md:order-none md:w-auto md:min-w-0 md:flex-1">
          <SearchBox />
        </div>
        <div className="ml-auto flex items-center gap-1 sm:gap-3 md:ml-0">
          <AccountMenu />
          <Link
            to="/wishlist"
            className="relative grid size-10 shrink-0 place-items-center rounded-full text-gray-700 hover:bg-gray-100"
            aria-label={`Wishlist, ${saved} ${saved === 1 ? 'book' : 'books'}`}
          >
            <HeartIcon className="size-6" />
            {saved > 0 && (
              <span data-testid="wishlist-count" className="absolute -right-0.5 -top-0.5 grid min-w-5 place-items-center rounded-full bg-secondary px-1 text-xs font-bold leading-5 text-white">
                {saved}
              </span>
            )}
          </Link>
          <Link
            to="/cart"
            className="flex items-center gap-2 rounded-md border border-primary bg-primary px-3 py-2 font-semibold text-secondary hover:border-secondary hover:bg-secondary hover:text-white"
            aria-label={`Cart, ${count} ${count === 1 ? 'item' : 'items'}`}
          >
            <CartIcon className="size-5" />
            <span data-testid="cart-count">{count}</span>
          </Link>
        </div>
      </nav>
    </header>
  );
}
