import { MAX_IMPORT_COVER_URLS, type ImportRowError } from '@bookstore/contract';
import { HttpError } from '../lib/http-error';
import { coverFetchPolicy, CoverFetchError, fetchCover, type CoverFetchPolicy } from './cover-fetch';
import { coverName, saveCover } from './covers';
import type { ImportRow } from './import.rows';

// The import's cover URLs (issue 26): each distinct address fetched once per request, 8 at a time,
// before any book is planned. A row whose cover cannot be fetched is a row error
// `{ row, field: 'coverUrl', message }` and is left out whole: never a book without its cover. A dry
// run fetches (so its report names the bad addresses) but stores nothing; a real import stores
// each image once, by content hash, before the books that point at it are written.

const CONCURRENCY = 8;

type Outcome = { coverImage: string } | { error: string };

export interface CoverResolution {
  rows: ImportRow[];
  errors: ImportRowError[];
  /** Distinct addresses requested: the test counts them against its server's hits. */
  fetched: number;
}

async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(runners);
}

export async function resolveCoverUrls(
  rows: ImportRow[],
  options: { store: boolean; policy?: CoverFetchPolicy; fetch?: typeof fetchCover },
): Promise<CoverResolution> {
  const policy = options.policy ?? coverFetchPolicy();
  const fetchOne = options.fetch ?? fetchCover;
  const urls = [...new Set(rows.flatMap((r) => (r.input.coverUrl ? [r.input.coverUrl] : [])))];
  if (urls.length > MAX_IMPORT_COVER_URLS) {
    throw new HttpError(413, `At most ${MAX_IMPORT_COVER_URLS} different cover URLs per request: send smaller chunks (the import page and npm run import-books do)`);
  }
  const outcomes = new Map<string, Outcome>();
  await pool(urls, CONCURRENCY, async (url) => {
    try {
      const { bytes, type } = await fetchOne(url, policy);
      outcomes.set(url, { coverImage: options.store ? await saveCover(bytes) : coverName(bytes, type) });
    } catch (error) {
      if (!(error instanceof CoverFetchError)) throw error;
      outcomes.set(url, { error: error.message });
    }
  });
  const errors: ImportRowError[] = [];
  const resolved: ImportRow[] = [];
  for (const r of rows) {
    const url = r.input.coverUrl;
    if (!url) {
      resolved.push(r);
      continue;
    }
    const outcome = outcomes.get(url)!;
    if ('error' in outcome) {
      errors.push({ row: r.row, field: 'coverUrl', message: outcome.error });
      continue;
    }
    const { coverUrl: _fetched, ...input } = r.input;
    resolved.push({ ...r, input: { ...input, coverImage: outcome.coverImage }, given: r.given.includes('coverImage') ? r.given : [...r.given, 'coverImage'] });
  }
  return { rows: resolved, errors, fetched: urls.length };
}
