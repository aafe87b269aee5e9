import type { AdminBooksPage } from '@bookstore/contract';
import { Link } from 'react-router-dom';
import { buttonClass, unavailableButtonClass } from '../../../components/ui/button';
import { ChevronLeft, ChevronRight } from '../../../components/ui/icons';
import { toAdminBooksSearch, type AdminBooksState } from '../api/admin-books';

const pager = buttonClass('secondary', 'sm');
const pagerOff = unavailableButtonClass('sm');

/** Previous and Next by the server's cursors, and which books of the list this page shows. */
export function BooksPager({ state, page, first }: { state: AdminBooksState; page: AdminBooksPage; first: number }) {
  if (state.page <= 1 && !page.nextCursor) return null;
  return (
    <nav aria-label="Pagination" className="flex items-center justify-between gap-4 border-t border-gray-100 px-4 py-3">
      {state.page > 1 ? (
        <Link to={`/dashboard/manage-books${toAdminBooksSearch({ ...state, page: state.page - 1, cursor: page.prevCursor ?? undefined })}`} className={pager} rel="prev">
          <ChevronLeft className="size-4" />Previous
        </Link>
      ) : (
        <span className={pagerOff} aria-disabled="true"><ChevronLeft className="size-4" />Previous</span>
      )}
      <p className="text-sm text-gray-600">
        Books {first + 1}–{first + page.books.length}
      </p>
      {page.nextCursor ? (
        <Link to={`/dashboard/manage-books${toAdminBooksSearch({ ...state, page: state.page + 1, cursor: page.nextCursor })}`} className={pager} rel="next">
          Next<ChevronRight className="size-4" />
        </Link>
      ) : (
        <span className={pagerOff} aria-disabled="true">Next<ChevronRight className="size-4" /></span>
      )}
    </nav>
  );
}
