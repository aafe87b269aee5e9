import { BOOKS_PAGE_DATA_ELEMENT_ID, BOOKS_SLOT_END, BOOKS_SLOT_START, type Book, type BooksPage } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import { renderBooksPage } from './books-page';

const SKELETONS = '<div role="status" aria-label="Loading books"><div class="animate-pulse"></div></div>';
/** The web build's /books frame: the skeleton grid between the slot markers (web/src/prerender.tsx). */
const FRAME = `<!doctype html><html><head><title>Browse books</title></head><body><div id="root"><h1>All books</h1>${BOOKS_SLOT_START}${SKELETONS}${BOOKS_SLOT_END}<footer>Shop</footer></div></body></html>`;

const book = (over: Partial<Book>): Book => ({
  _id: 'b1',
  title: 'Plain',
  description: 'x'.repeat(100),
  category: 'fiction',
  trending: false,
  coverImage: 'book-3',
  oldPrice: 20,
  newPrice: 7.5,
  stock: 10,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

const page: BooksPage = {
  books: [
    book({ _id: 'b1' }),
    book({ _id: 'b2', title: '</script><script>alert(1)</script> & "Q"', description: '<img src=x onerror=alert(1)>\u2028', stock: 0 }),
    book({ _id: 'b3', stock: 2 }),
    book({ _id: 'b4' }),
  ],
  nextCursor: 'abc_-123',
  prevCursor: null,
};

describe('renderBooksPage', () => {
  const html = renderBooksPage(FRAME, page);

  it('puts the cards where the skeletons were, around them the frame as built', () => {
    expect(html).not.toContain('Loading books');
    expect(html).not.toContain(BOOKS_SLOT_START);
    expect(html).toMatch(/<h1>All books<\/h1><ul class="grid[^"]*" aria-label="Books">/);
    expect(html.match(/<li /g)).toHaveLength(4);
    expect(html).toContain('</nav><footer>Shop</footer>');
  });

  it('draws each card as book-card.tsx does: cover, title link, cut description, prices, stock, button', () => {
    expect(html).toContain('<a class="shrink-0 self-center sm:self-auto" href="/books/b1"><img src="/covers/book-3.svg" alt="Cover of Plain" width="144" height="216" loading="eager"');
    expect(html).toContain(`<p class="mt-2 text-sm text-gray-700">${'x'.repeat(80)}...</p>`);
    expect(html).toContain('$7.50 <span class="ml-2 font-normal text-gray-600 line-through">$20.00</span>');
    expect(html).toContain('Only 2 left');
    expect(html).toContain('Out of stock');
    expect(html.match(/<button type="button" disabled=""/g)).toHaveLength(1); // the sold-out one
    expect(html.match(/loading="eager"/g)).toHaveLength(3); // the first row; the rest wait for scrolling
  });

  it('escapes every inserted text and embeds the page as inert JSON the app reads back', () => {
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Q&quot;');
    const open = `<script type="application/json" id="${BOOKS_PAGE_DATA_ELEMENT_ID}">`;
    const start = html.indexOf(open) + open.length;
    expect(html.indexOf(open)).toBeLessThan(html.indexOf('</head>'));
    expect(JSON.parse(html.slice(start, html.indexOf('</script>', start)))).toEqual(page);
  });

  it("links Next to page 2 with the server's cursor; Previous is not a link on page 1", () => {
    expect(html).toContain('rel="next" href="/books?page=2&amp;cursor=abc_-123"');
    expect(html).toMatch(/<span class="[^"]*" aria-disabled="true"><svg[^>]*>.*?<\/svg>Previous<\/span>/);
    const last = renderBooksPage(FRAME, { ...page, nextCursor: null });
    expect(last).not.toContain('rel="next"');
    expect(last).toMatch(/aria-disabled="true">Next<svg/);
  });

  it('leaves a frame without the slot as it is (the app fetches the books)', () => {
    const plain = '<html><head></head><body><div id="root"></div></body></html>';
    expect(renderBooksPage(plain, page)).toBe(plain);
  });
});
