import { HttpError } from '../lib/http-error';

// A page cursor names the last order of the previous page by (createdAt, id), the two fields every
// order list is sorted by. Opaque to clients; costs no read to resume from (a cursor document
// would).

export interface OrderCursor {
  createdAt: string;
  id: string;
}

export function encodeCursor(cursor: OrderCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString('base64url');
}

export function decodeCursor(value: string): OrderCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(parsed[0]) &&
      typeof parsed[1] === 'string' &&
      /^(?!__)[A-Za-z0-9_-]{1,64}$/.test(parsed[1])
    ) {
      return { createdAt: parsed[0], id: parsed[1] };
    }
  } catch {
    /* fall through */
  }
  throw new HttpError(400, 'cursor is not valid');
}
