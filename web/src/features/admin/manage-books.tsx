import { ADMIN_BOOKS_PAGE_SIZE, type AdminBookSort } from '@bookstore/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ChevronLeft, ChevronRight } from '../../components/ui/icons';
import { DataTable, type Column } from '../../components/ui/data-table';
import { SearchField } from '../../components/ui/search-field';
import { FullScreenSpinner } from '../../components/ui/spinner';
import { money } from '../../lib/format';
import { alertBox, confirmBox } from '../../lib/notify';
import { adminBooksQuery, parseAdminBooksParams, toAdminBooksSearch, type AdminBooksState } from './api/admin-books';
import { useDeleteBook } from './api/delete-book';
import { useMe } from './api/staff-api';

const ORDERS: { value: string; label: string; sort: AdminBookSort; dir?: 'asc' | 'desc' }[] = [
  { value: 'date', label: 'Newest first', sort: 'date' },
  { value: 'date-asc', label: 'Oldest first', sort: 'date', dir: 'asc' },
  { value: 'title', label: 'Title A-Z', sort: 'title' },
  { value: 'title-desc', label: 'Title Z-A', sort: 'title', dir: 'desc' },
  { value: 'price', label: 'Price: low to high', sort: 'price' },
  { value: 'price-desc', label: 'Price: high to low', sort: 'price', dir: 'desc' },
];
const orderOf = (state: AdminBooksState) =>
  ORDERS.find((o) => o.sort === state.sort && (o.dir ?? (o.sort === 'date' ? 'desc' : 'asc')) === (state.dir ?? (state.sort === 'date' ? 'desc' : 'asc')))?.value ?? 'date';

const COLUMNS: Column[] = [{ label: '#' }, { label: 'Book Title' }, { label: 'Category' }, { label: 'Price' }, { label: 'Actions' }];

const pager = 'inline-flex items-center gap-1 rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm font-medium text-gray-800 hover:bg-gray-50';
const pagerOff = 'inline-flex items-center gap-1 rounded-md border border-gray-200 px-3 py-1.5 text-sm font-medium text-gray-500';

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

  if (isPending) return <FullScreenSpinner />;
  if (isError) return <p role="alert" className="text-red-700">Could not load the books. Please reload the page.</p>;
  const first = (state.page - 1) * ADMIN_BOOKS_PAGE_SIZE;
  return (
    <section className="rounded-lg bg-white shadow">
      <div className="flex items-center justify-between px-4 py-4">
        <h3 className="text-base font-semibold">All Books</h3>
        <button type="button" className="rounded bg-indigo-600 px-3 py-1 text-xs font-bold uppercase text-white">See all</button>
      </div>
      <form role="search" onSubmit={(e) => { e.preventDefault(); go({ q: text.trim(), page: 1, cursor: undefined }); }} className="flex flex-col gap-3 border-t border-gray-100 px-4 py-3 sm:flex-row sm:items-end">
        <SearchField
          id="manage-books-search"
          label="Search by title or author"
          className="flex-1"
          inputClassName="focus:outline-indigo-600"
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={100}
          placeholder="Title or author"
        />
        <div>
          <label htmlFor="manage-books-sort" className="mb-1 block text-xs font-semibold uppercase text-gray-600">Sort by</label>
          <select
            id="manage-books-sort"
            value={orderOf(state)}
            onChange={(e) => {
              const order = ORDERS.find((o) => o.value === e.target.value)!;
              go({ sort: order.sort, dir: order.dir, page: 1, cursor: undefined });
            }}
            className="w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm focus:outline-2 focus:outline-indigo-600 sm:w-52"
          >
            {ORDERS.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
          </select>
        </div>
      </form>
      {state.q && data.total !== undefined && (
        <p className="px-4 pb-2 text-sm text-gray-600" role="status">{data.total} {data.total === 1 ? 'book matches' : 'books match'} &ldquo;{state.q}&rdquo;</p>
      )}
      <div className={`relative overflow-x-auto transition-opacity ${isPlaceholderData ? 'opacity-60' : ''}`} aria-busy={isPlaceholderData}>
        <DataTable columns={COLUMNS}>
          {data.books.length === 0 && (
            <tr className="border-t border-gray-100">
              <td colSpan={COLUMNS.length} className="px-6 py-8 text-center text-gray-600">{state.q ? 'No books match your search.' : 'No books yet.'}</td>
            </tr>
          )}
          {data.books.map((book, index) => (
            <tr key={book._id} className="border-t border-gray-100">
              <td className="px-6 py-3">{first + index + 1}</td>
              <td className="px-6 py-3 font-medium">
                {book.title}
                {book.author && <span className="block text-xs font-normal text-gray-600">{book.author}</span>}
              </td>
              <td className="px-6 py-3 capitalize">{book.category}</td>
              <td className="px-6 py-3">{money(book.newPrice)}</td>
              <td className="space-x-4 whitespace-nowrap px-6 py-3">
                <Link to={`/dashboard/edit-book/${book._id}`} className="font-medium text-indigo-700 hover:underline">
                  Edit<span className="sr-only"> {book.title}</span>
                </Link>
                {canDelete && (
                  <button type="button" onClick={() => remove(book._id, book.title)} className="rounded-full bg-red-600 px-4 py-1 font-medium text-white hover:bg-red-700">
                    Delete<span className="sr-only"> {book.title}</span>
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      </div>
      {(state.page > 1 || data.nextCursor) && (
        <nav aria-label="Pagination" className="flex items-center justify-between gap-4 border-t border-gray-100 px-4 py-3">
          {state.page > 1 ? (
            <Link to={`/dashboard/manage-books${toAdminBooksSearch({ ...state, page: state.page - 1, cursor: data.prevCursor ?? undefined })}`} className={pager} rel="prev">
              <ChevronLeft className="size-4" />Previous
            </Link>
          ) : (
            <span className={pagerOff} aria-disabled="true"><ChevronLeft className="size-4" />Previous</span>
          )}
          <p className="text-sm text-gray-600">
            Books {first + 1}–{first + data.books.length}
          </p>
          {data.nextCursor ? (
            <Link to={`/dashboard/manage-books${toAdminBooksSearch({ ...state, page: state.page + 1, cursor: data.nextCursor })}`} className={pager} rel="next">
              Next<ChevronRight className="size-4" />
            </Link>
          ) : (
            <span className={pagerOff} aria-disabled="true">Next<ChevronRight className="size-4" /></span>
          )}
        </nav>
      )}
    </section>
  );
}
