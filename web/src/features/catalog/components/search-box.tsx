import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { SearchIcon } from '../../../components/ui/icons';
import { useDismiss } from '../../../components/ui/use-dismiss';
import { coverUrl } from '../../../lib/covers';
import { booksQuery } from '../api/get-books';
import { matchBooks } from '../search';

/** Header search: suggestions as you type (the list loads on first focus), Enter for /search?q=. */
export function SearchBox() {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(false);
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const ref = useRef<HTMLFormElement>(null);
  const listId = useId();
  const { data: books = [] } = useQuery({ ...booksQuery(), enabled: active });
  const matches = matchBooks(books, query).slice(0, 6);
  useDismiss(ref, open, () => setOpen(false));

  return (
    <form
      ref={ref}
      role="search"
      className="relative w-full max-w-md"
      onSubmit={(e) => {
        e.preventDefault();
        if (!query.trim()) return;
        setOpen(false);
        navigate(`/search?q=${encodeURIComponent(query.trim())}`);
      }}
    >
      <label htmlFor={`${listId}-input`} className="sr-only">Search books</label>
      <SearchIcon className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-gray-500" />
      <input
        id={`${listId}-input`}
        type="search"
        role="combobox"
        aria-autocomplete="list"
        placeholder="What are you looking for?"
        autoComplete="off"
        value={query}
        aria-controls={listId}
        aria-expanded={open && query.trim() !== ''}
        onFocus={() => setActive(true)}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(true);
          setOpen(true);
        }}
        className="w-full rounded-md bg-[#EAEAEA] py-2 pl-9 pr-3 text-sm text-gray-900 placeholder:text-gray-600 focus:bg-white focus:outline-2 focus:outline-secondary"
      />
      {open && query.trim() !== '' && (
        <ul id={listId} className="absolute left-0 right-0 top-full z-40 mt-1 overflow-hidden rounded-md border border-gray-200 bg-white shadow-lg">
          {matches.length === 0 ? (
            <li className="px-3 py-2 text-sm text-gray-600">{books.length ? 'No books match' : 'Searching...'}</li>
          ) : (
            matches.map((book) => (
              <li key={book._id}>
                <Link
                  to={`/books/${book._id}`}
                  onClick={() => setOpen(false)}
                  className="flex items-center gap-3 px-3 py-2 text-sm hover:bg-gray-100 focus:bg-gray-100"
                >
                  <img src={coverUrl(book.coverImage)} alt="" width={24} height={36} className="h-9 w-6 rounded-sm object-cover" />
                  <span>
                    <span className="block font-medium text-gray-900">{book.title}</span>
                    <span className="block text-xs text-gray-600">{book.author ?? 'admin'} · {book.category}</span>
                  </span>
                </Link>
              </li>
            ))
          )}
        </ul>
      )}
    </form>
  );
}
