import { z } from 'zod';
import { MAX_PRICE_CENTS, parseMoneyInput, toCents } from './money';
import { isAllowedCover } from './covers';
import { isCleanText, text } from './text';

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
    message: 'Cover image must be a bundled cover, an uploaded cover or an https URL',
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
      ctx.addIssue({ code: 'custom', message: `${label} must be between 0 and 10000` });
      return z.NEVER;
    }
    return dollars;
  });
}

export const CategorySchema = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
  z.enum(CATEGORIES, { error: `Category must be one of ${CATEGORIES.join(', ')}` }),
);

export const BookInputSchema = z
  .object({
    title: text('Title', 200),
    author: z
      .string({ error: 'Author must be text' })
      .trim()
      .max(120, 'Author must be at most 120 characters')
      .refine((value) => isCleanText(value), 'Author contains characters that are not allowed')
      .optional()
      .transform((value) => (value ? value : undefined)),
    description: text('Description', 5000, { multiline: true }),
    category: CategorySchema,
    trending: z.boolean({ error: 'Trending must be true or false' }).default(false),
    oldPrice: price('Old price'),
    newPrice: price('New price'),
    coverImage: CoverImageSchema,
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
  createdAt: string;
  updatedAt: string;
}

export const BooksQuerySchema = z
  .object({
    limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(100).optional(),
    category: CategorySchema.optional(),
    after: BookIdSchema.optional(),
  })
  .strip();
export type BooksQuery = z.infer<typeof BooksQuerySchema>;

export interface BookMutationResponse {
  message: string;
  book: Book;
}
