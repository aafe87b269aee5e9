import type { Request, Response } from 'express';
import { logger } from 'firebase-functions/logger';
import { BookIdSchema, BooksQuerySchema, BookInputSchema, BulkBooksSchema, COVER_WRONG_TYPE_MESSAGE, CreateBookSchema, ISBN_MESSAGE, toIsbn13, type Book, type BookInput, type BulkBooksResponse, type CoverForIsbnResponse, type BookMutationResponse, type CoverUploadResponse } from '@bookstore/contract';
import { assertActive, assertPermission, requirePermission, requireStaff, type StaffActor } from '../lib/auth';
import { recordAudit, type AuditActor } from '../admin/audit.repo';
import { catalogueCache, COVER_CACHE, noStore, rejectUnknownQuery } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { jsonBody, parseWith } from '../lib/validate';
import * as repo from './books.repo';
import { browse } from './catalog.handlers';
import { CoverFetchError, fetchCover } from './cover-fetch';
import { deleteCover, readCover, readCoverFile, saveCover, sniffImage } from './covers';

function bookId(req: Request): string {
  const result = BookIdSchema.safeParse(req.params.id);
  if (!result.success) throw new HttpError(404, 'Book not found');
  return result.data;
}

/**
 * Deletes an uploaded cover once no book points at it any more (covers are shared by content), and
 * records who removed it (issue 36: cover changes are audited). A bundled cover name is no object.
 * Called after the book's write has landed: if Storage fails now (seen: a socket hang-up), the
 * cover stays behind, pointed at by no book, and the answer still says what happened to the book;
 * a 500 there made the shopkeeper retry a delete that had been done.
 */
async function releaseCover(coverImage: string, actor: AuditActor): Promise<void> {
  let deleted: boolean;
  try {
    deleted = !(await repo.isCoverInUse(coverImage)) && (await deleteCover(coverImage));
  } catch (error) {
    logger.error('Cover left in Storage: the book was written, the cover could not be released', { coverImage, message: (error as Error).message });
    return;
  }
  if (!deleted) return;
  try {
    await recordAudit(actor, { action: 'cover.delete', target: coverImage });
  } catch (error) {
    logger.error('Cover deleted, its audit event not recorded', { coverImage, by: actor.username, message: (error as Error).message });
  }
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
  // Which permissions depends on what changes: the write path checks each changed field in its transaction.
  const actor = requireStaff(req);
  assertActive(actor);
  const id = bookId(req);
  const parsed = parseWith(BookInputSchema, jsonBody(req));
  if (parsed.coverUrl) assertPermission(actor, 'books.edit'); // a new cover is an edit: refused before fetching anything
  const input = await withFetchedCover(parsed);
  const result = await repo.updateBook(id, input, actor);
  if (!result) throw new HttpError(404, 'Book not found');
  if (result.before.coverImage !== result.after.coverImage) await releaseCover(result.before.coverImage, actor);
  noStore(res);
  res.json({ message: 'Book updated successfully', book: result.after } satisfies BookMutationResponse);
}

// DELETE /api/books/:id
export async function deleteBook(req: Request, res: Response) {
  const actor = requirePermission(req, 'books.delete');
  const book = await repo.deleteBook(bookId(req), actor);
  if (!book) throw new HttpError(404, 'Book not found');
  await releaseCover(book.coverImage, actor);
  noStore(res);
  res.json({ message: 'Book deleted successfully', book } satisfies BookMutationResponse);
}

// POST /api/books/cover (multipart/form-data, field `cover`)
// POST /api/books/cover?isbn=<ISBN>: the same, attached to the book with that ISBN (bulk covers)
export async function uploadCover(req: Request, res: Response) {
  const actor = requirePermission(req, 'books.covers');
  rejectUnknownQuery(req, ['isbn']);
  if (req.query.isbn !== undefined) return coverForIsbn(req, res, actor);
  const bytes = await readCoverFile(req);
  const coverImage = await saveCover(bytes);
  // The object lives in Storage, outside any Firestore transaction: its event follows the save
  // (an upload that failed has none; a cover is content-addressed, so a repeat upload is harmless).
  await recordAudit(actor, { action: 'cover.upload', target: `covers/${coverImage}` });
  noStore(res);
  res.status(201).json({ coverImage } satisfies CoverUploadResponse);
}

/**
 * Bulk covers (issue 26): the import page sends each `<isbn>.jpg|png|webp` of a zip here. The book is
 * found before anything is stored (an unmatched ISBN is 404, reported by the page); the cover is
 * stored by content hash and the book's change is one audit event (book.edit, its coverImage).
 */
async function coverForIsbn(req: Request, res: Response, actor: StaffActor) {
  assertPermission(actor, 'books.edit');
  const isbn = toIsbn13(String(req.query.isbn));
  if (!isbn) throw new HttpError(400, ISBN_MESSAGE, { details: { isbn: [ISBN_MESSAGE] } });
  const bytes = await readCoverFile(req);
  if (!sniffImage(bytes)) throw new HttpError(415, COVER_WRONG_TYPE_MESSAGE);
  const id = await repo.bookIdByIsbn(isbn);
  if (!id) throw new HttpError(404, `No book has ISBN ${isbn}`, { code: 'NO_BOOK_WITH_ISBN', isbn });
  const coverImage = await saveCover(bytes);
  const result = await repo.setCover(id, coverImage, actor);
  if (!result) throw new HttpError(404, `No book has ISBN ${isbn}`, { code: 'NO_BOOK_WITH_ISBN', isbn });
  if (result.before.coverImage !== coverImage) await releaseCover(result.before.coverImage, actor);
  noStore(res);
  res.status(201).json({ coverImage, book: result.after } satisfies CoverForIsbnResponse);
}

// POST /api/admin/books/bulk  { action: 'price' | 'stock' | 'delete', ids, newPrice? | stock? }
export async function bulkBooks(req: Request, res: Response) {
  const actor = requireStaff(req);
  const bulk = parseWith(BulkBooksSchema, jsonBody(req));
  assertPermission(actor, BULK_PERMISSIONS[bulk.action]);
  const { changed, missing } = await repo.bulkChange(bulk, actor);
  if (bulk.action === 'delete') for (const cover of new Set(changed.map((b) => b.coverImage))) await releaseCover(cover, actor);
  const verb = { price: 'repriced', stock: 'restocked', delete: 'deleted' }[bulk.action];
  noStore(res);
  res.json({ message: `${changed.length} ${changed.length === 1 ? 'book' : 'books'} ${verb}`, changed: changed.map((b) => b._id), missing } satisfies BulkBooksResponse);
}
const BULK_PERMISSIONS = { price: 'books.price', stock: 'books.stock', delete: 'books.delete' } as const;

// GET /api/covers/:name
export async function getCover(req: Request, res: Response) {
  rejectUnknownQuery(req);
  const cover = await readCover(String(req.params.name));
  if (!cover) throw new HttpError(404, 'Cover not found');
  res.set({ 'Content-Type': cover.contentType, 'Cache-Control': COVER_CACHE, 'Content-Security-Policy': "default-src 'none'" });
  res.send(cover.bytes);
}
