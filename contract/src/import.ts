import { IMPORT_COLUMNS, IMPORT_DETAIL_COLUMNS, IMPORT_OPTIONAL_COLUMNS, IMPORT_REQUIRED_COLUMNS } from './book-fields';
import { CsvError, parseCsv } from './csv';

// The catalogue import's wire format, shared by POST /api/books/import, the admin import page and
// `npm run import-books`. Rows are numbered from 1 = the first book after the CSV header (or the
// first line of JSON lines), across the whole file: the page and the CLI send chunks with ?firstRow=.

// The columns (IMPORT_COLUMNS, IMPORT_DETAIL_COLUMNS, IMPORT_OPTIONAL_COLUMNS, IMPORT_REQUIRED_COLUMNS)
// derive from the book's fields: book-fields.ts.

/** One request's limits: the body limit the import route is given, and rows per request. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 1000;
/** What the page and the CLI send per request: one Firestore batch (500 writes). */
export const IMPORT_CHUNK_ROWS = 500;
/**
 * Cover addresses one request may fetch (each at most 5 s, 8 at a time: 50 take at most about 35 s,
 * inside the request's 55 s). The page and the CLI send rows with cover URLs in chunks this size.
 */
export const MAX_IMPORT_COVER_URLS = 50;

export interface ImportRowError {
  row: number;
  field: string;
  message: string;
}

export interface ImportReport {
  created: number;
  updated: number;
  /** Rows identical to the stored book: nothing written. */
  unchanged: number;
  errors: ImportRowError[];
  dryRun: boolean;
}

/** One row as read from the file, before validation: column -> raw value (`__invalid`, `__extraFields`: what was wrong with the line itself). */
export type ImportRecord = Record<string, unknown>;

export class ImportFileError extends Error {}

/** CSV text -> records keyed by the header's column names (trimmed, case kept as the columns'). */
export function recordsFromCsv(text: string): ImportRecord[] {
  let rows: string[][];
  try {
    rows = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvError) throw new ImportFileError(`CSV: ${error.message}`);
    throw error;
  }
  const [header, ...body] = rows;
  if (!header) throw new ImportFileError('The file is empty: the first line must be the header row');
  const known = new Map([...IMPORT_COLUMNS, ...IMPORT_DETAIL_COLUMNS, ...IMPORT_OPTIONAL_COLUMNS].map((c) => [c.toLowerCase(), c]));
  const columns = header.map((name) => known.get(name.trim().toLowerCase()) ?? null);
  const unknown = header.filter((_, i) => columns[i] === null).map((n) => n.trim());
  if (unknown.length > 0) {
    throw new ImportFileError(`Unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}: the header row is ${IMPORT_COLUMNS.join(',')}`);
  }
  const missing = IMPORT_REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length > 0) throw new ImportFileError(`Missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: the header row is ${IMPORT_COLUMNS.join(',')}`);
  return body.map((fields) => {
    const record: ImportRecord = {};
    columns.forEach((column, i) => {
      if (column) record[column] = fields[i] ?? '';
    });
    if (fields.length > columns.length) record.__extraFields = fields.length - columns.length;
    return record;
  });
}

/** JSON lines -> one record per non-blank line; a line that is not a JSON object is kept as an error. */
export function recordsFromNdjson(text: string): ImportRecord[] {
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return clean
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        const value: unknown = JSON.parse(line);
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as ImportRecord;
        return { __invalid: 'Each line must be a JSON object' };
      } catch {
        return { __invalid: 'Not valid JSON' };
      }
    });
}
