import { z } from 'zod';
import type { BookLeaf } from 'schema-dts';
import {
  BookFormatSchema, CategorySchema, CoverImageSchema, CoverUrlSchema, IsbnSchema, LanguageSchema, MAX_BOOK_WEIGHT_GRAMS, MAX_PAGES,
  MAX_STOCK, PagesSchema, PreorderLimitSchema, price, PublishedOnSchema, ReorderMinSchema, SCHEMA_BOOK_FORMATS, StockSchema, WeightSchema,
} from './book';
import { CATEGORIES } from './catalog-terms';
import { BOOK_FORMAT_LABELS, BOOK_FORMATS } from './locale';
import { MAX_PREORDER_LIMIT } from './preorder';
import { fromCents, toCents } from './money';
import type { Permission } from './staff';
import { optionalText, text } from './text';

// THE book's fields (issue 37; STYLE.md section 13): one entry per field says what it is on the wire
// (its zod schema), who may change it, how it is stored, its import column, whether search reads it,
// how the form asks for it, whether the ISBN lookup may fill it and what JSON-LD calls it. The
// schema, the `Book` type, the permissions, the import's columns, the search index's fields, the
// form and the JSON-LD derive from this object; nothing else lists a book's fields. A new field is
// one entry here plus the UI that shows it (docs/decisions/032-book-field-registry.md).

/** The permissions a book's field may be changed under (who holds them: contract/src/staff.ts POLICY). */
export type BookWritePermission = Extract<Permission, 'books.edit' | 'books.price' | 'books.stock'>;

/** How an import row that leaves the column out, or empty, treats a book it updates. */
export type ImportUpdate =
  /** The row's value replaces the stored one; absent or empty clears it. */
  | 'replace'
  /** An empty cell, or no column, keeps the stored value. */
  | 'blank-keeps'
  /** No column keeps the stored value; the column present but empty clears it. */
  | 'absent-keeps';

export interface FormSpec {
  input: 'text' | 'number' | 'money' | 'select' | 'checkbox' | 'cover';
  /** Grey words after the label, e.g. '(optional)'. */
  hint?: string;
  placeholder?: string;
  /** A select's choices, and the label of its empty choice. */
  options?: readonly { value: string; label: string }[];
  empty?: string;
  /** Fields with the same row stand side by side from sm up. */
  row?: string;
  /** Fields of a section are grouped under its legend ('edition': Edition details). */
  section?: 'edition';
  inputMode?: 'numeric' | 'text';
  step?: string;
  min?: number;
  max?: number;
  maxLength?: number;
  /** The form insists on a value although the wire may leave it out (stock). */
  required?: boolean;
}

export interface BookFieldSpec<S extends z.ZodType = z.ZodType, R extends boolean = boolean> {
  /** The field on the wire, in the form and in the import (prices in dollars). */
  schema: S;
  /** Who may change it. Required: a field without a permission does not compile (book-fields.type-test.ts). */
  write: BookWritePermission;
  /** Every book has it; the others are left out of a book (and its document) when not given. */
  required: R;
  /** The form's label (and the audit log's, the ISBN lookup's summary in lower case). */
  label: string;
  /** Stored in integer cents under `<name>Cents` (prices); otherwise stored as it is, under its name. */
  stored?: 'cents';
  /** A stored document from before the field existed reads as this. */
  missing?: z.output<S>;
  /** An edit (PUT) that leaves it out, or sends it empty, keeps the stored value (stock, weight, cover); others are replaced. */
  keptWhenAbsent?: true;
  /** Free text a spreadsheet could turn into a formula: the import refuses one that starts like a formula. */
  freeText?: true;
  /** Its import column: 'core' columns are the header row the import page shows; `needed` ones must be there. */
  csv?: { group: 'core' | 'detail' | 'optional'; needed?: true; update: ImportUpdate };
  /** Searched by the shop's search (its weight) and by Manage Books' search (`staff`, its weight). */
  search?: { weight: number; staff?: number };
  form?: FormSpec;
  /** The ISBN lookup may fill it from Open Library (functions/src/books/isbn-lookup.ts). */
  lookup?: true;
  /** What schema.org's Book says of it (the book page's JSON-LD). */
  jsonLd?(value: NonNullable<z.output<S>>): Partial<BookLeaf>;
}

/**
 * One field of the registry. The type parameters keep what the entry says (`required`, `stored`,
 * `search`, `lookup`) for the types derived below, and let `jsonLd` see the field's own value type.
 */
export function bookField<S extends z.ZodType, R extends boolean, const X extends Partial<BookFieldSpec<S, R>>>(spec: BookFieldSpec<S, R> & X): BookFieldSpec<S, R> & X {
  return spec;
}

const capitalised = (value: string) => value[0]!.toUpperCase() + value.slice(1);

export const BOOK_FIELDS = {
  title: bookField({
    schema: text('Title', 200), write: 'books.edit', required: true, label: 'Title', freeText: true,
    csv: { group: 'core', needed: true, update: 'replace' }, search: { weight: 6, staff: 2 }, lookup: true,
    form: { input: 'text', placeholder: 'Enter book title' }, jsonLd: (name) => ({ name }),
  }),
  subtitle: bookField({
    schema: optionalText('Subtitle', 200).optional(), write: 'books.edit', required: false, label: 'Subtitle', freeText: true,
    csv: { group: 'detail', update: 'absent-keeps' }, search: { weight: 4 }, lookup: true,
    form: { input: 'text', hint: '(optional)', maxLength: 200 }, jsonLd: (alternativeHeadline) => ({ alternativeHeadline }),
  }),
  author: bookField({
    schema: optionalText('Author', 120), write: 'books.edit', required: false, label: 'Author', freeText: true,
    csv: { group: 'core', update: 'replace' }, search: { weight: 3, staff: 1 }, lookup: true,
    form: { input: 'text', placeholder: 'Enter author name' }, jsonLd: (name) => ({ author: { '@type': 'Person', name } }),
  }),
  description: bookField({
    schema: text('Description', 5000, { multiline: true }), write: 'books.edit', required: true, label: 'Description', freeText: true,
    csv: { group: 'core', needed: true, update: 'replace' }, search: { weight: 1 },
    form: { input: 'text', placeholder: 'Enter book description' }, jsonLd: (description) => ({ description }),
  }),
  category: bookField({
    schema: CategorySchema, write: 'books.edit', required: true, label: 'Category',
    csv: { group: 'core', needed: true, update: 'replace' }, search: { weight: 2 },
    form: { input: 'select', empty: 'Choose A Category', options: CATEGORIES.map((c) => ({ value: c, label: capitalised(c) })) },
    jsonLd: (genre) => ({ genre }),
  }),
  trending: bookField({
    schema: z.boolean({ error: 'Trending must be true or false' }).default(false), write: 'books.edit', required: true, label: 'Trending',
    missing: false, csv: { group: 'optional', update: 'blank-keeps' }, form: { input: 'checkbox' },
  }),
  oldPrice: bookField({
    schema: price('Old price'), write: 'books.price', required: true, label: 'Old Price', stored: 'cents',
    csv: { group: 'core', needed: true, update: 'replace' }, form: { input: 'money', row: 'prices', placeholder: 'Old Price' },
  }),
  newPrice: bookField({
    schema: price('New price'), write: 'books.price', required: true, label: 'New Price', stored: 'cents',
    csv: { group: 'core', needed: true, update: 'replace' }, form: { input: 'money', row: 'prices', placeholder: 'New Price' },
  }),
  isbn: bookField({
    schema: IsbnSchema, write: 'books.edit', required: false, label: 'ISBN-13 or ISBN-10',
    csv: { group: 'core', update: 'replace' },
    form: { input: 'text', row: 'isbn-stock', hint: '(optional)', inputMode: 'numeric', placeholder: '978-0-306-40615-7' }, jsonLd: (isbn) => ({ isbn }),
  }),
  stock: bookField({
    // Optional on the wire: a new book without it starts at 0, an edit without it keeps its stock.
    schema: StockSchema.optional(), write: 'books.stock', required: true, label: 'Stock', missing: 0, keptWhenAbsent: true,
    csv: { group: 'core', update: 'blank-keeps' },
    form: { input: 'number', row: 'isbn-stock', step: '1', min: 0, max: MAX_STOCK, placeholder: 'Copies in stock', required: true },
  }),
  weightGrams: bookField({
    // Grams, for postage (issue 27): absent keeps the stored weight on an edit, null clears it; a
    // book without one weighs the shop's default weight.
    schema: WeightSchema.nullable().optional(), write: 'books.edit', required: false, label: 'Weight in grams', keptWhenAbsent: true,
    csv: { group: 'optional', update: 'blank-keeps' },
    form: { input: 'number', hint: '(optional, for postage)', step: '1', min: 1, max: MAX_BOOK_WEIGHT_GRAMS, placeholder: "Empty: the shop's default weight" },
  }),
  preorderLimit: bookField({
    // Issue 41: at most this many copies wait on pre-order at once (a forthcoming book); empty: no limit.
    schema: PreorderLimitSchema.nullable().optional(), write: 'books.stock', required: false, label: 'Pre-order limit', keptWhenAbsent: true,
    csv: { group: 'optional', update: 'blank-keeps' },
    form: { input: 'number', hint: '(optional, for forthcoming books)', step: '1', min: 1, max: MAX_PREORDER_LIMIT, placeholder: 'Empty: no limit' },
  }),
  reorderMin: bookField({
    // Issue 56: below this many copies the book is suggested for the next purchase order; empty: never.
    schema: ReorderMinSchema.nullable().optional(), write: 'books.stock', required: false, label: 'Reorder minimum', keptWhenAbsent: true,
    csv: { group: 'optional', update: 'blank-keeps' },
    form: { input: 'number', hint: '(optional, suggests a reorder below it)', step: '1', min: 1, max: MAX_STOCK, placeholder: 'Empty: never suggested' },
  }),
  // The edition's details (issue 26).
  publisher: bookField({
    schema: optionalText('Publisher', 120).optional(), write: 'books.edit', required: false, label: 'Publisher', freeText: true,
    csv: { group: 'detail', update: 'absent-keeps' }, lookup: true, form: { input: 'text', section: 'edition', maxLength: 120 },
    jsonLd: (name) => ({ publisher: { '@type': 'Organization', name } }),
  }),
  publishedOn: bookField({
    schema: PublishedOnSchema, write: 'books.edit', required: false, label: 'Publication date',
    csv: { group: 'detail', update: 'absent-keeps' }, lookup: true,
    form: { input: 'text', section: 'edition', row: 'date-pages', hint: '(YYYY, YYYY-MM or YYYY-MM-DD)', placeholder: '2019-04-02', inputMode: 'numeric' },
    jsonLd: (datePublished) => ({ datePublished }),
  }),
  pages: bookField({
    schema: PagesSchema, write: 'books.edit', required: false, label: 'Pages',
    csv: { group: 'detail', update: 'absent-keeps' }, lookup: true,
    form: { input: 'number', section: 'edition', row: 'date-pages', step: '1', min: 1, max: MAX_PAGES }, jsonLd: (numberOfPages) => ({ numberOfPages }),
  }),
  format: bookField({
    schema: BookFormatSchema, write: 'books.edit', required: false, label: 'Format',
    csv: { group: 'detail', update: 'absent-keeps' },
    form: { input: 'select', section: 'edition', row: 'format-language', empty: 'Not given', options: BOOK_FORMATS.map((f) => ({ value: f, label: BOOK_FORMAT_LABELS[f] })) },
    jsonLd: (format) => ({ bookFormat: SCHEMA_BOOK_FORMATS[format] }),
  }),
  language: bookField({
    schema: LanguageSchema, write: 'books.edit', required: false, label: 'Language',
    csv: { group: 'detail', update: 'absent-keeps' },
    form: { input: 'text', section: 'edition', row: 'format-language', hint: '(BCP 47, e.g. en, en-GB)', placeholder: 'en', maxLength: 35 },
    jsonLd: (inLanguage) => ({ inLanguage }),
  }),
  coverImage: bookField({
    // Empty on an edit keeps the cover; a new book needs one (CreateBookSchema).
    schema: CoverImageSchema, write: 'books.edit', required: true, label: 'Cover Image URL', keptWhenAbsent: true,
    csv: { group: 'core', update: 'blank-keeps' }, form: { input: 'cover', placeholder: 'Cover Image URL' },
  }),
};

// ---- What derives from it ------------------------------------------------------------------------

type Fields = typeof BOOK_FIELDS;
export type BookFieldName = keyof Fields;
type ValueOf<K extends BookFieldName> = NonNullable<z.output<Fields[K]['schema']>>;
type RequiredName = { [K in BookFieldName]: Fields[K]['required'] extends true ? K : never }[BookFieldName];
type OptionalName = Exclude<BookFieldName, RequiredName>;
type Specs = Record<BookFieldName, BookFieldSpec>;
/** The registry, seen field by field (for code that walks every field). */
export const BOOK_FIELD_SPECS: Specs = BOOK_FIELDS;
export const BOOK_FIELD_NAMES = Object.keys(BOOK_FIELDS) as BookFieldName[];

/** A book's own fields, as the API answers them (prices in dollars). */
export type BookFields = { [K in RequiredName]: ValueOf<K> } & { [K in OptionalName]?: ValueOf<K> };

/** A book, as the API answers it. */
export interface Book extends BookFields {
  _id: string;
  createdAt: string;
  updatedAt: string;
}

/** The fields to change: a value replaces the stored one; null (or '') clears an optional field; a field left out keeps its value. */
export type BookPatch = { [K in BookFieldName]?: ValueOf<K> | null };

const fieldSchemas = Object.fromEntries(BOOK_FIELD_NAMES.map((name) => [name, BOOK_FIELD_SPECS[name].schema])) as { [K in BookFieldName]: Fields[K]['schema'] };

/** POST /api/books/create-book and PUT /api/books/edit/:id, the form and the import's rows. */
export const BookInputSchema = z
  .object({
    ...fieldSchemas,
    /** Instead of coverImage: fetched by the server and stored as an uploaded cover (never kept as a URL). */
    coverUrl: CoverUrlSchema,
  })
  .strip(); // unknown fields are dropped, never stored
export type BookInput = z.infer<typeof BookInputSchema>;

/** A new book needs a cover (or a cover URL to fetch it from); an edit may leave it empty to keep the old one. */
export const CreateBookSchema = BookInputSchema.refine((book) => book.coverImage !== '' || book.coverUrl !== undefined, {
  message: 'Cover image is required',
  path: ['coverImage'],
});

/** Blank: not given (an optional field is then left out of the book). */
export const isBlank = (value: unknown) => value === undefined || value === null || value === '';

/** A new book's fields from the form's or the API's input (no stock: 0; a blank optional field: left out). */
export function bookFieldsOf(input: BookInput): BookFields {
  const fields: Record<string, unknown> = {};
  for (const name of BOOK_FIELD_NAMES) if (!isBlank(input[name])) fields[name] = input[name];
  return { ...fields, stock: input.stock ?? 0 } as BookFields;
}

// ---- Stored form (Firestore) ---------------------------------------------------------------------

type StoredName<K extends BookFieldName> = Fields[K] extends { stored: 'cents' } ? `${K}Cents` : K;
type StoredValue<K extends BookFieldName> = Fields[K] extends { stored: 'cents' } ? number : ValueOf<K>;
/** A book's fields as stored: prices in integer cents under `<name>Cents`, the rest as they are. */
export type StoredBookFields = { [K in RequiredName as StoredName<K>]: StoredValue<K> } & { [K in OptionalName as StoredName<K>]?: StoredValue<K> };

export const storedName = (name: BookFieldName): string => (BOOK_FIELD_SPECS[name].stored === 'cents' ? `${name}Cents` : name);
/** Every field's stored name, in the registry's order (what the audit log compares). */
export const STORED_FIELD_NAMES = BOOK_FIELD_NAMES.map(storedName);

/** A book's fields as stored: blank optional fields left out, prices in cents. */
export function toStoredFields(fields: BookFields): StoredBookFields {
  const out: Record<string, unknown> = {};
  for (const name of BOOK_FIELD_NAMES) {
    const spec = BOOK_FIELD_SPECS[name];
    const value = (fields as Record<string, unknown>)[name];
    if (isBlank(value)) continue;
    out[storedName(name)] = spec.stored === 'cents' ? toCents(value as number) : value;
  }
  return out as StoredBookFields;
}

/** The stored fields back as the API's (a field missing from an old document reads as its `missing` value, or is left out). */
export function fromStoredFields(stored: Record<string, unknown>): BookFields {
  const out: Record<string, unknown> = {};
  for (const name of BOOK_FIELD_NAMES) {
    const spec = BOOK_FIELD_SPECS[name];
    const value = stored[storedName(name)];
    if (isBlank(value)) {
      if (spec.missing !== undefined) out[name] = spec.missing;
      continue;
    }
    out[name] = spec.stored === 'cents' ? fromCents(value as number) : value;
  }
  return out as BookFields;
}

// ---- Permissions ---------------------------------------------------------------------------------

/** The permission each field needs, by stored name (what the audit log and the write path compare). */
export const STORED_FIELD_PERMISSIONS: Readonly<Record<string, BookWritePermission>> = Object.fromEntries(
  BOOK_FIELD_NAMES.map((name) => [storedName(name), BOOK_FIELD_SPECS[name].write]),
);

// ---- Import columns ------------------------------------------------------------------------------

const csvColumns = (group: 'core' | 'detail' | 'optional') => BOOK_FIELD_NAMES.filter((name) => BOOK_FIELD_SPECS[name].csv?.group === group);
/** The header row the import page shows (the columns a bookseller's file usually has). */
export const IMPORT_COLUMNS: readonly string[] = csvColumns('core');
/** Optional columns of a bookseller's catalogue (issue 26): `coverUrl` (fetched once, stored as ours) and the edition's details. */
export const IMPORT_DETAIL_COLUMNS: readonly string[] = ['coverUrl', ...csvColumns('detail')];
/** Optional extra columns: `id` upserts a known book by id; the rest are kept as stored when absent. */
export const IMPORT_OPTIONAL_COLUMNS: readonly string[] = ['id', ...csvColumns('optional')];
export const IMPORT_REQUIRED_COLUMNS: readonly string[] = BOOK_FIELD_NAMES.filter((name) => BOOK_FIELD_SPECS[name].csv?.needed);
/** The fields whose text the import checks for spreadsheet formulas. */
export const FREE_TEXT_FIELDS: readonly BookFieldName[] = BOOK_FIELD_NAMES.filter((name) => BOOK_FIELD_SPECS[name].freeText);

// ---- Search --------------------------------------------------------------------------------------

type SearchedName = { [K in BookFieldName]: Fields[K] extends { search: object } ? K : never }[BookFieldName];
/** A book's searched fields (all text, stored under their own names). */
export type SearchedBookFields = Pick<BookFields, SearchedName>;
export const SEARCHED_FIELDS = BOOK_FIELD_NAMES.filter((name) => BOOK_FIELD_SPECS[name].search) as SearchedName[];
/** The fields the shop's search reads, with their weights (a title match outweighs an author's, ...). */
export const SEARCH_WEIGHTS: Readonly<Partial<Record<BookFieldName, number>>> = Object.fromEntries(
  BOOK_FIELD_NAMES.flatMap((name) => (BOOK_FIELD_SPECS[name].search ? [[name, BOOK_FIELD_SPECS[name].search!.weight]] : [])),
);
/** The fields Manage Books' search reads (title or author), with their weights. */
export const STAFF_SEARCH_WEIGHTS: Readonly<Partial<Record<BookFieldName, number>>> = Object.fromEntries(
  BOOK_FIELD_NAMES.flatMap((name) => (BOOK_FIELD_SPECS[name].search?.staff ? [[name, BOOK_FIELD_SPECS[name].search!.staff!]] : [])),
);

// ---- ISBN lookup ---------------------------------------------------------------------------------

type LookupName = { [K in BookFieldName]: Fields[K] extends { lookup: true } ? K : never }[BookFieldName];
/** The fields the ISBN lookup may fill, in the form's order. */
export const LOOKUP_FIELDS = BOOK_FIELD_NAMES.filter((name) => BOOK_FIELD_SPECS[name].lookup) as LookupName[];

/**
 * GET /api/admin/isbn/:isbn: what Open Library knows of an edition, as the book form's fields.
 * Only what it says is present; the form fills only the fields the admin left empty.
 */
export type IsbnLookup = { [K in LookupName]?: ValueOf<K> } & {
  /** The ISBN-13 (an ISBN-10 asked for is converted). */
  isbn: string;
  /** A cover to fetch on save (the server fetches it once and keeps its own copy). */
  coverUrl?: string;
  /** Where the answer came from, for the form to credit. */
  source: 'Open Library';
};

// ---- JSON-LD -------------------------------------------------------------------------------------

/** What schema.org's Book says of a book's own fields (the page adds its address, image and offer). */
export function bookJsonLd(book: BookFields): Partial<BookLeaf> {
  const out: Partial<BookLeaf> = {};
  for (const name of BOOK_FIELD_NAMES) {
    const value = (book as Record<string, unknown>)[name];
    const map = BOOK_FIELD_SPECS[name].jsonLd as ((value: unknown) => Partial<BookLeaf>) | undefined;
    if (map && !isBlank(value)) Object.assign(out, map(value));
  }
  return out;
}
