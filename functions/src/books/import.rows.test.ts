import { recordsFromCsv, recordsFromNdjson } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import { validateRecords } from './import.rows';

const HEADER = 'title,author,description,category,oldPrice,newPrice,stock,isbn,coverImage';

describe('import rows', () => {
  it('validates CSV rows with the book schema and numbers rows from firstRow', () => {
    const csv = [
      HEADER,
      'Good,"Doe, Jane","Two\nlines",Fiction,20,12.5,4,978-0-306-40615-7,book-1',
      'Bad price,,D,fiction,20,12.345,,9780306406157,book-1',
      'No isbn,,D,fiction,20,10,,,book-2',
      'Bad cat,,D,poetry,20,10,1,9781861972712,book-2',
    ].join('\n');
    const { rows, errors } = validateRecords(recordsFromCsv(csv), 11);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ row: 11, input: { title: 'Good', author: 'Doe, Jane', description: 'Two\nlines', category: 'fiction', newPrice: 12.5, stock: 4, isbn: '9780306406157' } });
    // Every 'replace' field, and the stock and cover given; not trending, weight nor any detail (no such columns).
    expect(rows[0]!.given).toEqual(['title', 'author', 'description', 'category', 'oldPrice', 'newPrice', 'isbn', 'stock', 'coverImage']);
    expect(errors.map((e) => [e.row, e.field])).toEqual([[12, 'newPrice'], [13, 'isbn'], [14, 'category']]);
  });

  it('reports a repeated ISBN on the later row and an empty cover as not given', () => {
    const csv = [HEADER, 'A,,D,fiction,1,1,,9780306406157,', 'B,,D,fiction,1,1,,9780306406157,book-1'].join('\n');
    const { rows, errors } = validateRecords(recordsFromCsv(csv));
    expect(rows[0]!.given).not.toContain('coverImage');
    expect(errors).toEqual([{ row: 2, field: 'isbn', message: 'Same ISBN as row 1' }]);
  });

  it('accepts an id column instead of an ISBN, and trending yes/no', () => {
    const csv = ['id,title,description,category,oldPrice,newPrice,trending,coverImage', 'abc_1,T,D,fiction,1,1,yes,book-3', 'bad/id,T,D,fiction,1,1,maybe,book-3'].join('\n');
    const { rows, errors } = validateRecords(recordsFromCsv(csv));
    expect(rows).toMatchObject([{ row: 1, id: 'abc_1', input: { trending: true } }]);
    expect(rows[0]!.given).toContain('trending');
    expect(errors.map((e) => e.field)).toEqual(['id', 'trending']);
  });

  it('takes an optional weightGrams column (issue 27): a whole number of grams; empty keeps the stored weight', () => {
    const csv = [`${HEADER},weightGrams`, 'Heavy,,D,fiction,1,1,,9780306406157,book-1,850', 'Light,,D,fiction,1,1,,9781861972712,book-1,', 'Odd,,D,fiction,1,1,,9783161484100,book-1,12.5'].join('\n');
    const { rows, errors } = validateRecords(recordsFromCsv(csv));
    expect(rows.map((r) => [r.input.title, r.input.weightGrams, r.given.includes('weightGrams')])).toEqual([['Heavy', 850, true], ['Light', undefined, false]]);
    expect(errors).toEqual([{ row: 3, field: 'weightGrams', message: 'Weight must be a whole number of grams' }]);
  });

  it('takes a subtitle column (issue 37): absent keeps the stored subtitle, present and empty clears it', () => {
    const csv = [`${HEADER},subtitle`, 'Atlas,,D,fiction,1,1,,9780306406157,book-1,Maps of Quiet Coasts', 'Plain,,D,fiction,1,1,,9781861972712,book-1,'].join('\n');
    const { rows, errors } = validateRecords(recordsFromCsv(csv));
    expect(errors).toEqual([]);
    expect(rows.map((r) => [r.input.subtitle, r.given.includes('subtitle')])).toEqual([['Maps of Quiet Coasts', true], [undefined, true]]);
    expect(validateRecords(recordsFromCsv([HEADER, 'Atlas,,D,fiction,1,1,,9780306406157,book-1'].join('\n'))).rows[0]!.given).not.toContain('subtitle');
    const formula = validateRecords(recordsFromCsv([`${HEADER},subtitle`, 'Atlas,,D,fiction,1,1,,9780306406157,book-1,=cmd()'].join('\n')));
    expect(formula.errors.map((e) => e.field)).toEqual(['subtitle']);
  });

  it('flags cells a spreadsheet would run as formulas, once per field, and imports nothing of the row', () => {
    const csv = [HEADER, '=HYPERLINK("http://evil"),,D,fiction,1,1,,9780306406157,book-1', 'T,@SUM(A1),+cmd,fiction,1,1,,9781861972712,book-1', 'A-Z of Cats,,"Cats, 1 = 2",fiction,1,1,,9783161484100,book-1'].join('\n');
    const { rows, errors } = validateRecords(recordsFromCsv(csv));
    expect(errors.map((e) => [e.row, e.field])).toEqual([[1, 'title'], [2, 'author'], [2, 'description']]);
    expect(errors[0]!.message).toMatch(/formula/);
    expect(rows.map((r) => r.row)).toEqual([3]);
  });

  it('flags a row with more fields than the header', () => {
    const { errors } = validateRecords(recordsFromCsv(`${HEADER}\nT,A,D,fiction,1,1,1,9780306406157,book-1,extra`));
    expect(errors).toEqual([{ row: 1, field: '_', message: expect.stringContaining('more field') }]);
  });

  it('refuses a header with unknown or missing columns', () => {
    expect(() => recordsFromCsv('title,price\nA,1')).toThrow(/Unknown column "price"/);
    expect(() => recordsFromCsv('title,author\nA,B')).toThrow(/Missing columns description, category, oldPrice, newPrice/);
  });

  it('reads JSON lines, numbers included, and reports a broken line', () => {
    const text = `{"title":"T","description":"D","category":"fiction","oldPrice":1,"newPrice":1,"stock":2,"isbn":"9780306406157","coverImage":"book-1"}\n\nnot json\n[1]\n`;
    const { rows, errors } = validateRecords(recordsFromNdjson(text));
    expect(rows).toHaveLength(1);
    expect(errors).toEqual([
      { row: 2, field: '_', message: 'Not valid JSON' },
      { row: 3, field: '_', message: 'Each line must be a JSON object' },
    ]);
  });
});
