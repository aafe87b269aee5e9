import { describe, expect, it } from 'vitest';
import { BookInputSchema, BooksQuerySchema, CreateBookSchema, isAllowedCover, isValidIsbn13, MAX_BOOKS_LIST } from './index';

const base = { title: 'T', description: 'D', category: 'Horror', oldPrice: 10, newPrice: '5.50', coverImage: 'book-2' };

describe('BookInputSchema', () => {
  it('lowercases the category, coerces a numeric string price and drops unknown fields', () => {
    const book = BookInputSchema.parse({ ...base, role: 'admin' });
    expect(book).toEqual({ title: 'T', description: 'D', category: 'horror', trending: false, oldPrice: 10, newPrice: 5.5, coverImage: 'book-2' });
  });

  it('enforces price bounds and decimals', () => {
    expect(BookInputSchema.safeParse({ ...base, newPrice: 10000.01 }).success).toBe(false);
    expect(BookInputSchema.safeParse({ ...base, newPrice: 10000 }).success).toBe(true);
    expect(BookInputSchema.safeParse({ ...base, newPrice: 0 }).success).toBe(true);
    expect(BookInputSchema.safeParse({ ...base, newPrice: 1.234 }).success).toBe(false);
  });

  it('refuses lone surrogates and NUL bytes but keeps ordinary unicode', () => {
    expect(BookInputSchema.safeParse({ ...base, title: 'bad\uD800' }).success).toBe(false);
    expect(BookInputSchema.safeParse({ ...base, title: 'nul\u0000' }).success).toBe(false);
    expect(BookInputSchema.parse({ ...base, title: 'كتاب \u200F 📚' }).title).toBe('كتاب \u200F 📚');
  });

  it('requires a cover on create but lets edit keep the old one with an empty value', () => {
    expect(CreateBookSchema.safeParse({ ...base, coverImage: '' }).success).toBe(false);
    expect(BookInputSchema.safeParse({ ...base, coverImage: '' }).success).toBe(true);
  });
});

describe('isAllowedCover', () => {
  it('accepts bundled names and uploaded paths only: no URL, so no tracking pixel', () => {
    expect(isAllowedCover('book-20.png')).toBe(true);
    expect(isAllowedCover('book-23')).toBe(true);
    expect(isAllowedCover('book-24')).toBe(false);
    expect(isAllowedCover(`covers/${'a'.repeat(32)}.webp`)).toBe(true);
    expect(isAllowedCover('covers/../secret.png')).toBe(false);
    expect(isAllowedCover('https://images.example.com/c.jpg')).toBe(false);
    expect(isAllowedCover('https://firebasestorage.googleapis.com/v0/b/x/o/covers%2Fa.png?alt=media')).toBe(false);
    expect(isAllowedCover('http://images.example.com/c.jpg')).toBe(false);
    expect(isAllowedCover('javascript:alert(1)')).toBe(false);
    expect(isAllowedCover('data:image/png;base64,AAAA')).toBe(false);
  });
});

describe('ISBN-13 and stock', () => {
  const base = { title: 'T', description: 'D', category: 'fiction', oldPrice: 2, newPrice: 1, coverImage: 'book-1' };
  it('accepts a valid ISBN-13 with or without hyphens and stores the digits', () => {
    expect(isValidIsbn13('9780306406157')).toBe(true);
    expect(BookInputSchema.parse({ ...base, isbn: '978-0-306-40615-7' }).isbn).toBe('9780306406157');
  });
  it('refuses a wrong check digit and a short number', () => {
    expect(isValidIsbn13('9780306406158')).toBe(false);
    expect(BookInputSchema.safeParse({ ...base, isbn: '978030640615' }).success).toBe(false);
    expect(BookInputSchema.safeParse({ ...base, isbn: '0306406153' }).success).toBe(false);
  });
  it('takes an ISBN-10 (X as its check digit too) and stores its ISBN-13', () => {
    expect(BookInputSchema.parse({ ...base, isbn: '0-306-40615-2' }).isbn).toBe('9780306406157');
    expect(BookInputSchema.parse({ ...base, isbn: '080442957x' }).isbn).toBe('9780804429573');
    expect(BookInputSchema.safeParse({ ...base, isbn: '0306406153' }).error?.issues[0]?.message).toBe('ISBN must be a valid ISBN-13 or ISBN-10');
  });
  it('takes stock as a whole number from 0, and leaves it out when not sent', () => {
    expect(BookInputSchema.parse({ ...base, stock: '4' }).stock).toBe(4);
    expect(BookInputSchema.parse(base).stock).toBeUndefined();
    expect(BookInputSchema.safeParse({ ...base, stock: -1 }).success).toBe(false);
    expect(BookInputSchema.safeParse({ ...base, stock: 1.5 }).success).toBe(false);
  });
});

describe('BooksQuerySchema', () => {
  it('pages every list: no limit means the cap, and the cap is the most one can ask for', () => {
    expect(BooksQuerySchema.parse({}).limit).toBe(MAX_BOOKS_LIST);
    expect(BooksQuerySchema.parse({ limit: '24' }).limit).toBe(24);
    expect(BooksQuerySchema.safeParse({ limit: MAX_BOOKS_LIST + 1 }).success).toBe(false);
  });
});
