import type { Book, BooksPage } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import { htmlDocument, renderPage, type Loaders, type Manifest } from '../../../web/src/server';
import { jsonLdOf, schemaOrgBookProblems } from '../../test/schema-org-book';
import { absoluteCoverUrl, bookHead, summary } from './book-page';

// The pages function's render: the web app's route components with the repositories' data
// (here, fixed loaders), the book's head tags, the document around them.

const book: Book = {
  _id: 'abc123',
  title: '</script><script>alert(1)</script>',
  author: 'Zoë "Z" Brontë',
  description: 'A <b>bold</b> tale\u2028 & more.',
  category: 'fiction',
  trending: false,
  coverImage: 'covers/0123456789abcdef0123456789abcdef.png',
  oldPrice: 20,
  newPrice: 7.5,
  stock: 0,
  createdAt: '2026-01-02T01:00:00.000Z',
  updatedAt: '2026-01-02T01:00:00.000Z',
};
const page: BooksPage = { books: [book], nextCursor: 'abc_-123', prevCursor: null };
const shelf: Book[] = Array.from({ length: 16 }, (_, i) => ({ ...book, _id: `home${i}`, title: `Shelf Book ${i}`, stock: i === 0 ? 0 : 5 }));
const loaders: Loaders = { book: async (id) => (id === book._id ? book : null), browse: async () => page, books: async () => shelf };
const manifest: Manifest = {
  'index.html': { file: 'assets/index.js', css: ['assets/index.css'], imports: ['_react.js'] },
  '_react.js': { file: 'assets/react.js' },
  'src/app/routes/book-detail.tsx': { file: 'assets/book-detail.js', imports: ['_react.js'] },
  'src/app/routes/home.tsx': { file: 'assets/home.js', imports: ['_react.js'] },
};
const stateOf = (html: string) => JSON.parse(html.slice(html.indexOf('<script type="application/json" id="query-state">') + 49, html.indexOf('</script>', html.indexOf('id="query-state"'))));

/** A book with every detail of the edition (issue 26). */
const detailed: Book = {
  ...book,
  _id: 'full1',
  title: 'The Lantern Keeper\'s Atlas',
  author: 'Imogen Hale',
  description: 'Maps of quiet coasts.',
  isbn: '9780306406157',
  publisher: 'Harbour Light Press',
  publishedOn: '2004-03-05',
  pages: 1288,
  format: 'hardcover',
  language: 'en-GB',
  stock: 4,
};

describe('the home page (issue 38)', () => {
  it('carries the newest books in its first HTML, with Add to Cart, and the list once as state', async () => {
    const rendered = await renderPage('/', loaders);
    expect(rendered.status).toBe(200);
    expect(rendered.partial).toBe(false);
    expect(rendered.routeModule).toBe('home');
    const topSellers = rendered.html.slice(rendered.html.indexOf('id="top-sellers"'), rendered.html.indexOf('id="recommended"'));
    // Top Sellers: the 12 newest; Recommended: the 9th to the 16th.
    for (let i = 0; i < 12; i++) expect(topSellers).toContain(`>Shelf Book ${i}</a>`);
    expect(topSellers).not.toContain('Shelf Book 12<');
    expect(rendered.html.slice(rendered.html.indexOf('id="recommended"'))).toContain('>Shelf Book 15</a>');
    expect(topSellers).not.toContain('Loading books');
    expect(topSellers.match(/Add to Cart/g)).toHaveLength(12);
    const html = htmlDocument(manifest, { title: rendered.title, root: rendered.html, state: rendered.state, routeModule: rendered.routeModule });
    const state = stateOf(html) as { queries: { queryKey: unknown[]; state: { data: Book[] } }[] };
    expect(state.queries.map((q) => q.queryKey)).toEqual([['books', { limit: 16 }]]);
    expect(state.queries[0]!.state.data.map((b) => b._id)).toEqual(shelf.map((b) => b._id));
    expect(html).toContain('data-preload="/assets/react.js /assets/home.js"');
  });

  it('draws its skeletons, marked partial (not for a cache), when the list cannot be read', async () => {
    const rendered = await renderPage('/', { ...loaders, books: async () => { throw new Error('Firestore unavailable'); } });
    expect(rendered.status).toBe(200);
    expect(rendered.partial).toBe(true);
    expect(rendered.html).toContain('Loading books');
    expect(rendered.html).not.toContain('Add to Cart<span class="sr-only">'); // the skeletons' invisible label only
    expect((rendered.state as { queries: unknown[] }).queries).toEqual([]);
  });
});

describe('a book page with every detail (issue 26)', () => {
  it('lists the details, formatted in the shop\'s locale', async () => {
    const rendered = await renderPage('/books/full1', { ...loaders, book: async () => detailed });
    const text = rendered.html.replace(/<[^>]+>/g, '|');
    expect(rendered.html).toContain('<h2 id="book-details-heading"');
    for (const [term, value] of [['ISBN', '9780306406157'], ['Publisher', 'Harbour Light Press'], ['Publication date', 'March 5, 2004'], ['Pages', '1,288'], ['Format', 'Hardcover'], ['Language', 'British English']]) {
      expect(text).toContain(`|${term}||${value}|`);
    }
  });

  it('leaves the list out when the book has no details', async () => {
    const bare = { ...book, isbn: undefined };
    const rendered = await renderPage('/books/abc123', { ...loaders, book: async () => bare });
    expect(rendered.html).not.toContain('Book details');
  });

  it('has JSON-LD with isbn, numberOfPages, bookFormat, inLanguage, publisher and datePublished, valid for schema.org\'s Book', () => {
    const [ld] = jsonLdOf(bookHead(detailed, 'https://shop.example').join('\n'));
    expect(ld).toMatchObject({
      '@type': 'Book',
      isbn: '9780306406157',
      numberOfPages: 1288,
      bookFormat: 'https://schema.org/Hardcover',
      inLanguage: 'en-GB',
      publisher: { '@type': 'Organization', name: 'Harbour Light Press' },
      datePublished: '2004-03-05',
    });
    expect(schemaOrgBookProblems(ld!)).toEqual([]);
    // The check itself refuses what schema.org does not allow on a Book.
    expect(schemaOrgBookProblems({ ...ld, numberOfPages: '1288', bookFormat: 'Hardcover', pageCount: 3 })).toHaveLength(3);
  });
});

describe('a book page', () => {
  it('is the app\'s book-detail render with the book, escaped, and its state for hydration', async () => {
    const rendered = await renderPage('/books/abc123', loaders);
    expect(rendered.status).toBe(200);
    expect(rendered.routeModule).toBe('book-detail');
    expect(rendered.html).toMatch(/<h1 class="[^"]*">&lt;\/script&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;<\/h1>/); // escaped, whatever the layout's classes
    expect(rendered.html).toContain('A &lt;b&gt;bold&lt;/b&gt; tale\u2028 &amp; more.');
    expect(rendered.html).toContain('January 2, 2026'); // the shop's zone (contract/src/locale.ts)
    expect(rendered.html).toContain('Out of stock');
    expect(rendered.hints.join('')).toContain('/api/covers/0123456789abcdef0123456789abcdef.png');
    const html = htmlDocument(manifest, { title: 'T', head: bookHead(book, 'https://shop.example'), routeModule: rendered.routeModule, root: rendered.html, state: rendered.state });
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toMatch(/<script data-entry="\/assets\/index\.js" data-preload="[^"]*\/assets\/book-detail\.js[^"]*">\(function\(\)/);
    expect(html.match(/name="description"/g)).toHaveLength(1);
    const state = stateOf(html);
    expect(state.queries).toHaveLength(1);
    expect(state.queries[0].state.data).toEqual(book);
  });

  it('answers 404 for an unknown book, with the app\'s not-found text', async () => {
    const rendered = await renderPage('/books/nope', loaders);
    expect(rendered.status).toBe(404);
    expect(rendered.html).toContain('Error loading book info...');
  });

  it('carries canonical, Open Graph and an Offer', () => {
    const head = bookHead(book, 'https://shop.example').join('\n');
    expect(head).toContain('<link rel="canonical" href="https://shop.example/books/abc123">');
    expect(head).toContain('<meta property="og:image" content="https://shop.example/api/covers/0123456789abcdef0123456789abcdef.png">');
    const ld = JSON.parse(head.slice(head.indexOf('<script type="application/ld+json">') + 35, head.lastIndexOf('</script>')));
    expect(ld.offers).toMatchObject({ price: '7.50', priceCurrency: 'USD', availability: 'https://schema.org/OutOfStock' });
    expect(ld.name).toBe(book.title);
  });

  it('resolves covers and trims descriptions at a word', () => {
    expect(absoluteCoverUrl('book-3', 'https://s.x')).toBe('https://s.x/covers/book-3.svg');
    expect(absoluteCoverUrl('javascript:alert(1)', 'https://s.x')).toBe('https://s.x/covers/book-1.svg');
    expect(summary('word '.repeat(100)).length).toBeLessThanOrEqual(160);
    expect(summary('word '.repeat(100)).endsWith('word…')).toBe(true);
  });
});

describe('/books', () => {
  it('renders the first page of books as the browse page\'s cards, and pagination with the cursor', async () => {
    const rendered = await renderPage('/books', loaders);
    expect(rendered.status).toBe(200);
    expect(rendered.html).toContain('aria-label="Books"');
    expect(rendered.html).toContain('href="/books/abc123"');
    expect(rendered.html).toContain('rel="next" href="/books?page=2&amp;cursor=abc_-123"');
    expect(rendered.html).not.toContain('Loading books');
  });

  it('renders skeletons when the browse refuses the query (the browser then shows the API\'s error)', async () => {
    const refusing: Loaders = { ...loaders, browse: async () => Promise.reject(Object.assign(new Error('bad'), { status: 400 })) };
    const rendered = await renderPage('/books?cursor=bad', refusing);
    expect(rendered.html).toContain('Loading books');
  });
});
