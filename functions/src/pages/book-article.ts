import type { Book } from '@bookstore/contract';
import { BUNDLED_COVER, LOW_STOCK_THRESHOLD, UPLOADED_COVER } from '@bookstore/contract';
import { escapeHtml as e } from './html';

// The book page's visible part as the web app first renders it (web/src/app/routes/book-detail.tsx:
// same elements and classes, kept in step by hand), filled into the HTML so the title and the cover
// paint before any JavaScript has run. The app's first render replaces it with the same layout.
// Every inserted value is escaped.

/** web/src/lib/covers.ts: our own origin only. */
function coverPath(coverImage: string): string {
  if (BUNDLED_COVER.test(coverImage)) return `/covers/${coverImage.replace(/\.[a-z]+$/, '')}.svg`;
  if (UPLOADED_COVER.test(coverImage)) return `/api/${coverImage}`;
  return '/covers/book-1.svg';
}

const money = (value: number) => `$${value.toFixed(2)}`;

function published(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** web/src/components/ui/stock-badge.tsx */
function stockBadge(stock: number | undefined): string {
  if (stock === undefined || !Number.isFinite(stock) || stock > LOW_STOCK_THRESHOLD) return '';
  const out = stock <= 0;
  const tone = out ? 'bg-gray-200 text-gray-800 ring-gray-300' : 'bg-amber-100 text-amber-900 ring-amber-200';
  return `<span class="flex w-fit items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${tone} text-sm"><span class="size-1.5 rounded-full ${out ? 'bg-gray-600' : 'bg-amber-600'}" aria-hidden="true"></span>${out ? 'Out of stock' : `Only ${stock} left`}</span>`;
}

const CART_ICON = '<svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" class="size-5"><path d="M3 4h2l2.4 11.2a2 2 0 0 0 2 1.6h7.7a2 2 0 0 0 2-1.5L21 8H6.2"></path><circle cx="10" cy="20" r="1.3"></circle><circle cx="17" cy="20" r="1.3"></circle></svg>';

export function bookArticle(book: Book): string {
  const cover = coverPath(book.coverImage);
  const soldOut = book.stock !== undefined && Number.isFinite(book.stock) && book.stock <= 0;
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
    stockBadge(book.stock),
    `<button type="button"${soldOut ? ' disabled=""' : ''} class="inline-flex items-center gap-2 rounded-md bg-primary px-6 py-2 font-semibold text-secondary hover:bg-secondary hover:text-white disabled:cursor-not-allowed disabled:bg-gray-200 disabled:text-gray-600">${CART_ICON} Add to Cart</button>`,
    '</div></div></article>',
  ].join('');
}
