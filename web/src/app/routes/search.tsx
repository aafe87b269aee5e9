import { buttonClass, textLink } from '../../components/ui/button';
import { pageClass, pageTitle } from '../../components/ui/page';
import { MAX_SEARCH_PAGE } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { ChevronLeft, ChevronRight } from '../../components/ui/icons';
import { addBookToCart } from '../../features/cart/cart-actions';
import { searchQuery } from '../../features/catalog/api/search-books';
import { BookCard, BookCardSkeleton } from '../../features/catalog/components/book-card';
import { usePageTitle } from '../../lib/use-page-title';

const pager = buttonClass('secondary', 'sm');

export function Component() {
  const [params] = useSearchParams();
  const q = params.get('q') ?? '';
  const pageParam = Number(params.get('page'));
  const page = Number.isInteger(pageParam) && pageParam > 1 ? Math.min(pageParam, MAX_SEARCH_PAGE) : 1;
  usePageTitle(`Search: ${q}`);
  const { data, isPending, isError, fetchStatus } = useQuery(searchQuery(q, page));
  const href = (n: number) => `/search?${new URLSearchParams(n > 1 ? { q, page: String(n) } : { q })}`;
  return (
    <section className={pageClass}>
      <h1 className={`mb-6 ${pageTitle}`}>Results for &ldquo;{q}&rdquo;</h1>
      {!q.trim() ? (
        <p>Type a title, an author or a category in the search box above.</p>
      ) : isPending && fetchStatus !== 'idle' ? (
        <div role="status" aria-label="Searching" className="grid gap-8 md:grid-cols-2 carousel:grid-cols-3">
          {Array.from({ length: 3 }, (_, i) => <BookCardSkeleton key={i} />)}
        </div>
      ) : isError ? (
        <p role="alert" className="text-danger">Could not search right now. Please try again.</p>
      ) : !data || data.total === 0 ? (
        <>
          <p>No books match</p>
          <p className="mt-2">
            <Link to={`/special-orders?${new URLSearchParams(/^[\d\s-]{10,17}[\dXx]?$/.test(q.trim()) ? { isbn: q.trim() } : { title: q.trim() })}`} className={textLink}>Can&apos;t find it? Ask us to order it</Link>
          </p>
        </>
      ) : data.books.length === 0 ? (
        <p>
          No more results. <Link to={href(1)} className={textLink}>Back to the first page</Link>
        </p>
      ) : (
        <>
          <p className="mb-6 text-gray-700">{data.total} {data.total === 1 ? 'book' : 'books'} found</p>
          <ul className="grid gap-8 md:grid-cols-2 carousel:grid-cols-3">
            {data.books.map((book) => <li key={book._id}><BookCard book={book} onAdd={addBookToCart} titleAs="h2" /></li>)}
          </ul>
          {data.pageCount > 1 && (
            <nav aria-label="Pagination" className="mt-12 flex items-center justify-between gap-4 border-t border-gray-200 pt-6">
              {page > 1 ? <Link to={href(page - 1)} className={pager} rel="prev"><ChevronLeft className="size-4" />Previous</Link> : <span />}
              <p className="text-sm text-gray-700">Page {page} of {data.pageCount}</p>
              {page < data.pageCount ? <Link to={href(page + 1)} className={pager} rel="next">Next<ChevronRight className="size-4" /></Link> : <span />}
            </nav>
          )}
        </>
      )}
    </section>
  );
}
