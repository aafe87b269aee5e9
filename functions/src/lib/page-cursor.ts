import { HttpError } from './http-error';

// An opaque page cursor: the sort values of the previous page's last document, as base64url JSON.
// Costs no read to resume from. (Orders use lib/created-cursor.ts, which also checks each value's shape.)

export const encodePageCursor = (parts: string[]): string => Buffer.from(JSON.stringify(parts)).toString('base64url');

/** The two strings a cursor names; 400 for anything else. */
export function decodePageCursor(cursor: string): [string, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string' && v.length < 200)) return value as [string, string];
  } catch {
    /* answered below */
  }
  throw new HttpError(400, 'cursor is not valid');
}
