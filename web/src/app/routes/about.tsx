import { pageClass, pageTitle } from '../../components/ui/page';
import { usePageTitle } from '../../lib/use-page-title';

export function Component() {
  usePageTitle('About');
  return (
    <section className={`${pageClass} max-w-2xl`}>
      <h1 className={`mb-4 ${pageTitle}`}>About</h1>
      <p className="text-gray-700">We are a small, independent book shop. Browse, fill your cart and pay cash when your books arrive.</p>
    </section>
  );
}
