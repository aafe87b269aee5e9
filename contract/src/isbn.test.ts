import { describe, expect, it } from 'vitest';
import { BulkBooksSchema, canonicalLanguage, isPublicationDate } from './book';
import { BookInputSchema } from './book-fields';
import { isbn10To13, isValidIsbn10, looksLikeIsbn, toIsbn13 } from './isbn';

describe('ISBN-10 and ISBN-13', () => {
  it('checks ISBN-10 check digits, X included', () => {
    expect(isValidIsbn10('0306406152')).toBe(true);
    expect(isValidIsbn10('080442957X')).toBe(true);
    expect(isValidIsbn10('0306406153')).toBe(false);
    expect(isValidIsbn10('X306406152')).toBe(false);
  });
  it('converts ISBN-10 to ISBN-13 and normalises hyphens and spaces', () => {
    expect(isbn10To13('0306406152')).toBe('9780306406157');
    expect(toIsbn13('0-306-40615-2')).toBe('9780306406157');
    expect(toIsbn13('978 0 306 40615 7')).toBe('9780306406157');
    expect(toIsbn13('9780306406158')).toBeNull();
    expect(toIsbn13('hello')).toBeNull();
  });
  it('tells an ISBN-shaped number (whatever its check digit) from other text', () => {
    expect(looksLikeIsbn('9780306406158')).toBe(true);
    expect(looksLikeIsbn('030640615x')).toBe(true);
    expect(looksLikeIsbn('12345')).toBe(false);
  });
});

describe('book details', () => {
  const base = { title: 'T', description: 'D', category: 'fiction', oldPrice: 2, newPrice: 1, coverImage: 'book-1' };
  it('takes publisher, date, pages, format and language, normalised', () => {
    const book = BookInputSchema.parse({ ...base, publisher: ' Quiet Press ', publishedOn: '2019-04', pages: '312', format: 'Paperback', language: 'EN-gb' });
    expect(book).toMatchObject({ publisher: 'Quiet Press', publishedOn: '2019-04', pages: 312, format: 'paperback', language: 'en-GB' });
  });
  it('leaves empty details out', () => {
    const book = BookInputSchema.parse({ ...base, publisher: '', publishedOn: '', pages: '', format: '', language: '' });
    for (const field of ['publisher', 'publishedOn', 'pages', 'format', 'language']) expect(book).not.toHaveProperty(field, expect.anything());
  });
  it('refuses impossible dates, pages, formats and language tags', () => {
    for (const bad of [{ publishedOn: '2019-02-30' }, { publishedOn: '19' }, { publishedOn: '1066' }, { pages: 0 }, { pages: 1.5 }, { format: 'scroll' }, { language: 'english please' }, { language: 'e' }]) {
      expect(BookInputSchema.safeParse({ ...base, ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
    expect(isPublicationDate('2024-02-29')).toBe(true);
    expect(isPublicationDate('2023-02-29')).toBe(false);
    expect(canonicalLanguage('zh-hant')).toBe('zh-Hant');
  });
  it('takes a cover URL (http or https; the server decides) but no other scheme or credentials', () => {
    expect(BookInputSchema.parse({ ...base, coverUrl: ' https://covers.example.com/a.jpg ' }).coverUrl).toBe('https://covers.example.com/a.jpg');
    for (const coverUrl of ['javascript:alert(1)', 'file:///etc/passwd', 'https://u:p@example.com/a.jpg', 'not a url']) {
      expect(BookInputSchema.safeParse({ ...base, coverUrl }).success, coverUrl).toBe(false);
    }
  });
});

describe('BulkBooksSchema', () => {
  it('takes price, stock or delete for 1 to 100 distinct books', () => {
    expect(BulkBooksSchema.parse({ action: 'price', ids: ['a', 'b'], newPrice: '9.99' })).toEqual({ action: 'price', ids: ['a', 'b'], newPrice: 9.99 });
    expect(BulkBooksSchema.parse({ action: 'stock', ids: ['a'], stock: '0' })).toEqual({ action: 'stock', ids: ['a'], stock: 0 });
    expect(BulkBooksSchema.safeParse({ action: 'delete', ids: [] }).success).toBe(false);
    expect(BulkBooksSchema.safeParse({ action: 'delete', ids: ['a', 'a'] }).success).toBe(false);
    expect(BulkBooksSchema.safeParse({ action: 'delete', ids: Array.from({ length: 101 }, (_, i) => `b${i}`) }).success).toBe(false);
    expect(BulkBooksSchema.safeParse({ action: 'rename', ids: ['a'] }).success).toBe(false);
    expect(BulkBooksSchema.safeParse({ action: 'price', ids: ['a'], newPrice: 1.234 }).success).toBe(false);
  });
});
