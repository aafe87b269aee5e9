import { bookJsonLd, coverPath, FALLBACK_COVER_PATH, formatDollars, isAllowedCover, type Book } from '@bookstore/contract';
import type { Book as SchemaBook, WithContext } from 'schema-dts';
import { escapeHtml, scriptJson } from '../../../web/src/server';

// A book page's head for robots and link previews: title, description, canonical URL, Open Graph and
// Twitter tags, JSON-LD (a Book with an Offer). The visible page is the app's own render.

const SHOP_NAME = 'Bookstore';
const DESCRIPTION_LENGTH = 160;

/** Absolute address of a cover, as the web app resolves it (web/src/lib/covers.ts). */
export function absoluteCoverUrl(coverImage: string, origin: string): string {
  if (isAllowedCover(coverImage)) return `${origin}${coverPath(coverImage)}`;
  try {
    const url = new URL(coverImage);
    if (url.protocol === 'https:') return url.href;
  } catch {
    /* not a URL */
  }
  return `${origin}${FALLBACK_COVER_PATH}`;
}

/** The description cut at a word boundary for meta tags (search engines show about 160 characters). */
export function summary(text: string, max = DESCRIPTION_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).trimEnd()}…`;
}

export function bookTitle(book: Book): string {
  return book.author ? `${book.title} by ${book.author} | ${SHOP_NAME}` : `${book.title} | ${SHOP_NAME}`;
}

/** The head tags of a book's page (already escaped). */
export function bookHead(book: Book, origin: string): string[] {
  const url = `${origin}/books/${book._id}`;
  const description = summary(book.description);
  const image = absoluteCoverUrl(book.coverImage, origin);
  // Typed with schema.org's own vocabulary (schema-dts): a property Book does not have, or a value
  // of the wrong type, fails the typecheck; book-page.test.ts checks the values.
  const jsonLd: WithContext<SchemaBook> = {
    '@context': 'https://schema.org',
    '@type': 'Book',
    '@id': url,
    // Each field's own mapping (name, alternativeHeadline, author, isbn, ...): the book's field registry.
    ...bookJsonLd(book),
    image,
    url,
    offers: {
      '@type': 'Offer',
      price: formatDollars(book.newPrice),
      priceCurrency: 'USD',
      availability: book.stock > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      url,
    },
  };
  const meta = (attr: 'name' | 'property', key: string, value: string) => `<meta ${attr}="${key}" content="${escapeHtml(value)}">`;
  return [
    meta('name', 'description', description),
    `<link rel="canonical" href="${escapeHtml(url)}">`,
    meta('property', 'og:type', 'book'),
    meta('property', 'og:site_name', SHOP_NAME),
    meta('property', 'og:title', book.title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
    meta('property', 'og:image', image),
    meta('property', 'og:image:alt', `Cover of ${book.title}`),
    ...(book.isbn ? [meta('property', 'book:isbn', book.isbn)] : []),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', book.title),
    meta('name', 'twitter:description', description),
    meta('name', 'twitter:image', image),
    `<script type="application/ld+json">${scriptJson(jsonLd)}</script>`,
  ];
}
