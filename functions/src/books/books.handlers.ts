import type { Request, Response } from 'express';
import { BookIdSchema, BooksQuerySchema, BookInputSchema, CreateBookSchema, type Book, type BookInput, type BookMutationResponse, type CoverUploadResponse } from '@bookstore/contract';
import { assertPermission, requirePermission, requireStaff } from '../lib/auth';
import { appendAudit } from '../admin/audit.repo';
import { db } from '../lib/firebase';
import { catalogueCache, COVER_CACHE, noStore, rejectUnknownQuery } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { jsonBody, parseWith } from '../lib/validate';
import * as repo from './books.repo';
import { browse } from './catalog.handlers';
import { CoverFetchError, fetchCover } from './cover-fetch';
import { deleteCover, readCover, readCoverFile, saveCover } from './covers';

function bookId(req: Request): string {
  const result = BookIdSchema.safeParse(req.params.id);
  if (!result.success) throw new HttpError(404, 'Book not found');
  return result.data;
}

/** Deletes an uploaded cover once no book points at it any more (covers are shared by content). */
async function releaseCover(coverImage: string): Promise<void> {
  if (!(await repo.isCoverInUse(coverImage))) await deleteCover(coverImage);
}

/**
 * A book sent with a coverUrl: the image is fetched once, server-side (cover-fetch.ts), stored as
 * ours, and the book points at that; the address itself is never kept. A cover that cannot be
 * fetched is a 400 on the coverUrl field, and nothing is written.
 */
async function withFetchedCover<T extends BookInput>(input: T): Promise<T> {
  if (!input.coverUrl) return input;
  try {
    const { bytes } = await fetchCover(input.coverUrl);
    const { coverUrl: _fetched, ...rest } = input;
    return { ...rest, coverImage: await saveCover(bytes) } as T;
  } catch (error) {
    if (error instanceof CoverFetchError) throw new HttpError(400, error.message, { details: { coverUrl: [error.message] } });
    throw error;
  }
}

/** Parameters only the paged browse API knows; any of them selects it (contract: catalog.ts). */
const BROWSE_PARAMS = ['sort', 'cursor', 'minPrice', 'maxPrice', 'inStock'];

// GET /api/books?limit=&category=&after=  (home page carousels: a plain array, newest first)
// GET /api/books?sort=...                 (browse: a BooksPage, see catalog.handlers.ts)
export async function listBooks(req: Request, res: Response) {
  if (BROWSE_PARAMS.some((name) => name in req.query)) return browse(req, res);
  rejectUnknownQuery(req, Object.keys(BooksQuerySchema.shape));
  catalogueCache(req, res);
  const query = parseWith(BooksQuerySchema, req.query);
  const books = await repo.listBooks(query);
  res.json(books satisfies Book[]);
}

// GET /api/books/:id
export async function getBook(req: Request, res: Response) {
  rejectUnknownQuery(req);
  catalogueCache(req, res);
  const book = await repo.getBook(bookId(req));
  if (!book) throw new HttpError(404, 'Book not found');
  res.json(book satisfies Book);
}

// POST /api/books/create-book
export async function createBook(req: Request, res: Response) {
  const actor = requirePermission(req, 'books.create');
  const input = await withFetchedCover(parseWith(CreateBookSchema, jsonBody(req)));
  const book = await repo.createBook(input, actor);
  noStore(res);
  res.status(201).json({ message: 'Book created successfully', book } satisfies BookMutationResponse);
}

// PUT /api/books/edit/:id
export async function editBook(req: Request, res: Response) {
  const actor = requireStaff(req); // which permission depends on what changes: checked in the transaction
  const id = bookId(req);
  const parsed = parseWith(BookInputSchema, jsonBody(req));
  if (parsed.coverUrl) assertPermission(actor, 'books.edit'); // a new cover is an edit: refused before fetching anything
  const input = await withFetchedCover(parsed);
  const result = await repo.updateBook(id, input, actor, (needed) => needed.forEach((p) => assertPermission(actor, p)));
  if (!result) throw new HttpError(404, 'Book not found');
  if (result.before.coverImage !== result.after.coverImage) await releaseCover(result.before.coverImage);
  noStore(res);
  res.json({ message: 'Book updated successfully', book: result.after } satisfies BookMutationResponse);
}

// DELETE /api/books/:id
export async function deleteBook(req: Request, res: Response) {
  const actor = requirePermission(req, 'books.delete');
  const book = await repo.deleteBook(bookId(req), actor);
  if (!book) throw new HttpError(404, 'Book not found');
  await releaseCover(book.coverImage);
  noStore(res);
  res.json({ message: 'Book deleted successfully', book } satisfies BookMutationResponse);
}

// POST /api/books/cover (multipart/form-data, field `cover`)
export async function uploadCover(req: Request, res: Response) {
  const actor = requirePermission(req, 'books.covers');
  const bytes = await readCoverFile(req);
  const coverImage = await saveCover(bytes);
  // The object lives in Storage, outside any Firestore transaction: its event follows the save
  // (an upload that failed has none; a cover is content-addressed, so a repeat upload is harmless).
  const batch = db().batch();
  appendAudit(batch, actor, { action: 'cover.upload', target: `covers/${coverImage}` });
  await batch.commit();
  noStore(res);
  res.status(201).json({ coverImage } satisfies CoverUploadResponse);
}

// GET /api/covers/:name
export async function getCover(req: Request, res: Response) {
  rejectUnknownQuery(req);
  const cover = await readCover(String(req.params.name));
  if (!cover) throw new HttpError(404, 'Cover not found');
  res.set({ 'Content-Type': cover.contentType, 'Cache-Control': COVER_CACHE, 'Content-Security-Policy': "default-src 'none'" });
  res.send(cover.bytes);
}
