import type { CounterBook, SaleInput } from '@bookstore/contract';
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

// What the counter keeps on this device (issue 39; docs/decisions/039-counter-sales.md), in
// IndexedDB so it outlives a reload, a closed tab and a dropped network:
// - `books`: the shop's books that have an ISBN, as the counter needs them to sell (id, ISBN, title,
//   author, price; about 120 bytes each, 1.2 MB at 10,000 books), kept fresh by counter-books-sync.ts;
// - `queue`: sales made at this counter that the server has not confirmed yet, under their saleIds;
// - `meta`: where the book list's last copy got to.
// Nothing here is private to a customer; the admin token stays in localStorage as before. A sale with
// a gift card holds the card's code until the shop has the sale (it leaves the queue then).

export const COUNTER_DB = 'bookstore-counter';

export interface DeviceBook extends CounterBook {
  isbn: string;
  /** The full copy that last saw it: a full copy removes books it did not see (deleted since). */
  pass: number;
}

/** What the till showed when the sale was made (the receipt), and what is sent. */
export interface QueuedSale {
  saleId: string;
  body: SaleInput;
  /** `giftCardCode`: a gift card line (issue 40), its code as sent in `body` (kept until the shop has the sale). */
  lines: { title: string; isbn: string; quantity: number; unitPrice: number; giftCardCode?: string }[];
  total: number;
  tendered?: number;
  change?: number;
  /** When the till made the sale: the receipt's time, and the sale's `soldAt` (issue 54). */
  queuedAt: string;
  /** waiting: not yet confirmed by the server; refused: the server said no (see problem). */
  state: 'waiting' | 'refused';
  /** `code`: the shop's error code (issue 55: MANAGER_APPROVAL_REQUIRED offers the approval). */
  problem?: { message: string; advice: string; code?: string };
}

export interface SyncState {
  /** The newest `updatedAt` copied: the next copy asks for what changed since (less an overlap). */
  highWater: string | null;
  /** When the last full copy finished (ms). */
  fullAt: number | null;
  pass: number;
  /** When the last copy of either kind finished (ms). */
  syncedAt: number | null;
}

interface CounterSchema extends DBSchema {
  books: { key: string; value: DeviceBook; indexes: { isbn: string } };
  queue: { key: string; value: QueuedSale; indexes: { queuedAt: string } };
  meta: { key: string; value: SyncState };
}

export type CounterDb = IDBPDatabase<CounterSchema>;

let opened: Promise<CounterDb> | null = null;

/** The device's counter database (opened once per page). */
export function counterDb(): Promise<CounterDb> {
  opened ??= openDB<CounterSchema>(COUNTER_DB, 1, {
    upgrade(db) {
      db.createObjectStore('books', { keyPath: '_id' }).createIndex('isbn', 'isbn');
      db.createObjectStore('queue', { keyPath: 'saleId' }).createIndex('queuedAt', 'queuedAt');
      db.createObjectStore('meta');
    },
  });
  return opened;
}

/** For tests: forget the opened database (fake-indexeddb is reset between them). */
export function resetCounterDbForTests(): void {
  opened = null;
}

export const NO_SYNC: SyncState = { highWater: null, fullAt: null, pass: 0, syncedAt: null };

export async function readSyncState(db: CounterDb): Promise<SyncState> {
  return (await db.get('meta', 'sync')) ?? NO_SYNC;
}

/** The book with this ISBN-13 on this device, if any. */
export async function bookByIsbn(db: CounterDb, isbn13: string): Promise<DeviceBook | undefined> {
  return db.getFromIndex('books', 'isbn', isbn13);
}

export async function countBooks(db: CounterDb): Promise<number> {
  return db.count('books');
}

/** Keeps one book the server just answered for (an ISBN looked up online before the list had it). */
export async function keepBook(db: CounterDb, book: CounterBook): Promise<void> {
  if (!book.isbn) return;
  const state = await readSyncState(db);
  await db.put('books', { ...book, isbn: book.isbn, pass: state.pass });
}

export async function queuedSales(db: CounterDb): Promise<QueuedSale[]> {
  return db.getAllFromIndex('queue', 'queuedAt');
}

export async function putQueued(db: CounterDb, sale: QueuedSale): Promise<void> {
  await db.put('queue', sale);
}

export async function removeQueued(db: CounterDb, saleId: string): Promise<void> {
  await db.delete('queue', saleId);
}

