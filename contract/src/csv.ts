// A small RFC 4180 CSV reader, shared by the import endpoint and the admin page (which splits a file
// into chunks of rows before sending it). No library: the format is tiny and its corner cases
// (quotes, commas and newlines inside quotes, CRLF, a BOM) are pinned by csv.test.ts.

export class CsvError extends Error {
  constructor(message: string, readonly record: number) {
    super(message);
  }
}

/**
 * Splits CSV text into records of fields. Quoted fields may hold commas, newlines and doubled
 * quotes (""); CRLF, LF and CR all end a record; a leading BOM is dropped; blank lines are skipped.
 * A quote inside an unquoted field is kept as text (spreadsheets write such files); an unclosed
 * quote is an error, since everything after it would silently become one field.
 */
export function parseCsv(input: string): string[][] {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false; // inside a quoted field
  let wasQuoted = false; // the current field started with a quote
  let i = 0;
  const endField = () => {
    record.push(field);
    field = '';
    wasQuoted = false;
  };
  const endRecord = () => {
    // A blank line is one empty, unquoted field: not a record.
    const blank = record.length === 0 && field === '' && !wasQuoted;
    endField();
    if (!blank) records.push(record);
    record = [];
  };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i += 1;
        continue;
      }
      field += c;
      i += 1;
      continue;
    }
    if (c === '"' && field === '' && !wasQuoted) {
      quoted = true;
      wasQuoted = true;
      i += 1;
    } else if (c === ',') {
      endField();
      i += 1;
    } else if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      field += c;
      i += 1;
    }
  }
  if (quoted) throw new CsvError(`A quoted field is never closed (record ${records.length + 1})`, records.length + 1);
  if (field !== '' || wasQuoted || record.length > 0) endRecord();
  return records;
}

/**
 * A cell a spreadsheet would run as a formula (OWASP's CSV injection): it starts, after any
 * leading spaces, with = + - @ or with a tab or carriage return.
 */
export function looksLikeFormula(value: string): boolean {
  return /^[\t\r]/.test(value) || /^\s*[=+\-@]/.test(value);
}

function quote(value: string): string {
  return /[",\r\n]/.test(value) || /^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * Writes records as CSV (CRLF, quoting only where needed); parseCsv(toCsv(x)) gives x back, except
 * that a cell that looks like a formula is written with a leading apostrophe, as OWASP advises, so
 * opening the file in a spreadsheet shows it as text instead of running it.
 */
export function toCsv(records: string[][]): string {
  return records.map((r) => r.map((cell) => quote(looksLikeFormula(cell) ? `'${cell}` : cell)).join(',')).join('\r\n') + '\r\n';
}
