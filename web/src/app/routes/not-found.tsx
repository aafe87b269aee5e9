import { buttonClass } from '../../components/ui/button';
import { pageClass, pageTitle } from '../../components/ui/page';
import { Link, isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { usePageTitle } from '../../lib/use-page-title';

export function NotFound() {
  usePageTitle('Page not found');
  return (
    <section className={pageClass}>
      <p className="text-4xl font-bold text-secondary">4<span className="text-secondary">0</span>4</p>
      <h1 className={`mt-4 ${pageTitle}`}>Page Not Found</h1>
      <p className="mt-2 text-gray-700">We could not find the page you were looking for.</p>
      <Link to="/" className={buttonClass('primary', 'md', 'mt-8')}>Back to the Shop</Link>
    </section>
  );
}

/** Route-level error element: a failed chunk load or a render error, with a way back. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  console.error(error);
  return (
    <section className={pageClass}>
      <h1 className={pageTitle}>Something Went Wrong</h1>
      <p className="mt-2 text-gray-700">Please reload the page. If it keeps happening, try again later.</p>
      <a href="/" className={buttonClass('primary', 'md', 'mt-8')}>Back to the Shop</a>
    </section>
  );
}
