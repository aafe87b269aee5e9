import type { AdminBookSort } from '@bookstore/contract';
import { SearchField } from '../../../components/ui/search-field';
import type { AdminBooksState } from '../api/admin-books';

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

/** Manage Books' search (by title or author, as typed) and sort; each starts again from page 1. */
export function BooksToolbar({ state, text, onText, go }: {
  state: AdminBooksState; text: string; onText: (text: string) => void; go: (next: Partial<AdminBooksState>) => void;
}) {
  return (
    <form role="search" onSubmit={(e) => { e.preventDefault(); go({ q: text.trim(), page: 1, cursor: undefined }); }} className="flex flex-col gap-3 border-t border-gray-100 px-4 py-3 sm:flex-row sm:items-end">
      <SearchField
        id="manage-books-search"
        label="Search by title or author"
        className="flex-1"
        inputClassName="focus:outline-accent"
        value={text}
        onChange={(e) => onText(e.target.value)}
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
  );
}
