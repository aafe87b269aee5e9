import { z } from 'zod';
import { bookField, BOOK_FIELDS, type Book, type BookFieldSpec, type BookFormat, type Category } from './index';

// Compile-time guarantees of the book's field registry, checked by `tsc -p contract` (npm run
// typecheck) and by book-fields.compile.test.ts (the unit tests), which also checks that each
// `@ts-expect-error` below is an error for the reason it names.

// A field without a write permission does not compile, whether it is written with bookField()...
// @ts-expect-error write: a field without a permission
export const noPermission = bookField({ schema: z.string(), required: false, label: 'Blurb' });

// ...or added to the registry's object by hand.
// @ts-expect-error write: a field without a permission
export const byHand = { ...BOOK_FIELDS, blurb: { schema: z.string(), required: false, label: 'Blurb' } } satisfies Record<string, BookFieldSpec>;

// Only the book permissions: a field cannot be written under an order or staff permission.
// @ts-expect-error write: not a book permission
export const wrongPermission = bookField({ schema: z.string(), write: 'orders.status', required: false, label: 'Blurb' });

// The derived Book is exactly the API's book: a field added to the registry shows up here.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Flat<T> = { [K in keyof T]: T[K] };
export const bookShape: Equal<
  Flat<Book>,
  {
    _id: string;
    createdAt: string;
    updatedAt: string;
    title: string;
    subtitle?: string;
    author?: string;
    description: string;
    category: Category;
    trending: boolean;
    oldPrice: number;
    newPrice: number;
    isbn?: string;
    stock: number;
    weightGrams?: number;
    preorderLimit?: number;
    reorderMin?: number;
    publisher?: string;
    publishedOn?: string;
    pages?: number;
    format?: BookFormat;
    language?: string;
    coverImage: string;
  }
> = true;
