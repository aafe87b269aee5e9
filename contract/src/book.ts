import { z } from 'zod';
import { MAX_BOOKS_LIST } from './limits';
import { MAX_PRICE_CENTS, MAX_PRICE_DOLLARS, parseMoneyInput, toCents } from './money';
import { isAllowedCover } from './covers';
import { isCleanText } from './text';
import { ISBN_MESSAGE, toIsbn13 } from './isbn';
import { BOOK_FORMATS, type BookFormat } from './locale';
import { MAX_PREORDER_LIMIT } from './preorder';
import type { Book } from './book-fields';
import { CATEGORIES, type Category } from './catalog-terms';

/** Firestore ids we hand out: no '/', no '..', no reserved __name__ style ids. */
export const BookIdSchema = z
  .string({ error: 'Book id must be text' })
  .regex(/^(?!__)[A-Za-z0-9_-]{1,64}$/, 'Book id is not valid');

export const CoverImageSchema = z
  .string({ error: 'Cover image must be text' })
  .trim()
  .max(2048, 'Cover image must be at most 2048 characters')
  .refine((value) => value === '' || (isCleanText(value) && isAllowedCover(value)), {
    message: 'Cover image must be a bundled cover or an uploaded cover',
  });

/** A price in dollars with at most 2 decimals, 0 to the contract's maximum (stored as integer cents). */
export function price(label: string) {
  return z.unknown().transform((value, ctx) => {
    const dollars = parseMoneyInput(value);
    if (dollars === null) {
      ctx.addIssue({ code: 'custom', message: `${label} must be a number with at most 2 decimals` });
      return z.NEVER;
    }
    const cents = toCents(dollars)!;
    if (cents < 0 || cents > MAX_PRICE_CENTS) {
      ctx.addIssue({ code: 'custom', message: `${label} must be between 0 and ${MAX_PRICE_DOLLARS}` });
      return z.NEVER;
    }
    return dollars;
  });
}

export const CategorySchema = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
  z.enum(CATEGORIES, { error: `Category must be one of ${CATEGORIES.join(', ')}` }),
);

/** Accepts an ISBN-13 or ISBN-10, with or without hyphens; stores the ISBN-13's digits. Empty means none. */
export const IsbnSchema = z
  .string({ error: 'ISBN must be text' })
  .trim()
  .refine((value) => value === '' || toIsbn13(value) !== null, ISBN_MESSAGE)
  .transform((value) => (value === '' ? '' : toIsbn13(value)!))
  .optional()
  .transform((value) => (value ? value : undefined));

// ---- Book details (issue 26): what a bookseller's catalogue says of an edition -----------------

// The formats and their labels live in locale.ts (no zod): the book page shows them without loading zod.
/** schema.org's BookFormatType for each format (JSON-LD `bookFormat`). */
export const SCHEMA_BOOK_FORMATS = {
  hardcover: 'https://schema.org/Hardcover',
  paperback: 'https://schema.org/Paperback',
  ebook: 'https://schema.org/EBook',
  audiobook: 'https://schema.org/AudiobookFormat',
} as const satisfies Record<BookFormat, string>;
export const MAX_PAGES = 100_000;

/** Blank (absent, empty, null) is "not given": the optional details are then left out. */
const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** 'YYYY', 'YYYY-MM' or 'YYYY-MM-DD' (ISO 8601, as schema.org's datePublished takes it): a real date, year 1450 to 2100. */
export function isPublicationDate(value: string): boolean {
  const m = /^([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2}))?)?$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), m[2] ? Number(m[2]) : 1, m[3] ? Number(m[3]) : 1];
  if (year < 1450 || year > 2100 || month < 1 || month > 12) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export const PublishedOnSchema = z.preprocess(
  (value) => (blank(value) ? undefined : typeof value === 'string' ? value.trim() : value),
  z
    .string({ error: 'Publication date must be text' })
    .refine(isPublicationDate, 'Publication date must be YYYY, YYYY-MM or YYYY-MM-DD')
    .optional(),
);

export const PagesSchema = z.preprocess(
  (value) => (blank(value) ? undefined : typeof value === 'string' ? Number(value.trim()) : value),
  z
    .number({ error: 'Pages must be a whole number' })
    .int('Pages must be a whole number')
    .min(1, 'Pages must be at least 1')
    .max(MAX_PAGES, `Pages must be at most ${MAX_PAGES}`)
    .optional(),
);

export const BookFormatSchema = z.preprocess(
  (value) => (blank(value) ? undefined : typeof value === 'string' ? value.trim().toLowerCase() : value),
  z.enum(BOOK_FORMATS, { error: `Format must be one of ${BOOK_FORMATS.join(', ')}` }).optional(),
);

/** A BCP 47 language tag ('en', 'en-GB', 'zh-Hant'), stored in its canonical case; null when not one. */
export function canonicalLanguage(value: string): string | null {
  if (!/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(value)) return null;
  try {
    return Intl.getCanonicalLocales(value)[0] ?? null;
  } catch {
    return null;
  }
}

export const LanguageSchema = z.preprocess(
  (value) => (blank(value) ? undefined : typeof value === 'string' ? value.trim() : value),
  z
    .string({ error: 'Language must be text' })
    .max(35, 'Language must be a BCP 47 tag such as en or en-GB')
    .refine((value) => canonicalLanguage(value) !== null, 'Language must be a BCP 47 tag such as en or en-GB')
    .transform((value) => canonicalLanguage(value)!)
    .optional(),
);

/**
 * A cover to fetch once, server-side, and store as ours (functions/src/books/cover-fetch.ts): the
 * shop never shows the address itself. The server also refuses plain http outside the emulators.
 */
export const CoverUrlSchema = z.preprocess(
  (value) => (blank(value) ? undefined : typeof value === 'string' ? value.trim() : value),
  z
    .string({ error: 'Cover URL must be text' })
    .max(2048, 'Cover URL must be at most 2048 characters')
    .refine((value) => {
      if (!isCleanText(value)) return false;
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
      } catch {
        return false;
      }
    }, 'Cover URL must be an https:// address')
    .optional(),
);

export const MAX_STOCK = 1_000_000;

export const StockSchema = z.coerce
  .number({ error: 'Stock must be a whole number' })
  .int('Stock must be a whole number')
  .min(0, 'Stock cannot be negative')
  .max(MAX_STOCK, `Stock must be at most ${MAX_STOCK}`);

export const MAX_BOOK_WEIGHT_GRAMS = 20_000;

export const WeightSchema = z.coerce
  .number({ error: 'Weight must be a whole number of grams' })
  .int('Weight must be a whole number of grams')
  .min(1, 'Weight must be at least 1 gram')
  .max(MAX_BOOK_WEIGHT_GRAMS, `Weight must be at most ${MAX_BOOK_WEIGHT_GRAMS} grams`);

/** A book's optional limit on copies waiting on pre-order at once (issue 41; a registry field; empty: no limit). */
export const PreorderLimitSchema = z.coerce
  .number({ error: 'Pre-order limit must be a whole number' })
  .int('Pre-order limit must be a whole number')
  .min(1, 'Pre-order limit must be at least 1')
  .max(MAX_PREORDER_LIMIT, `Pre-order limit must be at most ${MAX_PREORDER_LIMIT}`);

/** A book's optional reorder minimum (issue 56; a registry field): below this many copies it is suggested for the next purchase order. */
export const ReorderMinSchema = z.coerce
  .number({ error: 'Reorder minimum must be a whole number' })
  .int('Reorder minimum must be a whole number')
  .min(1, 'Reorder minimum must be at least 1')
  .max(MAX_STOCK, `Reorder minimum must be at most ${MAX_STOCK}`);

/** 'Only N left' is shown at this many copies or fewer. */
export const LOW_STOCK_THRESHOLD = 3;

export const BooksQuerySchema = z
  .object({
    limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(MAX_BOOKS_LIST).default(MAX_BOOKS_LIST),
    category: CategorySchema.optional(),
    after: BookIdSchema.optional(),
  })
  .strip();
/** What a caller asks for (the server fills in the default limit). */
export interface BooksQuery {
  limit?: number;
  category?: Category;
  after?: string;
}

export interface BookMutationResponse {
  message: string;
  book: Book;
}

/** 201 answer of POST /api/books/cover: the stored cover's name, for the book's coverImage. */
export interface CoverUploadResponse {
  coverImage: string;
}

/** 201 answer of POST /api/books/cover?isbn=: the cover, and the book it now belongs to. */
export interface CoverForIsbnResponse extends CoverUploadResponse {
  book: Book;
}

// ---- Manage Books: one change to many books (issue 26) -----------------------------------------

/** Books one bulk request may change: the page's 25, with room; one transaction reads them all. */
export const MAX_BULK_BOOKS = 100;
const BulkIdsSchema = z
  .array(BookIdSchema, { error: 'ids must be a list of book ids' })
  .min(1, 'Choose at least one book')
  .max(MAX_BULK_BOOKS, `At most ${MAX_BULK_BOOKS} books at once`)
  .refine((ids) => new Set(ids).size === ids.length, 'Each book may be listed once');

// POST /api/admin/books/bulk: set the (new) price, set the stock, or delete; one request, one
// audit event per book it changes.
export const BulkBooksSchema = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('price'), ids: BulkIdsSchema, newPrice: price('New price') }).strip(),
    z.object({ action: z.literal('stock'), ids: BulkIdsSchema, stock: StockSchema }).strip(),
    z.object({ action: z.literal('delete'), ids: BulkIdsSchema }).strip(),
  ],
  { error: 'action must be price, stock or delete' },
);
export type BulkBooks = z.infer<typeof BulkBooksSchema>;

export interface BulkBooksResponse {
  message: string;
  /** Books changed (one audit event each); a book already at that price or stock is not. */
  changed: string[];
  /** Listed books that no longer exist (deleted meanwhile): skipped. */
  missing: string[];
}
