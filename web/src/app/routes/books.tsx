import { addBookToCart } from '../../features/cart/cart-actions';
import { BrowsePage } from '../../features/catalog/browse/browse-page';
import { usePageTitle } from '../../lib/use-page-title';

export function Component() {
  usePageTitle('Browse books');
  return <BrowsePage onAdd={addBookToCart} />;
}
