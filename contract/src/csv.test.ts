import { describe, expect, it } from 'vitest';
import { CsvError, looksLikeFormula, parseCsv, toCsv } from './csv';

describe('parseCsv', () => {
  it('reads plain records', () => {
    expect(parseCsv('a,b,c\n1,2,3\n')).toEqual([['a', 'b', 'c'], ['1', '2', '3']]);
  });

  it('keeps commas, newlines and doubled quotes inside quotes', () => {
    const text = 'title,description\n"Hello, world","Line one\nline two ""quoted"""\n';
    expect(parseCsv(text)).toEqual([['title', 'description'], ['Hello, world', 'Line one\nline two "quoted"']]);
  });

  it('accepts CRLF, CR and a missing final newline', () => {
    expect(parseCsv('a,b\r\n1,2\r3,4')).toEqual([['a', 'b'], ['1', '2'], ['3', '4']]);
  });

  it('keeps CRLF inside a quoted field as written', () => {
    expect(parseCsv('"x\r\ny",z\r\n')).toEqual([['x\r\ny', 'z']]);
  });

  it('drops a BOM and skips blank lines', () => {
    expect(parseCsv('\uFEFFa,b\n\n1,2\n\n')).toEqual([['a', 'b'], ['1', '2']]);
  });

  it('keeps empty fields, including a trailing one and a quoted empty one', () => {
    expect(parseCsv('a,,c,\n"",x\n')).toEqual([['a', '', 'c', ''], ['', 'x']]);
    expect(parseCsv('""\n')).toEqual([['']]);
  });

  it('keeps a quote in the middle of an unquoted field as text', () => {
    expect(parseCsv('5" floppy,b\n')).toEqual([['5" floppy', 'b']]);
  });

  it('refuses an unclosed quote, naming the record', () => {
    expect(() => parseCsv('a,b\n1,"open\n2,3\n')).toThrow(CsvError);
    // Asserted outside any catch: if parseCsv stopped throwing, this fails.
    expect(() => parseCsv('a,b\n1,"open\n')).toThrow(expect.objectContaining({ record: 2 }));
  });

  it('round-trips through toCsv', () => {
    const records = [['title', 'description'], ['A, "B"', 'multi\nline'], [' padded ', ''], ['plain', 'x']];
    expect(parseCsv(toCsv(records))).toEqual(records);
  });

  it('writes formula-looking cells as text (a leading apostrophe), and only those', () => {
    const csv = toCsv([['=HYPERLINK("http://x")', '+1', '-2', '@SUM(A1)', '\tx', 'a=b', 'plain']]);
    expect(parseCsv(csv)).toEqual([["'=HYPERLINK(\"http://x\")", "'+1", "'-2", "'@SUM(A1)", "'\tx", 'a=b', 'plain']]);
    expect(looksLikeFormula('  =1')).toBe(true);
    expect(looksLikeFormula('Ten = Two')).toBe(false);
  });

  it('parses 10,000 records quickly', () => {
    const text = 'a,b\n' + Array.from({ length: 10_000 }, (_, i) => `"row ${i}, quoted",${i}`).join('\n');
    const started = performance.now();
    expect(parseCsv(text)).toHaveLength(10_001);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
