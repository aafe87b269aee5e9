import { beforeAll, describe, expect, it } from 'vitest';
import { BROWSE_PAGE_SIZE } from '@bookstore/contract';
import { BASE, http } from './helpers';
import { booksViaApi } from './shelf';

// /books/<id> as a robot or a link preview sees it: plain HTTP through Hosting, no JavaScript.

const make = booksViaApi({ category: 'fiction', trending: false, oldPrice: 30, newPrice: 18.5, coverImage: 'book-7' });
let book: any;
let hostile: any;

async function page(path: string) {
  const res = await fetch(`${BASE}${path}`);
  return { status: res.status, html: await res.text(), headers: res.headers };
}

function scriptContent(html: string, opening: string): string {
  const start = html.indexOf(opening);
  expect(start, opening).toBeGreaterThan(-1);
  return html.slice(start + opening.length, html.indexOf('</script>', start));
}

/** The data the page was rendered from: TanStack Query's dehydrated state (web/src/server/document.ts). */
function queryData(html: string, key: (queryKey: unknown[]) => boolean): unknown {
  const state = JSON.parse(scriptContent(html, '<script type="application/json" id="query-state">')) as { queries: { queryKey: unknown[]; state: { data: unknown } }[] };
  const query = state.queries.find((q) => key(q.queryKey));
  expect(query, 'a dehydrated query').toBeDefined();
  return query!.state.data;
}
const isBookQuery = (id: string) => (queryKey: unknown[]) => queryKey.includes(id);
const isBrowseQuery = (queryKey: unknown[]) => queryKey.includes('browse');

beforeAll(async () => {
  book = await make({
    title: 'The Lantern Keeper Returns',
    author: 'Aoife Lennon',
    description: 'A keeper of lights comes home to a coast that has forgotten her.',
    isbn: '978-0-306-40615-7',
    stock: 5,
  });
  hostile = await make({
    title: '</script><script>alert(1)</script> & "Quotes"',
    description: '<img src=x onerror=alert(1)> \u2028 line',
    stock: 0,
  });
});

describe('GET /books/:id without JavaScript', () => {
  it("carries the book's title, description, canonical URL, Open Graph, Twitter card and JSON-LD", async () => {
    const res = await page(`/books/${book._id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=300');
    const { html } = res;
    expect(html).toContain('<title>The Lantern Keeper Returns by Aoife Lennon | Bookstore</title>');
    expect(html).toContain('<meta name="description" content="A keeper of lights comes home to a coast that has forgotten her.">');
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
    expect(html).toContain(`<link rel="canonical" href="${BASE}/books/${book._id}">`);
    expect(html).toContain(`<meta property="og:image" content="${BASE}/covers/book-7.svg">`);
    expect(html).toContain('<meta property="og:title" content="The Lantern Keeper Returns">');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    // The app, which hydrates this HTML: the start script adds its entry and preloads the route's chunk after the load event.
    expect(html).toMatch(/<script data-entry="\/assets\/index-[^"]+\.js" data-preload="[^"]*\/assets\/book-detail-[^"]+\.js[^"]*">\(function\(\)/);
    // What the shopper sees first, before any JavaScript: the storefront's header and the book.
    expect(html).toContain('aria-label="Bookstore home"');
    expect(html).toMatch(/<h1[^>]*>The Lantern Keeper Returns<\/h1>/); // by its text: the classes are the design's
    expect(html).toMatch(/<img src="\/covers\/book-7\.svg" alt="Cover of The Lantern Keeper Returns" width="240" height="360" fetchpriority="high"/i);
    expect(html).toMatch(/<strong>Author:<\/strong> (<!-- -->)?Aoife Lennon<\/p>/); // React separates text nodes with a comment
    expect(html).toContain('$18.50');

    const ld = JSON.parse(scriptContent(html, '<script type="application/ld+json">'));
    expect(ld).toMatchObject({
      '@type': 'Book',
      name: 'The Lantern Keeper Returns',
      author: { name: 'Aoife Lennon' },
      isbn: '9780306406157',
      offers: { '@type': 'Offer', price: '18.50', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    });
    expect(queryData(html, isBookQuery(book._id))).toEqual((await http(`/api/books/${book._id}`)).body);
  });

  it('escapes what an admin typed: no markup or script break-out, data intact', async () => {
    const { status, html } = await page(`/books/${hostile._id}`);
    expect(status).toBe(200);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Quotes&quot; | Bookstore</title>');
    const data = queryData(html, isBookQuery(hostile._id)) as { title: string; description: string };
    expect(data.title).toBe(hostile.title);
    expect(data.description).toBe(hostile.description);
    const ld = JSON.parse(scriptContent(html, '<script type="application/ld+json">'));
    expect(ld.offers.availability).toBe('https://schema.org/OutOfStock');
  });

  it("answers an unknown or malformed id with 404, the app's not-found text and noindex", async () => {
    for (const id of ['no-such-book', 'bad$id']) {
      const res = await page(`/books/${encodeURIComponent(id)}`);
      expect(res.status, id).toBe(404);
      expect(res.html).toContain('<meta name="robots" content="noindex">');
      expect(res.html).toContain('Error loading book info...');
      expect(queryData(res.html, isBookQuery(id))).toBeNull();
    }
  });
});

describe('GET /books without JavaScript', () => {
  it("carries the default browse's first page as cards and as JSON, compressed, at one page's reads", async () => {
    const res = await fetch(`${BASE}/books`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=300');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(Number(res.headers.get('x-firestore-reads'))).toBeLessThanOrEqual(BROWSE_PAGE_SIZE + 1);
    const html = await res.text();
    expect(html).toContain('All books</h1>');
    expect(html).not.toContain('Loading books');
    const embedded = queryData(html, isBrowseQuery) as { books: { _id: string }[] };
    expect(embedded.books.length).toBeGreaterThan(0);
    expect(embedded.books.length).toBeLessThanOrEqual(BROWSE_PAGE_SIZE);
    for (const b of embedded.books) expect(html).toMatch(new RegExp(`<a [^>]*href="/books/${b._id}"`));
    // The same books the API gives for that query (the newest first).
    const api = await http('/api/books?sort=newest');
    expect(embedded.books.map((b: any) => b._id)).toEqual(api.body.books.map((b: any) => b._id));
  });

  it('renders any other browse with its own results; a query the API refuses gets the skeletons', async () => {
    const fiction = await page('/books?category=fiction&sort=price-asc');
    expect(fiction.status).toBe(200);
    expect(fiction.html).toContain('Fiction books</h1>');
    const api = await http('/api/books?category=fiction&sort=price-asc');
    expect((queryData(fiction.html, isBrowseQuery) as { books: { _id: string }[] }).books.map((b) => b._id)).toEqual(api.body.books.map((b: any) => b._id));
    for (const path of ['/books?page=2&cursor=nonsense', '/books?x=%3Cscript%3E']) { // the second is redirected to /books
      const res = await page(path);
      expect(res.status, path).toBe(200);
      expect(res.html).not.toContain('%3Cscript');
      expect(res.html).not.toContain('<script>');
      expect(res.html).not.toContain('noindex');
    }
    expect((await page('/books?page=2&cursor=nonsense')).html).toContain('aria-label="Loading books"');
  });
});

describe('one URL per page (issue 25: caching that cannot be steered)', () => {
  it('answers any other spelling of a page or sitemap URL with an uncached 301 to the one the app builds', async () => {
    const cases = [
      [`/books/${book._id}?v=2`, `/books/${book._id}`],
      ['/books?utm_source=x', '/books'],
      ['/books?sort=price-asc&category=Fiction&_=123', '/books?category=fiction&sort=price-asc'],
      ['/sitemap.xml?x=1', '/sitemap.xml'],
    ];
    for (const [path, canonical] of cases) {
      const res = await fetch(`${BASE}${path}`, { redirect: 'manual' });
      expect(res.status, path).toBe(301);
      const location = new URL(res.headers.get('location')!, BASE);
      expect(`${location.pathname}${location.search}`, path).toBe(canonical);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
    expect((await fetch(`${BASE}/books?category=fiction&sort=price-asc`, { redirect: 'manual' })).status).toBe(200);
  });

  it('builds absolute URLs from configuration, never from a forwarded host', async () => {
    const res = await fetch(`${BASE}/books/${book._id}`, { headers: { 'X-Forwarded-Host': 'evil.example' } });
    const html = await res.text();
    expect(html).toContain(`<link rel="canonical" href="${BASE}/books/${book._id}">`);
    expect(html).not.toContain('evil.example');
  });
});

describe('sitemap and robots', () => {
  it('lists every book in the files /sitemap.xml indexes; robots.txt keeps robots out of the dashboard', async () => {
    const robots = await page('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.html).toContain('Disallow: /admin');
    // The index (issue 58: files of at most 40,000 books): one file at this size.
    const index = await page('/sitemap.xml');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toContain('xml');
    expect(index.headers.get('cache-control')).toContain('s-maxage=3600');
    expect(index.html).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(index.html).toContain(`<loc>${BASE}/sitemap-books-1.xml</loc>`);
    const map = await page('/sitemap-books-1.xml');
    expect(map.status).toBe(200);
    expect(map.html).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(map.html).toContain(`<loc>${BASE}/</loc>`);
    expect(map.html).toContain(`<loc>${BASE}/books/${book._id}</loc>`);
    const seeded = (await http('/api/books?limit=3')).body as { _id: string }[];
    for (const b of seeded) expect(map.html).toContain(`/books/${b._id}</loc>`);
    expect((await page('/sitemap-books-999.xml')).status).toBe(404);
  });
});
