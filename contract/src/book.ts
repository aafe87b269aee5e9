import { z } from 'zod';
import { MAX_BOOKS_LIST } from './limits';
import { MAX_PRICE_CENTS, MAX_PRICE_DOLLARS, parseMoneyInput, toCents } from './money';
import { isAllowedCover } from './covers';
import { isCleanText, optionalText, text } from './text';

export const CATEGORIES = ['business', 'technology', 'fiction', 'horror', 'adventure'] as const;
export type Category = (typeof CATEGORIES)[number];

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

function price(label: string) {
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

/** ISBN-13 check digit: weights 1,3,1,3... over the 13 digits sum to a multiple of 10. */
export function isValidIsbn13(value: string): boolean {
  if (!/^97[89][0-9]{10}$/.test(value)) return false;
  const sum = [...value].reduce((acc, digit, i) => acc + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return sum % 10 === 0;
}

/** Accepts '978-0-306-40615-7' or '9780306406157'; stores the 13 digits. Empty means none. */
export const IsbnSchema = z
  .string({ error: 'ISBN must be text' })
  .trim()
  .transform((value) => value.replace(/[\s-]/g, ''))
  .refine((value) => value === '' || isValidIsbn13(value), 'ISBN must be a valid ISBN-13')
  .optional()
  .transform((value) => (value ? value : undefined));

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

/** 'Only N left' is shown at this many copies or fewer. */
export const LOW_STOCK_THRESHOLD = 3;

export const BookInputSchema = z
  .object({
    title: text('Title', 200),
    author: optionalText('Author', 120),
    description: text('Description', 5000, { multiline: true }),
    category: CategorySchema,
    trending: z.boolean({ error: 'Trending must be true or false' }).default(false),
    oldPrice: price('Old price'),
    newPrice: price('New price'),
    coverImage: CoverImageSchema,
    isbn: IsbnSchema,
    // Optional on the wire: a new book without it starts at 0, an edit without it keeps its stock.
    stock: StockSchema.optional(),
    // Grams, for postage (issue 27): absent keeps the stored weight on an edit, null clears it; a
    // book without one weighs the shop's default weight.
    weightGrams: WeightSchema.nullable().optional(),
  })
  .strip(); // unknown fields are dropped, never stored
export type BookInput = z.infer<typeof BookInputSchema>;

/** A new book needs a cover; an edit may leave it empty to keep the old one. */
export const CreateBookSchema = BookInputSchema.refine((book) => book.coverImage !== '', {
  message: 'Cover image is required',
  path: ['coverImage'],
});

export interface Book {
  _id: string;
  title: string;
  author?: string;
  description: string;
  category: Category;
  trending: boolean;
  coverImage: string;
  oldPrice: number;
  newPrice: number;
  isbn?: string;
  /** Copies that can still be sold; orders decrement it in their transaction, never below 0. */
  stock: number;
  /** Grams, for postage; absent: the shop's default weight applies. */
  weightGrams?: number;
  createdAt: string;
  updatedAt: string;
}

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
