import { Link } from 'react-router-dom';
import { BooksIcon, CartIcon, HeartIcon, Logo } from '../../components/ui/icons';
import { useCartItems } from '../../features/cart/cart-store';
import { useWishlistIds } from '../../lib/wishlist/wishlist-store';
import { SearchBox } from '../../features/catalog/components/search-box';
import { AccountMenu } from './account-menu';

export function Header() {
  const count = useCartItems().length;
  const saved = useWishlistIds().length;
  return (
    <header className="sticky top-0 z-30 border-b border-gray-100 bg-white/95 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-3 sm:gap-6 sm:px-8">
        <Link to="/" className="flex shrink-0 items-center gap-2 font-bold text-secondary" aria-label="Bookstore home">
          <Logo className="size-8" />
          <span className="hidden text-lg sm:inline">Bookstore</span>
        </Link>
        <Link
          to="/books"
          aria-label="Browse books"
          className="flex shrink-0 items-center gap-1.5 rounded-md p-2 font-semibold text-secondary hover:bg-gray-100 md:px-3"
        >
          <BooksIcon className="size-6 md:size-5" />
          <span className="hidden md:inline">Books</span>
        </Link>
        <div className="min-w-0 flex-1">
          <SearchBox />
        </div>
        <div className="flex items-center gap-1 sm:gap-3">
          <AccountMenu />
          <Link
            to="/wishlist"
            className="relative grid size-10 shrink-0 place-items-center rounded-full text-gray-700 hover:bg-gray-100"
            aria-label={`Wishlist, ${saved} ${saved === 1 ? 'book' : 'books'}`}
          >
            <HeartIcon className="size-6" />
            {saved > 0 && (
              <span data-testid="wishlist-count" className="absolute -right-0.5 -top-0.5 grid min-w-5 place-items-center rounded-full bg-secondary px-1 text-[11px] font-bold leading-5 text-white">
                {saved}
              </span>
            )}
          </Link>
          <Link
            to="/cart"
            className="flex items-center gap-2 rounded-md bg-primary px-3 py-2 font-semibold text-secondary hover:brightness-95"
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
