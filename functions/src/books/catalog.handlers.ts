import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import {
  AdminBooksQuerySchema,
  BrowseQuerySchema,
  SearchQuerySchema,
  SuggestQuerySchema,
  type AdminBooksPage,
  type BooksPage,
  type SearchResponse,
  type SuggestResponse,
} from '@bookstore/contract';
import { requirePermission } from '../lib/auth';
import { catalogueCache, noStore, rejectUnknownQuery } from '../lib/cache';
import { parseWith } from '../lib/validate';
import { adminListBooks, browseBooks, getBooksByIds } from './browse.repo';
import { catalogIndex } from './catalog-index';
import { decodeOffset, encodeOffset } from './cursor';
import { searchBooks, searchTitleOrAuthor, type Hit } from './search-index';

// GET /api/books?sort=&category=&minPrice=&maxPrice=&inStock=&cursor=&limit=
export async function browse(req: Request, res: Response) {
  // Before any read: a bad token or an unknown parameter (a new CDN entry) costs nothing.
  rejectUnknownQuery(req, ['sort', 'category', 'minPrice', 'maxPrice', 'inStock', 'cursor', 'limit']);
  catalogueCache(req, res);
  const query = parseWith(BrowseQuerySchema, req.query);
  const page = await browseBooks(query);
  res.json(page satisfies BooksPage);
}

// GET /api/books/search?q=&page=&limit=
export async function search(req: Request, res: Response) {
  rejectUnknownQuery(req, ['q', 'page', 'limit']);
  catalogueCache(req, res);
  const { q, page, limit } = parseWith(SearchQuerySchema, req.query);
  const hits = searchBooks(await catalogIndex(), q);
  const ids = hits.slice((page - 1) * limit, page * limit).map((hit) => String(hit.id));
  const body = {
    books: await getBooksByIds(ids), // fresh price and stock for the page shown
    total: hits.length,
    page,
    pageCount: Math.max(1, Math.ceil(hits.length / limit)),
  };
  res.json(body satisfies SearchResponse);
}

// GET /api/books/suggest?q=&limit=
export async function suggest(req: Request, res: Response) {
  rejectUnknownQuery(req, ['q', 'limit']);
  catalogueCache(req, res);
  const { q, limit } = parseWith(SuggestQuerySchema, req.query);
  const hits = searchBooks(await catalogIndex(), q).slice(0, limit);
  const body = {
    suggestions: hits.map((hit) => ({
      _id: String(hit.id),
      title: hit.title,
      ...(hit.author ? { author: hit.author } : {}),
      category: hit.category,
      coverImage: hit.coverImage,
    })),
  };
  res.json(body satisfies SuggestResponse);
}

const ADMIN_SORT_VALUE: Record<'title' | 'price' | 'date', (hit: Hit) => string | number> = {
  title: (hit) => hit.titleKey,
  price: (hit) => hit.priceCents,
  date: (hit) => hit.createdAt,
};

// GET /api/admin/books?q=&sort=&dir=&cursor=&limit=
export async function adminBooks(req: Request, res: Response) {
  requirePermission(req, 'books.view');
  const query = parseWith(AdminBooksQuerySchema, req.query);
  noStore(res);
  if (!query.q) {
    res.json((await adminListBooks(query.sort, query.dir, query.cursor, query.limit)) satisfies AdminBooksPage);
    return;
  }
  // With words to match: the index finds title or author matches, which are sorted here from
  // the index's stored fields (no reads), then only the page's books are read.
  const words = createHash('sha256').update(query.q).digest('base64url').slice(0, 12);
  const order = `admin-q:${words}:${query.sort}:${query.dir}`;
  const offset = query.cursor ? decodeOffset(query.cursor, order).offset : 0;
  const value = ADMIN_SORT_VALUE[query.sort];
  const sign = query.dir === 'asc' ? 1 : -1;
  const hits = searchTitleOrAuthor(await catalogIndex(), query.q).sort((a, b) => {
    const x = value(a);
    const y = value(b);
    return sign * (x < y ? -1 : x > y ? 1 : String(a.id) < String(b.id) ? -1 : 1);
  });
  const ids = hits.slice(offset, offset + query.limit).map((hit) => String(hit.id));
  const body = {
    books: await getBooksByIds(ids),
    nextCursor: offset + query.limit < hits.length ? encodeOffset({ order, offset: offset + query.limit }) : null,
    prevCursor: offset > 0 ? encodeOffset({ order, offset: Math.max(0, offset - query.limit) }) : null,
    total: hits.length,
  };
  res.json(body satisfies AdminBooksPage);
}
