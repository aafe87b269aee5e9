import { BOOKS_PAGE_DATA_ELEMENT_ID, BOOKS_SLOT_END, BOOKS_SLOT_START, type BooksPage } from '@bookstore/contract';
import { firstBooksPage } from './books-grid';
import { scriptJson } from './html';

// /books as served: the web build's browse page (web/prerender.ts writes _books.html, its skeleton
// grid between the slot markers). The default browse's first page is filled in as cards and
// embedded as JSON, so the books paint before any JavaScript and the app starts from them; any
// other /books?... keeps its skeletons and the app fetches what the URL asks (contract: catalog.ts).

/** The frame with the first page of books in its slot and that page as JSON for the app. */
export function renderBooksPage(frame: string, page: BooksPage): string {
  const start = frame.indexOf(BOOKS_SLOT_START);
  const end = frame.indexOf(BOOKS_SLOT_END);
  if (start < 0 || end < start) return frame; // a frame without the slot: the app fetches, as before
  const data = `<script type="application/json" id="${BOOKS_PAGE_DATA_ELEMENT_ID}">${scriptJson(page)}</script>`;
  const filled = `${frame.slice(0, start)}${firstBooksPage(page.books, page.nextCursor)}${frame.slice(end + BOOKS_SLOT_END.length)}`;
  return filled.replace('</head>', () => `  ${data}\n  </head>`);
}
