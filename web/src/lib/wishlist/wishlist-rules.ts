import { MAX_WISHLIST_BOOKS } from '@bookstore/contract';

// The wishlist's pure rules (issue 28): parsing what storage holds, pending changes on top of the
// server's list, and the sign-in merge. No storage, no Firestore: wishlist-rules.test.ts.

/** A book id as the API hands them out (contract/src/book.ts BookIdSchema, without zod). */
const BOOK_ID = /^(?!__)[A-Za-z0-9_-]{1,64}$/;
export const isBookId = (value: unknown): value is string => typeof value === 'string' && BOOK_ID.test(value);

/** Distinct, well-formed ids, in order, at most MAX_WISHLIST_BOOKS: whatever a store or a document held. */
export function cleanIds(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return [...new Set(value.filter(isBookId))].slice(0, MAX_WISHLIST_BOOKS);
}

export function parseIds(raw: string | null): string[] {
  if (!raw) return [];
  try {
    return cleanIds(JSON.parse(raw));
  } catch {
    return [];
  }
}

/** A change made on this device and not yet acknowledged by Firestore. */
export interface WishlistOp {
  kind: 'add' | 'remove';
  id: string;
  /** Orders the changes; acknowledged by this number. */
  seq: number;
}

export function parseOps(value: unknown): WishlistOp[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (op): op is WishlistOp =>
      !!op && typeof op === 'object' && (op.kind === 'add' || op.kind === 'remove') && isBookId(op.id) && Number.isInteger(op.seq),
  );
}

/** The list as this device should show it: the server's, then each pending change in order (adds go last, as arrayUnion puts them). */
export function applyOps(base: string[], ops: WishlistOp[]): string[] {
  let ids = [...base];
  for (const op of ops) {
    if (op.kind === 'remove') ids = ids.filter((id) => id !== op.id);
    else if (!ids.includes(op.id) && ids.length < MAX_WISHLIST_BOOKS) ids.push(op.id);
  }
  return ids;
}

/** The account's list after signing in on a device with a guest list: the account's books first, then the guest's new ones, up to the limit. */
export function mergeLists(account: string[], guest: string[]): string[] {
  return applyOps(cleanIds(account), guest.map((id, seq) => ({ kind: 'add', id, seq })));
}
