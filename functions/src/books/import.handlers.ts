import type { Request, Response } from 'express';
import { ImportFileError, MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, recordsFromCsv, recordsFromNdjson, type ImportReport } from '@bookstore/contract';
import { requirePermission } from '../lib/auth';
import type { BodyError } from '../lib/body-parse-errors';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import * as repo from './import.repo';
import { resolveCoverUrls } from './import.covers';
import { validateRecords } from './import.rows';

// The two types the route's 5 MB body limit covers (config.ts BODY_LIMITS).
const CSV = 'text/csv';
const NDJSON = 'application/x-ndjson';

/** The body as UTF-8 text: the runtime has kept the bytes in rawBody (text/* also as a string). */
function bodyText(req: Request): string {
  const { rawBody, bodyError } = req as Request & { rawBody?: Buffer; bodyError?: BodyError };
  if (bodyError) {
    if (bodyError.status === 413) throw new HttpError(413, 'The file is larger than 5 MB: split it');
    throw new HttpError(400, 'The request body could not be read');
  }
  const bytes = rawBody ?? (typeof req.body === 'string' ? Buffer.from(req.body) : Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
  if (bytes.length > MAX_IMPORT_BYTES) {
    throw new HttpError(413, `The file is larger than 5 MB: send at most ${MAX_IMPORT_ROWS} rows per request (the import page and npm run import-books do)`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(400, 'The file must be UTF-8 text');
  }
}

function positiveInt(value: unknown, name: string): number {
  if (value === undefined) return 1;
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,7}$/.test(value)) throw new HttpError(400, `${name} must be a whole number from 1`);
  return Number(value);
}

// POST /api/books/import?dryRun=1&firstRow=1  (text/csv with a header row, or JSON lines)
export async function importBooks(req: Request, res: Response) {
  const actor = requirePermission(req, 'books.import');
  const type = req.is([CSV, NDJSON]);
  if (!type) throw new HttpError(415, 'Content-Type must be text/csv or application/x-ndjson');
  const dryRunParam = req.query.dryRun;
  if (dryRunParam !== undefined && !['0', '1', 'true', 'false'].includes(String(dryRunParam))) {
    throw new HttpError(400, 'dryRun must be 1 or 0');
  }
  const dryRun = dryRunParam === '1' || dryRunParam === 'true';
  const firstRow = positiveInt(req.query.firstRow, 'firstRow');
  const text = bodyText(req);
  let records;
  try {
    records = type === CSV ? recordsFromCsv(text) : recordsFromNdjson(text);
  } catch (error) {
    if (error instanceof ImportFileError) throw new HttpError(400, error.message);
    throw error;
  }
  if (records.length === 0) throw new HttpError(400, 'The file has no rows to import');
  if (records.length > MAX_IMPORT_ROWS) throw new HttpError(413, `At most ${MAX_IMPORT_ROWS} rows per request: split the file (the import page and npm run import-books do)`);
  const { rows, errors } = validateRecords(records, firstRow);
  // Cover URLs first: a row whose cover cannot be fetched is an error, never a book without it.
  const covers = await resolveCoverUrls(rows, { store: !dryRun });
  const plan = await repo.importBooks(covers.rows, { dryRun, actor });
  const report = {
    created: plan.created,
    updated: plan.updated,
    unchanged: plan.unchanged,
    errors: [...errors, ...covers.errors, ...plan.errors].sort((a, b) => a.row - b.row),
    dryRun,
  };
  noStore(res);
  res.json(report satisfies ImportReport);
}
