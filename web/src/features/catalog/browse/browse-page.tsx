import { buttonClass } from '../../../components/ui/button';
import { pageClass, pageTitle } from '../../../components/ui/page';
import { CATEGORIES, type Book } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { browseQuery } from '../api/browse-books';
import { BookCard, BookCardSkeleton } from '../components/book-card';
import { BrowseFiltersBar } from './browse-filters';
import { BrowsePagination } from './browse-pagination';
import { hasFilters, parseBrowseParams, toBrowseSearch, withFilters, type BrowseFilters } from './browse-params';

const grid = 'grid gap-8 md:grid-cols-2 carousel:grid-cols-3';

/** /books: the whole catalogue, 24 a page, filtered and sorted on the server; all state in the URL. */
export function BrowsePage({ onAdd }: { onAdd: (book: Book) => void }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const state = parseBrowseParams(params, CATEGORIES);
  const { data, isPending, isError, refetch } = useQuery(browseQuery(state));
  const signature = toBrowseSearch({ ...state, page: 1, cursor: undefined });
  const heading = useRef<HTMLHeadingElement>(null);

  // Next/Previous land at the top of the new page, and a screen reader hears where it landed. A
  // filter change keeps focus where it is (the shopper may change several in a row).
  const shown = useRef({ signature, cursor: state.cursor });
  useEffect(() => {
    const before = shown.current;
    shown.current = { signature, cursor: state.cursor };
    if (before.signature !== signature || before.cursor === state.cursor) return;
    window.scrollTo({ top: 0, behavior: 'instant' });
    heading.current?.focus({ preventScroll: true });
  }, [signature, state.cursor]);

  const go = (search: string) => navigate(`/books${search}`);
  const change = (change: Partial<BrowseFilters>) => go(withFilters(state, change));
  const clear = () => go(withFilters(state, { category: undefined, minPrice: undefined, maxPrice: undefined, inStock: undefined }));

  const title = state.category ? `${state.category[0]!.toUpperCase()}${state.category.slice(1)} books` : 'All books';

  return (
    <section className={pageClass} aria-labelledby="browse-heading">
      <div className="mb-6 flex flex-wrap items-baseline justify-between gap-2">
        <h1 id="browse-heading" ref={heading} tabIndex={-1} className={`${pageTitle} focus:outline-none`}>{title}</h1>
        {state.page > 1 && <p className="text-sm text-gray-700">Page {state.page}</p>}
      </div>
      <BrowseFiltersBar filters={state} categories={CATEGORIES} onChange={change} onClear={clear} />
      {isPending ? (
        <div role="status" aria-label="Loading books" className={grid}>
          {Array.from({ length: 6 }, (_, i) => <BookCardSkeleton key={i} />)}
        </div>
      ) : isError ? (
        <div role="alert" className="rounded-lg border border-danger bg-danger-soft p-6 text-danger">
          <p>Could not load books. Please try again.</p>
          <button type="button" onClick={() => void refetch()} className={buttonClass('secondary', 'md', 'mt-3')}>Try Again</button>
        </div>
      ) : data.books.length === 0 ? (
        <div className="rounded-lg border border-dashed border-gray-300 px-6 py-16 text-center">
          <p className="text-lg font-semibold">{state.page > 1 ? 'No more books here.' : 'No books match these filters.'}</p>
          <p className="mt-2 text-gray-700">Try another category or a wider price range.</p>
          {hasFilters(state) || state.page > 1 ? (
            <button type="button" onClick={clear} className={buttonClass('primary', 'md', 'mt-6')}>
              Clear Filters
            </button>
          ) : null}
        </div>
      ) : (
        <>
          <ul className={grid} aria-label="Books">
            {data.books.map((book, i) => (
              // Cards out of view are not laid out or painted until scrolled near (24 on a page).
              <li key={book._id} className="[contain-intrinsic-block-size:auto_420px] [content-visibility:auto]"><BookCard book={book} onAdd={onAdd} eager={state.page === 1 && i < 3} titleAs="h2" /></li>
            ))}
          </ul>
          <BrowsePagination
            page={state.page}
            // The server's prevCursor is null on the first page; page 2's Previous is page 1 (no cursor).
            previous={state.page === 1 ? null : `/books${toBrowseSearch({ ...state, page: state.page - 1, cursor: data.prevCursor ?? undefined })}`}
            next={data.nextCursor ? `/books${toBrowseSearch({ ...state, page: state.page + 1, cursor: data.nextCursor })}` : null}
          />
        </>
      )}
    </section>
  );
}
