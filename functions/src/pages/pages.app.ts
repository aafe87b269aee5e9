import express, { type Request, type Response } from 'express';
import { BookIdSchema, BooksQuerySchema, BrowseQuerySchema } from '@bookstore/contract';
import { logger } from 'firebase-functions/logger';
import { canonicalPath, htmlDocument, renderPage, type Loaders } from '../../../web/src/server';
import { getBook, listBooks } from '../books/books.repo';
import { browseBooks } from '../books/browse.repo';
import { MAX_FILE_BYTES, readSitemapPlan, sitemapEntries, URLS_PER_FILE, type SitemapPlan } from '../books/sitemap.repo';
import { CATALOGUE_PUBLIC, noStoreByDefault } from '../lib/cache';
import { errorHandler } from '../lib/errors';
import { HttpError } from '../lib/http-error';
import { readCounter } from '../lib/read-counter';
import { bookHead, bookTitle } from './book-page';
import { siteOrigin } from './site-origin';
import { sendCompressed } from './compress';
import { sitemapIndex, urlset } from './sitemap';
import { webManifest } from './web-build';
import { webAssets } from './web-assets';

// The `pages` function: what Hosting rewrites /, /books, /books/* and the sitemaps to. The pages are the
// web app's own server render (web/src/server/: the same route components the browser hydrates),
// with the data read from the repositories; cached by Hosting's CDN for 5 minutes (an edit shows
// within s-maxage; the browser always revalidates). A 404 is never cached.
const BOOK_PAGE_CACHE = 'public, max-age=0, s-maxage=300';
// The home page carries the catalogue's newest books with their stock (issue 38): it is kept at the
// edge as long as the list it replaces (GET /api/books, CATALOGUE_PUBLIC), so it is never staler than
// what the app used to fetch; a catalogue change (or a sale that empties a shelf) shows within it.
const HOME_PAGE_CACHE = CATALOGUE_PUBLIC;
// firebase.json leaves /books and /books/* out of its documents' no-cache rule: Hosting's header rules
// win over a function's, and these answers choose their own (a 404 or a redirect is no-store).
const SITEMAP_CACHE = 'public, max-age=0, s-maxage=3600';

/** The server render's data: the API's own reads, without the HTTP round trip. */
const loaders: Loaders = {
  book: async (id) => {
    const parsed = BookIdSchema.safeParse(id);
    return parsed.success ? getBook(parsed.data) : null;
  },
  // Parameters the API refuses are its 400 here too: /books renders its skeletons and the browser's
  // request shows the error (web/src/server/render.tsx).
  browse: (params) => {
    const query = BrowseQuerySchema.safeParse(params);
    if (!query.success) throw new HttpError(400, 'Invalid browse query');
    return browseBooks(query.data);
  },
  books: (query) => listBooks(BooksQuerySchema.parse(query)),
};

/**
 * Any other spelling of a served URL (an unknown or default parameter, another order, a trailing
 * `?`) is a 301 to the one the app builds, not a new CDN entry that costs reads. Not cached.
 */
function canonicalOnly(req: Request, res: Response, next: () => void): void {
  const q = req.originalUrl.indexOf('?');
  const search = q >= 0 ? req.originalUrl.slice(q) : '';
  const canonical = canonicalPath(req.path, search);
  if (canonical === `${req.path}${search}`) return next();
  res.status(301).set({ Location: canonical, 'Cache-Control': 'no-store' }).type('text/plain').send(`Moved to ${canonical}`);
}

// GET /, /books, /books?..., /books/:id: the app's render of the URL with its data.
async function page(req: Request, res: Response) {
  const rendered = await renderPage(req.originalUrl, loaders);
  const book = rendered.book;
  const head = [...rendered.hints, ...(book ? bookHead(book, siteOrigin()) : [])];
  if (rendered.status === 404) head.push('<meta name="robots" content="noindex">');
  const body = htmlDocument(webManifest(), {
    title: book ? bookTitle(book) : rendered.status === 404 ? 'Page not found | Bookstore' : rendered.title,
    head,
    routeModule: rendered.routeModule,
    root: rendered.html,
    state: rendered.state,
  });
  const cache = rendered.status === 404 || rendered.partial ? 'no-store' : req.path === '/' ? HOME_PAGE_CACHE : BOOK_PAGE_CACHE;
  res.status(rendered.status).set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': cache });
  sendCompressed(req, res, body);
}

function xml(req: Request, res: Response, body: string): void {
  sendCompressed(req, res.set({ 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': SITEMAP_CACHE }), body);
}

async function bookUrls(plan: SitemapPlan, n: number) {
  const origin = siteOrigin();
  const pages = n === 1 ? [{ loc: `${origin}/` }, { loc: `${origin}/books` }] : [];
  const entries = await sitemapEntries(plan, n, pages.length);
  return [...pages, ...entries.map((e) => ({ loc: `${origin}/books/${e.id}`, lastmod: e.updatedAt }))];
}

// GET /sitemap.xml: the index of /sitemap-books-N.xml files, one per URLS_PER_FILE books (1 read with
// the builder's plan); cached at the edge like every sitemap file.
function sitemap(perFile: number) {
  return async (req: Request, res: Response) => {
    const plan = await readSitemapPlan(perFile);
    const origin = siteOrigin();
    xml(req, res, sitemapIndex(plan.starts.map((_, i) => `${origin}/sitemap-books-${i + 1}.xml`)));
  };
}

// GET /sitemap-books-N.xml: the Nth file's books (file 1 also /, /books), read in pages.
function sitemapFile(perFile: number) {
  return async (req: Request, res: Response) => {
    const n = Number((req.params as Record<string, string>)[0]);
    const plan = await readSitemapPlan(perFile);
    if (!Number.isSafeInteger(n) || n < 1 || n > plan.starts.length) {
      res.status(404).type('text/plain').send('Not found'); // no-store, as every 404 here
      return;
    }
    const body = urlset(await bookUrls(plan, n));
    // 50,000 URLs of this shape stay far below it; a guard, never expected to fire.
    if (Buffer.byteLength(body) > MAX_FILE_BYTES) logger.error('A sitemap file is over 50 MB', { n, bytes: Buffer.byteLength(body) });
    xml(req, res, body);
  };
}

export function createPagesApp() {
  const app = express();
  app.disable('x-powered-by');
  app.use(noStoreByDefault);
  app.use(readCounter);
  app.use((_req, res, next) => {
    res.set('X-Content-Type-Options', 'nosniff');
    next();
  });
  // Before the canonical redirect: an asset's query string (a cache buster) is not a new page.
  app.use('/assets', webAssets());
  app.use(canonicalOnly);
  app.get('/', page);
  app.get('/books', page);
  app.get('/books/:id', page);
  app.get('/sitemap.xml', sitemap(URLS_PER_FILE));
  app.get(/^\/sitemap-books-(\d{1,6})\.xml$/, sitemapFile(URLS_PER_FILE));
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('Not found');
  });
  app.use(errorHandler);
  return app;
}
