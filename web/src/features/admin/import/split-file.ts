import { IMPORT_CHUNK_ROWS, MAX_IMPORT_COVER_URLS, recordsFromCsv, type ImportRecord } from '@bookstore/contract';

// The page never sends a whole catalogue at once: it reads the file here, splits it into chunks of
// 500 rows (one Firestore batch each on the server) and sends them as JSON lines one after another,
// numbered with ?firstRow= so the server's row numbers are the file's.

export interface ImportChunk {
  firstRow: number;
  rows: number;
  /** JSON lines, one row each. */
  body: string;
}

export function isJsonLines(fileName: string): boolean {
  return /\.(ndjson|jsonl)$/i.test(fileName);
}

/** The cover address a row asks the server to fetch (a coverUrl, or a URL in coverImage), if any. */
function coverUrlOf(line: string): string | undefined {
  let record: ImportRecord;
  try {
    record = JSON.parse(line) as ImportRecord;
  } catch {
    return undefined;
  }
  for (const value of [record?.coverUrl, record?.coverImage]) if (typeof value === 'string' && /^https?:\/\//i.test(value.trim())) return value.trim();
  return undefined;
}

/**
 * Throws ImportFileError (from the contract) for a CSV whose header or quoting is broken. A chunk
 * also ends at MAX_IMPORT_COVER_URLS distinct cover URLs: the server fetches each within the request.
 */
export function splitImportFile(fileName: string, text: string, size = IMPORT_CHUNK_ROWS, maxCoverUrls = MAX_IMPORT_COVER_URLS): ImportChunk[] {
  const lines = isJsonLines(fileName)
    ? text.replace(/^\uFEFF/, '').split(/\r?\n/).filter((line) => line.trim() !== '') // as the server counts them
    : recordsFromCsv(text).map((record) => JSON.stringify(record));
  const chunks: ImportChunk[] = [];
  let start = 0;
  let urls = new Set<string>();
  const close = (end: number) => {
    if (end > start) chunks.push({ firstRow: start + 1, rows: end - start, body: lines.slice(start, end).join('\n') });
    start = end;
    urls = new Set();
  };
  lines.forEach((line, i) => {
    const url = coverUrlOf(line);
    if (url && !urls.has(url) && urls.size >= maxCoverUrls) close(i);
    if (url) urls.add(url);
    if (i + 1 - start >= size) close(i + 1);
  });
  close(lines.length);
  return chunks;
}
