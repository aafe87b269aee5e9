import { truncate, type Book } from '@bookstore/contract';
import { escapeHtml as e } from './html';
import { cartIcon, chevronLeft, chevronRight, coverPath, money, soldOut, stockBadge } from './storefront-markup';

// /books's first page of cards and its pagination as the web app renders them (web/src/features/
// catalog/components/book-card.tsx, browse/browse-page.tsx and browse-pagination.tsx: same elements
// and classes, kept in step by hand). Every inserted value is escaped.

/** web/src/features/catalog/components/book-card.tsx; the first three covers load at once. */
function bookCard(book: Book, eager: boolean): string {
  const href = `/books/${encodeURIComponent(book._id)}`;
  return [
    '<article class="flex h-full flex-col gap-4 rounded-lg p-1 sm:flex-row sm:items-center sm:gap-6">',
    `<a class="shrink-0 self-center sm:self-auto" href="${e(href)}">`,
    `<img src="${e(coverPath(book.coverImage))}" alt="Cover of ${e(book.title)}" width="144" height="216" loading="${eager ? 'eager' : 'lazy'}" decoding="async" class="h-54 w-36 rounded-md object-cover shadow-md transition duration-200 hover:scale-105"/>`,
    '</a><div class="flex min-w-0 flex-1 flex-col">',
    `<h3 class="text-lg font-semibold leading-snug"><a class="hover:text-blue-700 hover:underline" href="${e(href)}">${e(book.title)}</a></h3>`,
    `<p class="mt-2 text-sm text-gray-700">${e(truncate(book.description))}</p>`,
    `<p class="mt-3 font-medium">${money(book.newPrice)} <span class="ml-2 font-normal text-gray-600 line-through">${money(book.oldPrice)}</span></p>`,
    stockBadge(book.stock, 'mt-2'),
    `<button type="button"${soldOut(book.stock) ? ' disabled=""' : ''} class="mt-4 inline-flex w-fit items-center gap-2 rounded-md bg-primary px-5 py-2 text-sm font-semibold text-secondary hover:bg-secondary hover:text-white disabled:cursor-not-allowed disabled:bg-gray-200 disabled:text-gray-600">`,
    `${cartIcon('size-4')}Add to Cart<span class="sr-only">: ${e(book.title)}</span></button>`,
    '</div></article>',
  ].join('');
}

const BUTTON = 'inline-flex items-center gap-1 rounded-md border border-gray-300 bg-white px-4 py-2 text-sm font-semibold text-gray-900 hover:bg-gray-100';
const DISABLED = 'inline-flex items-center gap-1 rounded-md border border-gray-200 px-4 py-2 text-sm font-semibold text-gray-500';

/** browse-pagination.tsx on page 1: no Previous; Next carries the server's cursor (browse-params.ts). */
function firstPagePagination(nextCursor: string | null): string {
  const next = nextCursor
    ? `<a class="${BUTTON}" rel="next" href="/books?${e(new URLSearchParams({ page: '2', cursor: nextCursor }).toString())}">Next${chevronRight('size-4')}</a>`
    : `<span class="${DISABLED}" aria-disabled="true">Next${chevronRight('size-4')}</span>`;
  return [
    '<nav aria-label="Pagination" class="mt-12 flex items-center justify-between gap-4 border-t border-gray-200 pt-6">',
    `<span class="${DISABLED}" aria-disabled="true">${chevronLeft('size-4')}Previous</span>`,
    '<p class="text-sm text-gray-700">Page 1</p>',
    next,
    '</nav>',
  ].join('');
}

/** The grid of browse-page.tsx and its pagination, for the first page of the default browse. */
export function firstBooksPage(books: Book[], nextCursor: string | null): string {
  const items = books.map((book, i) => `<li class="[contain-intrinsic-block-size:auto_420px] [content-visibility:auto]">${bookCard(book, i < 3)}</li>`).join('');
  return `<ul class="grid gap-8 md:grid-cols-2 carousel:grid-cols-3" aria-label="Books">${items}</ul>${firstPagePagination(nextCursor)}`;
}
