import { fromCents, type CounterBook, type CounterBooksPage } from '@bookstore/contract';
import { FieldPath, type QueryDocumentSnapshot } from 'firebase-admin/firestore';
import { books, type BookDoc } from '../books/book-doc';
import { HttpError } from '../lib/http-error';
import { runQuery } from '../lib/queries';

// What the counter keeps on the device to look ISBNs up without the network (issue 39; decision
// 031): per book its id, ISBN, title, author and price, nothing else (about 120 bytes). The counter
// copies the whole list once, in pages, then asks only for what changed since its last copy
// (`since`: books whose `updatedAt` moved, which every field change through the book write path
// does; a stock change does not, and the counter needs no stock to sell). A page is one range query
// on `updatedAt` (its single-field index) with the fields `select()`ed: its cost is its own size,
// never the catalogue's.

const FIELDS = ['isbn', 'title', 'author', 'newPriceCents', 'updatedAt'] as const;

export function counterBook(id: string, doc: Pick<BookDoc, (typeof FIELDS)[number]>): CounterBook {
  return { _id: id, isbn: doc.isbn ?? null, title: doc.title, ...(doc.author ? { author: doc.author } : {}), price: fromCents(doc.newPriceCents), updatedAt: doc.updatedAt };
}

interface Cursor {
  updatedAt: string;
  id: string;
}

const encode = (c: Cursor) => Buffer.from(JSON.stringify([c.updatedAt, c.id])).toString('base64url');

function decode(value: string): Cursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(parsed[0]) && typeof parsed[1] === 'string' && /^(?!__)[A-Za-z0-9_-]{1,64}$/.test(parsed[1])) {
      return { updatedAt: parsed[0], id: parsed[1] };
    }
  } catch {
    /* fall through */
  }
  throw new HttpError(400, 'cursor is not valid');
}

/** One page of the books changed at or after `since` (all books without it), oldest change first. */
export async function counterBooksPage(request: { since?: string; cursor?: string; limit: number }): Promise<CounterBooksPage> {
  const after = request.cursor ? decode(request.cursor) : undefined;
  // Stored times are toISOString()'s (milliseconds, Z): `since` is written the same way before comparing as text.
  const since = request.since ? new Date(request.since).toISOString() : undefined;
  const from = [since, after?.updatedAt].filter((v): v is string => !!v).sort().pop();
  let query = books().select(...FIELDS).orderBy('updatedAt').orderBy(FieldPath.documentId());
  if (from) query = query.where('updatedAt', '>=', from);
  query = after ? query.startAfter(after.updatedAt, after.id) : query;
  const snap = await runQuery(query.limit(request.limit));
  const list = snap.docs.map((d: QueryDocumentSnapshot) => counterBook(d.id, d.data() as BookDoc));
  const last = list[list.length - 1];
  return { books: list, nextCursor: last && list.length === request.limit ? encode({ updatedAt: last.updatedAt, id: last._id }) : null };
}

/** The book with this ISBN-13 and its stock (the first, if a hand-made duplicate exists), or null. */
export async function counterBookByIsbn(isbn: string): Promise<(CounterBook & { stock: number }) | null> {
  const snap = await runQuery(books().where('isbn', '==', isbn).limit(1));
  const doc = snap.docs[0];
  return doc ? { ...counterBook(doc.id, doc.data() as BookDoc), stock: (doc.data() as BookDoc).stock ?? 0 } : null;
}
