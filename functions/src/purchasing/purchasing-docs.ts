import type { DocumentSnapshot, Transaction } from 'firebase-admin/firestore';
import { books, type BookDoc } from '../books/book-doc';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { runQuery, runTxQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';

// Buying's collections (issue 56). All server-only (firestore.rules): suppliers, purchaseOrders,
// receipts and supplierReturns hold what staff with a buying role see through the API; the costs
// (bookCosts: each book's moving-average cost; receiptCosts: the unit cost of each receipt line) are
// kept apart from everything else, so no document a bookseller's route or the storefront reads
// carries a cost.

export const suppliers = () => db().collection('suppliers');
export const purchaseOrders = () => db().collection('purchaseOrders');
export const receipts = () => db().collection('receipts');
export const supplierReturns = () => db().collection('supplierReturns');
export const bookCosts = () => db().collection('bookCosts');
export const receiptCosts = () => db().collection('receiptCosts');
/** When a book was last received from a supplier (`<supplierId>_<bookId>`): the returns window counts from it. */
export const lastReceipts = () => db().collection('supplierReceipts');
export const lastReceiptId = (supplierId: string, bookId: string) => `${supplierId}_${bookId}`;

/** A book's moving-average cost (bookCosts/<bookId>). */
export interface BookCostDoc {
  avgCostCents: number;
  updatedAt: string;
}

/** 30 values per `in` filter (Firestore's limit). */
const IN_VALUES = 30;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The catalogue's books by ISBN-13 (the first one found, if a hand-made duplicate exists), read in
 * `tx` when given (the receipt's and the return's transactions lock what they read).
 */
export async function booksByIsbn(isbns: readonly string[], tx?: Transaction): Promise<Map<string, DocumentSnapshot>> {
  const found = new Map<string, DocumentSnapshot>();
  const parts = chunks([...new Set(isbns)], IN_VALUES);
  const answers = await Promise.all(parts.map((part) => (tx ? runTxQuery(tx, books().where('isbn', 'in', part)) : runQuery(books().where('isbn', 'in', part)))));
  for (const snap of answers.flatMap((a) => a.docs)) {
    const isbn = (snap.data() as BookDoc).isbn!;
    if (!found.has(isbn)) found.set(isbn, snap);
  }
  return found;
}

/** 422 naming the field (`details`), as a zod failure names it. */
export const fieldError = (field: string, message: string, code?: string) => new HttpError(422, message, { ...(code ? { code } : {}), details: { [field]: [message] } });

/** Each book's moving-average cost in cents, for the books given (absent: no cost yet), 300 a getAll. */
export async function averageCosts(bookIds: string[]): Promise<Map<string, number>> {
  const costs = new Map<string, number>();
  for (let i = 0; i < bookIds.length; i += 300) {
    const snaps = await db().getAll(...bookIds.slice(i, i + 300).map((id) => bookCosts().doc(id)));
    countReads(snaps.length);
    for (const s of snaps) if (s.exists) costs.set(s.id, (s.data() as BookCostDoc).avgCostCents);
  }
  return costs;
}
