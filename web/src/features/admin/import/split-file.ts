import { IMPORT_CHUNK_ROWS, recordsFromCsv } from '@bookstore/contract';

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

/** Throws ImportFileError (from the contract) for a CSV whose header or quoting is broken. */
export function splitImportFile(fileName: string, text: string, size = IMPORT_CHUNK_ROWS): ImportChunk[] {
  const lines = isJsonLines(fileName)
    ? text.replace(/^\uFEFF/, '').split(/\r?\n/).filter((line) => line.trim() !== '') // as the server counts them
    : recordsFromCsv(text).map((record) => JSON.stringify(record));
  const chunks: ImportChunk[] = [];
  for (let i = 0; i < lines.length; i += size) {
    const part = lines.slice(i, i + size);
    chunks.push({ firstRow: i + 1, rows: part.length, body: part.join('\n') });
  }
  return chunks;
}
