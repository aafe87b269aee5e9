import { usePageTitle } from '../../lib/use-page-title';

export function Component() {
  usePageTitle('About');
  return (
    <section className="mx-auto max-w-2xl py-16">
      <h1 className="mb-4 text-3xl font-semibold">About</h1>
      <p className="text-gray-700">We are a small, independent book shop. Browse, fill your cart and pay cash when your books arrive.</p>
    </section>
  );
}
