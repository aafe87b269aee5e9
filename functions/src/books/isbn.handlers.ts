import type { Request, Response } from 'express';
import { ISBN_MESSAGE, looksLikeIsbn, toIsbn13, type IsbnLookup } from '@bookstore/contract';
import { requirePermission } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { lookupIsbn } from './isbn-lookup';

// GET /api/admin/isbn/:isbn  (an ISBN-13 or ISBN-10, hyphens allowed; staff who may edit books)
export async function isbnLookup(req: Request, res: Response) {
  const actor = requirePermission(req, 'books.edit');
  const raw = String(req.params.isbn ?? '');
  const isbn = raw.length <= 20 ? toIsbn13(raw) : null;
  if (!isbn) {
    const message = looksLikeIsbn(raw) ? 'This ISBN has a wrong check digit' : ISBN_MESSAGE;
    throw new HttpError(400, message, { details: { isbn: [message] } });
  }
  const { value, cached } = await lookupIsbn(isbn, actor.username);
  noStore(res);
  res.set('X-Lookup-Cache', cached ? 'hit' : 'miss');
  if (!value) throw new HttpError(404, `Open Library has no book with ISBN ${isbn}`, { isbn });
  res.json(value satisfies IsbnLookup);
}
