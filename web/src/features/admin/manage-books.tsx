import { stockLevel } from '../../lib/stock';
import { buttonClass, unavailableButtonClass } from '../../components/ui/button';
import { ADMIN_BOOKS_PAGE_SIZE, type AdminBookSort, type AdminBooksPage, type BulkBooks, type Permission } from '@bookstore/contract';
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
import { useBulkBooks } from './api/bulk-books';
import { useDeleteBook } from './api/delete-book';
import { BulkBar } from './components/bulk-bar';
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

const BULK_PERMISSION: Record<BulkBooks['action'], Permission> = { price: 'books.price', stock: 'books.stock', delete: 'books.delete' };

const COLUMNS: Column[] = [{ label: '#' }, { label: 'Book Title' }, { label: 'Category' }, { label: 'Price' }, { label: 'Stock' }, { label: 'Actions' }];

const pager = buttonClass('secondary', 'sm');
const pagerOff = unavailableButtonClass('sm');

/** A book's stock as the table shows it: the count, marked when low (3 or fewer) or out. */
function StockCount({ stock }: { stock: number }) {
  const level = stockLevel(stock);
  if (level.kind === 'out') return <span className="font-semibold text-danger">Out of stock</span>;
  if (level.kind === 'low') return <span className="rounded-full bg-primary-soft px-2 py-0.5 font-semibold text-secondary">{stock} in stock</span>;
  return <span>{stock} in stock</span>;
}

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

  // Bulk selection: this page's books only (a new page, search or sort starts afresh).
  const me = useMe();
  const bulk = useBulkBooks();
  const bulkActions = (['price', 'stock', 'delete'] as const).filter((a) => me.can(BULK_PERMISSION[a]));
  const selectable = bulkActions.length > 0;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const pageKey = `${state.q}|${state.sort}|${state.dir}|${state.page}|${state.cursor}`;
  const [selectedFor, setSelectedFor] = useState(pageKey);
  if (selectedFor !== pageKey) {
    setSelectedFor(pageKey);
    setSelected(new Set());
  }
  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const applyBulk = async (change: BulkBooks) => {
    const ids = [...selected];
    if (change.action === 'delete' && !(await confirmBox(`Delete ${ids.length} ${ids.length === 1 ? 'book' : 'books'}?`, 'They will be removed from the shop. This cannot be undone.', 'Delete'))) return;
    try {
      const answer = await bulk.mutateAsync({ ...change, ids });
      setSelected(new Set());
      await alertBox(answer.message, answer.missing.length ? `${answer.missing.length} had already been deleted.` : undefined, 'success');
    } catch (error) {
      console.error('Bulk change failed', error);
      await alertBox('Could not change the selected books. Please try again.', error instanceof Error ? error.message : undefined, 'error');
    }
  };

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
      <form role="search" onSubmit={(e) => { e.preventDefault(); go({ q: text.trim(), page: 1, cursor: undefined }); }} className="flex flex-col gap-3 border-t border-gray-100 px-4 py-3 sm:flex-row sm:items-end">
        <SearchField
          id="manage-books-search"
          label="Search by title or author"
          className="flex-1"
          inputClassName="focus:outline-accent"
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={100}
          placeholder="Title or author"
        />
        <div>
          <label htmlFor="manage-books-sort" className="mb-1 block text-xs font-semibold text-gray-600">Sort by</label>
          <select
            id="manage-books-sort"
            value={orderOf(state)}
            onChange={(e) => {
              const order = ORDERS.find((o) => o.value === e.target.value)!;
              go({ sort: order.sort, dir: order.dir, page: 1, cursor: undefined });
            }}
            className="w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm focus:outline-2 focus:outline-accent sm:w-52"
          >
            {ORDERS.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
          </select>
        </div>
      </form>
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
        <BulkBar count={selected.size} allowed={bulkActions} busy={bulk.isPending} onApply={applyBulk} onClear={() => setSelected(new Set())} />
      )}
      <div className={`transition-opacity ${isPlaceholderData ? 'opacity-60' : ''}`} aria-busy={isPlaceholderData}>
        {/* Phones: a card per book, every action within the screen's width (issue 26). */}
        <ul aria-label="Books" className="divide-y divide-gray-100 border-t border-gray-100 md:hidden">
          {data.books.length === 0 && <li className="px-4 py-8 text-center text-gray-600">{empty}</li>}
          {data.books.map((book, index) => (
            <li key={book._id} className="flex gap-3 px-4 py-3" aria-labelledby={`card-title-${book._id}`}>
              {selectable && <input type="checkbox" className="mt-1 size-4 shrink-0" checked={selected.has(book._id)} onChange={() => toggle(book._id)} aria-label={`Select ${book.title}`} />}
              <div className="min-w-0 flex-1">
                <p id={`card-title-${book._id}`} className="break-words font-medium">
                  <span className="text-gray-500">{first + index + 1}. </span>{book.title}
                </p>
                {book.author && <p className="break-words text-xs text-gray-600">{book.author}</p>}
                <p className="mt-1 text-sm text-gray-700"><span className="capitalize">{book.category}</span> · {money(book.newPrice)} · <StockCount stock={book.stock} /></p>
                <div className="mt-2 flex flex-wrap items-center gap-4">{actions(book)}</div>
              </div>
            </li>
          ))}
        </ul>
        <div className="relative hidden overflow-x-auto md:block">
          <DataTable columns={selectable ? [{ label: 'Select', className: 'w-16 px-4 py-3' }, ...COLUMNS] : COLUMNS}>
            {data.books.length === 0 && (
              <tr className="border-t border-gray-100">
                <td colSpan={COLUMNS.length + (selectable ? 1 : 0)} className="px-6 py-8 text-center text-gray-600">{empty}</td>
              </tr>
            )}
            {data.books.map((book, index) => (
              <tr key={book._id} className="border-t border-gray-100">
                {selectable && (
                  <td className="px-4 py-3">
                    <input type="checkbox" className="size-4" checked={selected.has(book._id)} onChange={() => toggle(book._id)} aria-label={`Select ${book.title}`} />
                  </td>
                )}
                <td className="px-6 py-3">{first + index + 1}</td>
                <td className="px-6 py-3 font-medium">
                  {book.title}
                  {book.author && <span className="block text-xs font-normal text-gray-600">{book.author}</span>}
                </td>
                <td className="px-6 py-3 capitalize">{book.category}</td>
                <td className="px-6 py-3 tabular-nums">{money(book.newPrice)}</td>
                <td className="px-6 py-3 tabular-nums"><StockCount stock={book.stock} /></td>
                <td className="whitespace-nowrap px-6 py-3"><div className="flex items-center gap-4">{actions(book)}</div></td>
              </tr>
            ))}
          </DataTable>
        </div>
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
