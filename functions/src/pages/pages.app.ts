import express, { type Request, type Response } from 'express';
import { BookIdSchema, BrowseQuerySchema } from '@bookstore/contract';
import { getBook } from '../books/books.repo';
import { browseBooks } from '../books/browse.repo';
import { countBooksForSitemap, sitemapEntries, sitemapFileCount } from '../books/sitemap.repo';
import { errorHandler } from '../lib/errors';
import { readCounter } from '../lib/read-counter';
import { renderBookPage, renderNotFoundPage } from './book-page';
import { renderBooksPage } from './books-page';
import { bookFrame, booksFrame, webShell } from './shell';
import { sendCompressed } from './compress';
import { sitemapIndex, urlset } from './sitemap';

// The `pages` function: what Hosting rewrites /books, /books/* and the sitemaps to. HTML for robots and
// link previews, cached by Hosting's CDN for 5 minutes (an edit shows within s-maxage; the
// browser always revalidates).

const BOOK_PAGE_CACHE = 'public, max-age=0, s-maxage=300';
// firebase.json sets the same Cache-Control for /books/* (Hosting's header rules win over a function's).
const SITEMAP_CACHE = 'public, max-age=0, s-maxage=3600';

/** The shop's public origin: PUBLIC_ORIGIN if set, else the host the visitor asked for (Hosting forwards it). */
export function originOf(req: Request): string {
  if (process.env.PUBLIC_ORIGIN) return process.env.PUBLIC_ORIGIN.replace(/\/$/, '');
  const host = String(req.headers['x-forwarded-host'] ?? req.headers.host ?? '').split(',')[0]!.trim();
  const safeHost = /^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(host) ? host : 'localhost';
  const proto = String(req.headers['x-forwarded-proto'] ?? req.protocol).split(',')[0]!.trim();
  const local = /^(127\.0\.0\.1|localhost)(:\d+)?$/.test(safeHost);
  return `${proto === 'http' && local ? 'http' : 'https'}://${safeHost}`;
}

function html(req: Request, res: Response, status: number, body: string): void {
  sendCompressed(req, res.status(status).set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': BOOK_PAGE_CACHE }), body);
}

// GET /books/:id
async function bookPage(req: Request, res: Response) {
  const id = BookIdSchema.safeParse(req.params.id);
  const book = id.success ? await getBook(id.data) : null;
  if (!book) return html(req, res, 404, renderNotFoundPage(webShell()));
  html(req, res, 200, renderBookPage(bookFrame(), book, originOf(req)));
}

// GET /books: the first page of the default browse filled in (one page read: 24 books, whatever the
// catalogue's size). Filters, sorts and later pages (any query) get the frame's skeletons: the app
// reads the URL and fetches, as it does after a client-side navigation.
async function booksPage(req: Request, res: Response) {
  const frame = booksFrame();
  if (Object.keys(req.query).length > 0) return html(req, res, 200, frame);
  html(req, res, 200, renderBooksPage(frame, await browseBooks(BrowseQuerySchema.parse({}))));
}

function xml(req: Request, res: Response, body: string): void {
  sendCompressed(req, res.set({ 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': SITEMAP_CACHE }), body);
}

async function bookUrls(req: Request, n: number, files: number) {
  const origin = originOf(req);
  const entries = await sitemapEntries(n, files);
  const pages = n === 1 ? [{ loc: `${origin}/` }, { loc: `${origin}/books` }] : [];
  return [...pages, ...entries.map((e) => ({ loc: `${origin}/books/${e.id}`, lastmod: e.updatedAt }))];
}

// GET /sitemap.xml: every book in one file, or an index of /sitemap-books-N.xml files
async function sitemap(req: Request, res: Response) {
  const files = sitemapFileCount(await countBooksForSitemap());
  if (files === 1) return xml(req, res, urlset(await bookUrls(req, 1, 1)));
  const origin = originOf(req);
  xml(req, res, sitemapIndex(Array.from({ length: files }, (_, i) => `${origin}/sitemap-books-${i + 1}.xml`)));
}

// GET /sitemap-books-N.xml
async function sitemapFile(req: Request, res: Response) {
  const n = Number((req.params as Record<string, string>)[0]);
  const files = sitemapFileCount(await countBooksForSitemap());
  if (!Number.isSafeInteger(n) || n < 1 || n > files) {
    res.status(404).set('Cache-Control', SITEMAP_CACHE).type('text/plain').send('Not found');
    return;
  }
  xml(req, res, urlset(await bookUrls(req, n, files)));
}

export function createPagesApp() {
  const app = express();
  app.disable('x-powered-by');
  app.use(readCounter);
  app.use((_req, res, next) => {
    res.set('X-Content-Type-Options', 'nosniff');
    next();
  });
  app.get('/books', booksPage);
  app.get('/books/:id', bookPage);
  app.get('/sitemap.xml', sitemap);
  app.get(/^\/sitemap-books-(\d{1,6})\.xml$/, sitemapFile);
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('Not found');
  });
  app.use(errorHandler);
  return app;
}
