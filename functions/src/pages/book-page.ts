import { formatDollars, type Book } from '@bookstore/contract';
import { BOOK_DATA_ELEMENT_ID, coverPath, FALLBACK_COVER_PATH, isAllowedCover } from '@bookstore/contract';
import { bookArticle } from './book-article';
import { escapeHtml, scriptJson } from './html';

// A book's page as served to robots, link previews and first visits: the web build's book frame
// (header and footer, shell.ts) with the book's article in it (book-article.ts), the book's title,
// description, canonical URL, Open Graph and Twitter tags, JSON-LD (Book with an Offer) and the
// book itself as JSON, so the app renders it without another request.

/** Where the web build's book frame (web/prerender.ts, _book.html) leaves room for the article. */
const BOOK_SLOT = '<div data-slot="book"></div>';
const EMPTY_ROOT = '<div id="root"></div>';

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

function setTitle(html: string, title: string): string {
  return html.replace(/<title>[\s\S]*?<\/title>/, () => `<title>${escapeHtml(title)}</title>`);
}

function withoutDescription(html: string): string {
  return html.replace(/\s*<meta name="description"[^>]*>/, '');
}

function intoHead(html: string, tags: string[]): string {
  return html.replace('</head>', () => `  ${tags.join('\n    ')}\n  </head>`);
}

export function renderBookPage(shell: string, book: Book, origin: string): string {
  const url = `${origin}/books/${book._id}`;
  const title = book.author ? `${book.title} by ${book.author} | ${SHOP_NAME}` : `${book.title} | ${SHOP_NAME}`;
  const description = summary(book.description);
  const image = absoluteCoverUrl(book.coverImage, origin);
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Book',
    '@id': url,
    name: book.title,
    ...(book.author ? { author: { '@type': 'Person', name: book.author } } : {}),
    ...(book.isbn ? { isbn: book.isbn } : {}),
    description: book.description,
    genre: book.category,
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
  const meta = (attr: 'name' | 'property', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`;
  const tags = [
    meta('name', 'description', description),
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
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
    `<script type="application/json" id="${BOOK_DATA_ELEMENT_ID}">${scriptJson(book)}</script>`,
  ];
  // The preload scanner finds the cover in the article; the head's hint makes it the first image
  // asked for (the same address as the article's <img>).
  const cover = `<link rel="preload" as="image" href="${escapeHtml(coverPath(book.coverImage))}" fetchpriority="high" />`;
  return intoHead(setTitle(withoutDescription(withArticle(shell, book)), title), [cover, ...tags]);
}

/** The article into the frame's slot; into an empty root when the shell is the plain one. */
function withArticle(shell: string, book: Book): string {
  const article = bookArticle(book);
  if (shell.includes(BOOK_SLOT)) return shell.replace(BOOK_SLOT, () => article);
  return shell.replace(EMPTY_ROOT, () => `<div id="root">${article}</div>`);
}

/** The shell for an unknown book: the app shows its not-found page; robots are asked not to index it. */
export function renderNotFoundPage(shell: string): string {
  return intoHead(setTitle(shell, `Page not found | ${SHOP_NAME}`), ['<meta name="robots" content="noindex" />']);
}
