import { HttpError } from '../lib/http-error';

// Paging tokens are opaque to clients: url-safe base64 of a small JSON. A keyset cursor holds the
// unique sort key of the book it continues from (no document read to resume, stable when books
// are added), which way it goes, and the order it belongs to, so it cannot be replayed against
// another sort. An offset cursor (admin search, served from memory) holds a position.

export interface KeysetCursor {
  /** The order it was made for, e.g. 'newest' or 'admin:price:asc'. */
  order: string;
  /** 'next': the books after this one; 'prev': the books before it. */
  way: 'next' | 'prev';
  key: string;
}

export interface OffsetCursor {
  order: string;
  offset: number;
}

function encode(payload: unknown): string {
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

function decodeRaw(token: string): unknown {
  try {
    return JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

function invalid(message = 'cursor is not valid'): HttpError {
  return new HttpError(400, message, { details: { cursor: [message] } });
}

export function encodeKeyset(cursor: KeysetCursor): string {
  return encode({ o: cursor.order, w: cursor.way === 'next' ? 'n' : 'p', k: cursor.key });
}

/** Decodes a keyset cursor made for `order`; 400 naming `cursor` otherwise. */
export function decodeKeyset(token: string, order: string): KeysetCursor {
  const raw = decodeRaw(token) as { o?: unknown; w?: unknown; k?: unknown } | null;
  if (!raw || typeof raw !== 'object') throw invalid();
  if (raw.o !== order) throw invalid('cursor belongs to another sort order: start again from the first page');
  if (typeof raw.k !== 'string' || raw.k.length > 300 || (raw.w !== 'n' && raw.w !== 'p')) throw invalid();
  return { order, way: raw.w === 'n' ? 'next' : 'prev', key: raw.k };
}

export function encodeOffset(cursor: OffsetCursor): string {
  return encode({ o: cursor.order, k: cursor.offset });
}

export function decodeOffset(token: string, order: string): OffsetCursor {
  const raw = decodeRaw(token) as { o?: unknown; k?: unknown } | null;
  if (!raw || typeof raw !== 'object') throw invalid();
  if (raw.o !== order) throw invalid('cursor belongs to another search or order: start again from the first page');
  if (!Number.isSafeInteger(raw.k) || (raw.k as number) < 0) throw invalid();
  return { order, offset: raw.k as number };
}
