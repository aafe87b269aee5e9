import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { SearchIcon } from '../../../components/ui/icons';
import { useDismiss } from '../../../components/ui/use-dismiss';
import { coverUrl } from '../../../lib/covers';
import { useHydrated } from '../../../lib/use-hydrated';
import { useTypedBeforeStart } from '../../../lib/use-typed-before-start';
import { normaliseQuery, suggestQuery } from '../api/search-books';

const SUGGEST_DELAY_MS = 200;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * Header search: the server's suggestions as you type (200 ms after the last keystroke; a superseded
 * request is cancelled), Up/Down to pick one, Enter to open it, or Enter alone for /search?q=.
 */
export function SearchBox() {
  const listId = useId();
  // What the served field holds when React takes it over (issue 60): disabled until then, but a
  // browser may put back what it held on a reload.
  const [query, setQuery] = useTypedBeforeStart(`${listId}-input`);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const navigate = useNavigate();
  const ref = useRef<HTMLFormElement>(null);
  const hydrated = useHydrated();
  const term = useDebounced(normaliseQuery(query), SUGGEST_DELAY_MS);
  const { data, isFetching, isError } = useQuery({ ...suggestQuery(term), placeholderData: keepPreviousData });
  const typed = normaliseQuery(query) !== '';
  const suggestions = typed && term ? data?.suggestions ?? [] : [];
  const showList = open && typed;
  useDismiss(ref, open, () => setOpen(false));
  // A new term drops the highlighted suggestion (adjusted during render, not in an effect).
  const [activeTerm, setActiveTerm] = useState(term);
  if (activeTerm !== term) {
    setActiveTerm(term);
    setActive(-1);
  }

  const openBook = (id: string) => {
    setOpen(false);
    setActive(-1);
    navigate(`/books/${id}`);
  };

  return (
    <form
      ref={ref}
      role="search"
      className="relative w-full max-w-md"
      onSubmit={(e) => {
        e.preventDefault();
        const chosen = showList ? suggestions[active] : undefined;
        if (chosen) return openBook(chosen._id);
        if (!query.trim()) return;
        setOpen(false);
        navigate(`/search?q=${encodeURIComponent(query.trim())}`);
      }}
    >
      <label htmlFor={`${listId}-input`} className="sr-only">Search books</label>
      <SearchIcon className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-gray-500" />
      <input
        id={`${listId}-input`}
        // A text input: HTML allows role=combobox on it (not on type=search); the form is the search landmark.
        type="text"
        enterKeyHint="search"
        role="combobox"
        // Until React owns it, typing would be lost (StorefrontLayout's fieldset does the same for the page).
        disabled={!hydrated}
        aria-autocomplete="list"
        placeholder="What are you looking for?"
        autoComplete="off"
        value={query}
        aria-controls={listId}
        aria-expanded={showList}
        aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
        onChange={(e) => {
          setQuery(e.target.value);
          setOpen(true);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            if (!suggestions.length) return;
            e.preventDefault();
            setOpen(true);
            const step = e.key === 'ArrowDown' ? 1 : -1;
            // -1 is the input itself; Down from the last suggestion wraps back to it.
            const slots = suggestions.length + 1;
            setActive((i) => ((i + 1 + step + slots) % slots) - 1);
          } else if (e.key === 'Escape') {
            setActive(-1);
          }
        }}
        className="w-full rounded-md bg-gray-100 py-2 pl-9 pr-3 text-sm text-gray-900 placeholder:text-gray-600 focus:bg-white focus:outline-2 focus:outline-secondary"
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Suggestions"
        hidden={!showList}
        // Under the box, as wide as it (on a phone the box spans the screen, on its own row).
        className="absolute inset-x-0 top-full z-40 mt-1 max-h-[70vh] overflow-y-auto rounded-md border border-gray-200 bg-white py-1 shadow-lg md:min-w-80"
      >
        {suggestions.map((book, i) => (
          <li
            key={book._id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            // pointerdown would blur the input first; click still fires and the link-like row opens.
            onClick={() => openBook(book._id)}
            onPointerMove={() => setActive(i)}
            className={`flex cursor-pointer items-center gap-3 px-3 py-2 text-sm ${i === active ? 'bg-gray-100' : ''}`}
          >
            <img src={coverUrl(book.coverImage)} alt="" width={24} height={36} className="h-9 w-6 shrink-0 rounded-sm object-cover" />
            <span className="min-w-0">
              <span className="block truncate font-medium text-gray-900">{book.title}</span>
              <span className="block truncate text-xs text-gray-600">{book.author ?? 'admin'} · {book.category}</span>
            </span>
          </li>
        ))}
        {showList && suggestions.length === 0 && (
          <li role="presentation" className="px-3 py-2 text-sm text-gray-600">
            {isError ? 'Suggestions are unavailable right now' : isFetching || term !== normaliseQuery(query) ? 'Searching...' : 'No books match'}
          </li>
        )}
        {showList && suggestions.length > 0 && (
          <li role="presentation" className="border-t border-gray-100 px-3 py-2 text-xs text-gray-600">
            Press Enter to see all results
          </li>
        )}
      </ul>
    </form>
  );
}
