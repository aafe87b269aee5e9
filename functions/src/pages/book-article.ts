import type { Book } from '@bookstore/contract';
import { escapeHtml as e } from './html';
import { cartIcon, coverPath, money, published, soldOut, stockBadge } from './storefront-markup';

// The book page's visible part as the web app first renders it (web/src/app/routes/book-detail.tsx:
// same elements and classes, kept in step by hand), filled into the HTML so the title and the cover
// paint before any JavaScript has run. The app's first render replaces it with the same layout.
// Every inserted value is escaped.

export function bookArticle(book: Book): string {
  const cover = coverPath(book.coverImage);
  return [
    '<article class="mx-auto max-w-4xl py-10">',
    `<h1 class="mb-8 text-3xl font-bold">${e(book.title)}</h1>`,
    '<div class="flex flex-col gap-8 sm:flex-row">',
    `<img src="${e(cover)}" alt="Cover of ${e(book.title)}" width="240" height="360" fetchpriority="high" class="h-90 w-60 shrink-0 self-center rounded-lg object-cover shadow-lg sm:self-start"/>`,
    '<div class="space-y-3">',
    `<p><strong>Author:</strong> ${e(book.author || 'admin')}</p>`,
    `<p><strong>Published:</strong> ${e(published(book.createdAt))}</p>`,
    `<p class="capitalize"><strong>Category:</strong> ${e(book.category)}</p>`,
    `<p class="text-gray-800"><strong>Description:</strong> ${e(book.description)}</p>`,
    `<p class="text-xl font-semibold">${money(book.newPrice)} <span class="ml-2 text-base font-normal text-gray-600 line-through">${money(book.oldPrice)}</span></p>`,
    stockBadge(book.stock, 'text-sm'),
    `<button type="button"${soldOut(book.stock) ? ' disabled=""' : ''} class="inline-flex items-center gap-2 rounded-md bg-primary px-6 py-2 font-semibold text-secondary hover:bg-secondary hover:text-white disabled:cursor-not-allowed disabled:bg-gray-200 disabled:text-gray-600">${cartIcon('size-5')} Add to Cart</button>`,
    '</div></div></article>',
  ].join('');
}
