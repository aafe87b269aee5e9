import { addBookToCart } from '../../features/cart/cart-actions';
import { Banner } from '../../features/catalog/components/banner';
import { News } from '../../features/catalog/components/news';
import { Recommended, TopSellers } from '../../features/catalog/components/top-sellers';
import { usePageTitle } from '../../lib/use-page-title';

export function Component() {
  usePageTitle('Bookstore: books delivered, cash on delivery');
  return (
    <>
      <Banner />
      <TopSellers onAdd={addBookToCart} />
      <Recommended onAdd={addBookToCart} />
      <News />
    </>
  );
}
