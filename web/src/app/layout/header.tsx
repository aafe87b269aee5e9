import { Link } from 'react-router-dom';
import { BooksIcon, CartIcon, HeartIcon, Logo } from '../../components/ui/icons';
import { useCartItems } from '../../features/cart/cart-store';
import { SearchBox } from '../../features/catalog/components/search-box';
import { AccountMenu } from './account-menu';

export function Header() {
  const count = useCartItems().length;
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
          <span className="hidden size-10 place-items-center text-gray-700 sm:grid" aria-hidden="true">
            <HeartIcon className="size-6" />
          </span>
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
