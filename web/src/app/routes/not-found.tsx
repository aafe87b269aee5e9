import { Link, isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { usePageTitle } from '../../lib/use-page-title';

export function NotFound() {
  usePageTitle('Page not found');
  return (
    <section className="mx-auto max-w-xl py-24 text-center">
      <p className="text-6xl font-bold text-secondary">4<span className="text-amber-700">0</span>4</p>
      <h1 className="mt-4 text-2xl font-semibold">Page not found</h1>
      <p className="mt-2 text-gray-700">We could not find the page you were looking for.</p>
      <Link to="/" className="mt-8 inline-block rounded-md bg-secondary px-6 py-2 font-semibold text-white hover:bg-blue-900">Back to the shop</Link>
    </section>
  );
}

/** Route-level error element: a failed chunk load or a render error, with a way back. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  console.error(error);
  return (
    <section className="mx-auto max-w-xl py-24 text-center">
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="mt-2 text-gray-700">Please reload the page. If it keeps happening, try again later.</p>
      <a href="/" className="mt-8 inline-block rounded-md bg-secondary px-6 py-2 font-semibold text-white">Back to the shop</a>
    </section>
  );
}
