import { buttonClass } from '../../components/ui/button';
import { ADMIN_BOOKS_PAGE_SIZE, type AdminBooksPage } from '@bookstore/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { FullScreenSpinner } from '../../components/ui/spinner';
import { alertBox, confirmBox } from '../../lib/notify';
import { adminBooksQuery, parseAdminBooksParams, toAdminBooksSearch, type AdminBooksState } from './api/admin-books';
import { useDeleteBook } from './api/delete-book';
import { useMe } from './api/staff-api';
import { BookRows } from './books/book-rows';
import { BooksPager } from './books/books-pager';
import { BooksToolbar } from './books/books-toolbar';
import { useBookSelection } from './books/use-book-selection';
import { BulkBar } from './components/bulk-bar';

// Manage Books: the page holds the list's state (in the URL) and puts together the toolbar
// (books/books-toolbar), the bulk selection (books/use-book-selection), the rows and the pager.

export function Component() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const state = parseAdminBooksParams(params);
  // Keep the rows on screen while the next page or search loads (the table does not jump).
  const { data, isPending, isError, isPlaceholderData } = useQuery({ ...adminBooksQuery(state), placeholderData: keepPreviousData });
  const go = (next: Partial<AdminBooksState>, replace = false) =>
    navigate(`/dashboard/manage-books${toAdminBooksSearch({ ...state, ...next })}`, { replace });

  // Search as the admin types (300 ms after the last key), from page 1; the URL follows without new history entries.
  const [text, setText] = useState(state.q);
  const [textFor, setTextFor] = useState(state.q); // the URL's q changed (back, a link): show it
  if (textFor !== state.q) {
    setTextFor(state.q);
    setText(state.q);
  }
  useEffect(() => {
    if (text.trim() === state.q) return;
    const timer = setTimeout(() => go({ q: text.trim(), page: 1, cursor: undefined }, true), 300);
    return () => clearTimeout(timer);
  });

  const deletion = useDeleteBook();
  const canDelete = useMe().can('books.delete'); // a bookseller counts stock; deleting is not theirs
  const remove = async (id: string, title: string) => {
    if (!(await confirmBox('Delete this book?', `"${title}" will be removed from the shop.`, 'Delete'))) return;
    try {
      await deletion.mutateAsync(id);
      await alertBox('Book deleted successfully!', undefined, 'success');
    } catch (error) {
      console.error('Delete failed', error);
      await alertBox('Failed to delete book. Please try again.', undefined, 'error');
    }
  };
  const selection = useBookSelection(`${state.q}|${state.sort}|${state.dir}|${state.page}|${state.cursor}`);
  const { selectable, selected, setSelected } = selection;

  if (isPending) return <FullScreenSpinner />;
  if (isError) return <p role="alert" className="text-danger">Could not load the books. Please reload the page.</p>;
  const first = (state.page - 1) * ADMIN_BOOKS_PAGE_SIZE;
  const empty = state.q ? 'No books match your search.' : 'No books yet.';
  const allSelected = data.books.length > 0 && data.books.every((b) => selected.has(b._id));
  // Edit is the row's action; Delete is a quiet text button after it (one click, then the red
  // confirmation), so 25 rows do not show 25 red buttons (issue 29).
  const actions = (book: AdminBooksPage['books'][number]) => (
    <>
      <Link to={`/dashboard/edit-book/${book._id}`} className={buttonClass('secondary', 'sm')}>
        Edit<span className="sr-only"> {book.title}</span>
      </Link>
      {canDelete && (
        <button type="button" onClick={() => remove(book._id, book.title)} className="px-1 py-1 text-sm font-semibold text-danger underline-offset-2 hover:underline">
          Delete<span className="sr-only"> {book.title}</span>
        </button>
      )}
    </>
  );
  return (
    <section className="rounded-lg bg-white shadow">
      <div className="flex items-center justify-between px-4 py-4">
        <h3 className="text-xl font-bold">All Books</h3>
        <button type="button" className={buttonClass('secondary', 'sm')}>See all</button>
      </div>
      <BooksToolbar state={state} text={text} onText={setText} go={go} />
      {state.q && data.total !== undefined && (
        <p className="px-4 pb-2 text-sm text-gray-600" role="status">{data.total} {data.total === 1 ? 'book matches' : 'books match'} &ldquo;{state.q}&rdquo;</p>
      )}
      {selectable && data.books.length > 0 && (
        <div className="flex items-center gap-2 border-t border-gray-100 px-4 py-2 text-sm">
          <input id="select-page" type="checkbox" className="size-4" checked={allSelected} onChange={(e) => setSelected(e.target.checked ? new Set(data.books.map((b) => b._id)) : new Set())} />
          <label htmlFor="select-page">Select all on this page</label>
        </div>
      )}
      {selected.size > 0 && (
        <BulkBar count={selected.size} allowed={selection.bulkActions} busy={selection.busy} onApply={selection.applyBulk} onClear={() => setSelected(new Set())} />
      )}
      <div className={`transition-opacity ${isPlaceholderData ? 'opacity-60' : ''}`} aria-busy={isPlaceholderData}>
        <BookRows books={data.books} first={first} empty={empty} selection={selection} actions={actions} />
      </div>
      <BooksPager state={state} page={data} first={first} />
    </section>
  );
}
