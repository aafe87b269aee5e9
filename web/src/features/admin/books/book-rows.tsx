import type { AdminBooksPage } from '@bookstore/contract';
import type { ReactNode } from 'react';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { money } from '../../../lib/format';
import { stockLevel } from '../../../lib/stock';
import type { BookSelection } from './use-book-selection';

type AdminBook = AdminBooksPage['books'][number];

const COLUMNS: Column[] = [{ label: '#' }, { label: 'Book Title' }, { label: 'Category' }, { label: 'Price' }, { label: 'Stock' }, { label: 'Actions' }];

/** A book's stock as the table shows it: the count, marked when low (3 or fewer) or out. */
function StockCount({ stock }: { stock: number }) {
  const level = stockLevel(stock);
  if (level.kind === 'out') return <span className="font-semibold text-danger">Out of stock</span>;
  if (level.kind === 'low') return <span className="rounded-full bg-primary-soft px-2 py-0.5 font-semibold text-secondary">{stock} in stock</span>;
  return <span>{stock} in stock</span>;
}

/** One page of books: a card per book on phones (every action within the screen, issue 26), a table from tablets. */
export function BookRows({ books, first, empty, selection, actions }: {
  books: AdminBook[]; first: number; empty: string; selection: BookSelection; actions: (book: AdminBook) => ReactNode;
}) {
  const { selectable, selected, toggle } = selection;
  const select = (book: AdminBook, className: string) => (
    <input type="checkbox" className={className} checked={selected.has(book._id)} onChange={() => toggle(book._id)} aria-label={`Select ${book.title}`} />
  );
  return (
    <>
      <ul aria-label="Books" className="divide-y divide-gray-100 border-t border-gray-100 md:hidden">
        {books.length === 0 && <li className="px-4 py-8 text-center text-gray-600">{empty}</li>}
        {books.map((book, index) => (
          <li key={book._id} className="flex gap-3 px-4 py-3" aria-labelledby={`card-title-${book._id}`}>
            {selectable && select(book, 'mt-1 size-4 shrink-0')}
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
          {books.length === 0 && (
            <tr className="border-t border-gray-100">
              <td colSpan={COLUMNS.length + (selectable ? 1 : 0)} className="px-6 py-8 text-center text-gray-600">{empty}</td>
            </tr>
          )}
          {books.map((book, index) => (
            <tr key={book._id} className="border-t border-gray-100">
              {selectable && <td className="px-4 py-3">{select(book, 'size-4')}</td>}
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
    </>
  );
}
