import type { Book } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import { absoluteCoverUrl, renderBookPage, renderNotFoundPage, summary } from './book-page';

const SHELL = `<!doctype html><html lang="en"><head><title>Bookstore</title>
<meta name="description" content="Shop" /></head><body><div id="root"></div></body></html>`;
/** The web build's book frame: header and footer around the slot (web/prerender.ts). */
const FRAME = SHELL.replace('<div id="root"></div>', '<div id="root"><header>Shop</header><main><div data-slot="book"></div></main></div>');

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
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const between = (html: string, open: string) => html.slice(html.indexOf(open) + open.length, html.indexOf('</script>', html.indexOf(open)));

describe('renderBookPage', () => {
  const html = renderBookPage(SHELL, book, 'https://shop.example');

  it('escapes every inserted text and keeps script contents inert', () => {
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<b>bold');
    expect(html).toContain('<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; by Zoë &quot;Z&quot; Brontë | Bookstore</title>');
    expect(JSON.parse(between(html, '<script type="application/json" id="book-data">'))).toEqual(book);
  });

  it('replaces the shop description and adds canonical, Open Graph and an Offer', () => {
    expect(html.match(/name="description"/g)).toHaveLength(1);
    expect(html).toContain('<link rel="canonical" href="https://shop.example/books/abc123" />');
    expect(html).toContain('<meta property="og:image" content="https://shop.example/api/covers/0123456789abcdef0123456789abcdef.png" />');
    const ld = JSON.parse(between(html, '<script type="application/ld+json">'));
    expect(ld.offers).toMatchObject({ price: '7.50', priceCurrency: 'USD', availability: 'https://schema.org/OutOfStock' });
  });

  it('fills the visible article into the frame: escaped title, cover with its size, price, stock', () => {
    const page = renderBookPage(FRAME, book, 'https://shop.example');
    const article = page.slice(page.indexOf('<main>'), page.indexOf('</main>'));
    expect(article).toContain('<h1 class="mb-8 text-3xl font-bold">&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(article).toContain('<img src="/api/covers/0123456789abcdef0123456789abcdef.png" alt="Cover of &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" width="240" height="360"');
    expect(article).toContain('<strong>Author:</strong> Zoë &quot;Z&quot; Brontë');
    expect(article).toContain('A &lt;b&gt;bold&lt;/b&gt; tale\u2028 &amp; more.');
    expect(article).toContain('$7.50 <span class="ml-2 text-base font-normal text-gray-600 line-through">$20.00</span>');
    expect(article).toContain('Out of stock');
    expect(article).toMatch(/<button type="button" disabled=""/);
    expect(page).not.toContain('data-slot');
    expect(page).toContain('<link rel="preload" as="image" href="/api/covers/0123456789abcdef0123456789abcdef.png" fetchpriority="high" />');
    // Without a frame (a build before it existed), the article goes into the plain shell's root.
    expect(renderBookPage(SHELL, { ...book, title: '$& $1' }, 'https://shop.example')).toContain('<div id="root"><article');
    expect(renderBookPage(SHELL, { ...book, title: '$& $1' }, 'https://shop.example')).toContain('<title>$&amp; $1 by');
  });

  it('marks a not-found page noindex', () => {
    expect(renderNotFoundPage(SHELL)).toContain('<meta name="robots" content="noindex" />');
  });

  it('resolves covers and trims descriptions at a word', () => {
    expect(absoluteCoverUrl('book-3', 'https://s.x')).toBe('https://s.x/covers/book-3.svg');
    expect(absoluteCoverUrl('javascript:alert(1)', 'https://s.x')).toBe('https://s.x/covers/book-1.svg');
    expect(summary('word '.repeat(100)).length).toBeLessThanOrEqual(160);
    expect(summary('word '.repeat(100)).endsWith('word…')).toBe(true);
  });
});
