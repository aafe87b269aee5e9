import type { CounterBooksPage } from '@bookstore/contract';
import { readSyncState, type CounterDb, type SyncState } from './counter-store';

// Keeps the device's book list (counter-store.ts) close to the catalogue without ever downloading
// the catalogue per sale (issue 39; docs/decisions/039-counter-sales.md):
// - the first time, and then once a day, a FULL copy: every book, in pages of PAGE_SIZE (one
//   bounded request each: 20 requests at 10,000 books); a book it does not see is removed (deleted,
//   or its ISBN cleared);
// - between them, every few minutes while the counter is open and online, a DELTA: only the books
//   whose fields changed since the newest change already copied (less OVERLAP, for a write whose
//   time was taken just before a copy read past it), usually one request with a handful of books.
// Bounded: at most MAX_DEVICE_BOOKS books (about 6 MB), ISBN books only. Prices may be up to one
// delta old at the till; the sale is recorded at the price the till charged (issue 54), flagged for
// a manager when that was not the shop's price at the time.

export const PAGE_SIZE = 500;
export const FULL_EVERY_MS = 24 * 60 * 60 * 1000;
export const DELTA_EVERY_MS = 5 * 60 * 1000;
export const OVERLAP_MS = 2 * 60 * 1000;
export const MAX_DEVICE_BOOKS = 50_000;

export type FetchPage = (request: { since?: string; cursor?: string; limit: number }) => Promise<CounterBooksPage>;

export interface SyncReport {
  kind: 'full' | 'delta';
  pages: number;
  /** Books written or removed. */
  changed: number;
  /** The device holds MAX_DEVICE_BOOKS and the catalogue has more: some ISBNs are only found online. */
  full: boolean;
}

/** One copy, full or delta (whichever is due at `now`), page by page; the state is saved only once it finished. */
export async function syncCounterBooks(db: CounterDb, fetchPage: FetchPage, now = Date.now()): Promise<SyncReport> {
  const state = await readSyncState(db);
  const full = state.fullAt === null || now - state.fullAt >= FULL_EVERY_MS;
  const pass = full ? state.pass + 1 : state.pass;
  const since = full || !state.highWater ? undefined : new Date(Date.parse(state.highWater) - OVERLAP_MS).toISOString();
  let highWater = full ? null : state.highWater;
  let cursor: string | undefined;
  let pages = 0;
  let changed = 0;
  let atCap = false;
  do {
    const page = await fetchPage({ ...(since ? { since } : {}), ...(cursor ? { cursor } : {}), limit: PAGE_SIZE });
    pages += 1;
    const tx = db.transaction('books', 'readwrite');
    let count = await tx.store.count();
    for (const book of page.books) {
      if (!highWater || book.updatedAt > highWater) highWater = book.updatedAt;
      if (!book.isbn) {
        await tx.store.delete(book._id);
        continue;
      }
      const known = await tx.store.getKey(book._id);
      if (!known && count >= MAX_DEVICE_BOOKS) {
        atCap = true;
        continue;
      }
      if (!known) count += 1;
      await tx.store.put({ ...book, isbn: book.isbn, pass });
      changed += 1;
    }
    await tx.done;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);

  if (full) {
    // Whatever the full copy did not see is gone from the catalogue (or has no ISBN any more).
    const tx = db.transaction('books', 'readwrite');
    for (let c = await tx.store.openCursor(); c; c = await c.continue()) {
      if (c.value.pass !== pass) {
        await c.delete();
        changed += 1;
      }
    }
    await tx.done;
  }
  const next: SyncState = { highWater, fullAt: full ? now : state.fullAt, pass, syncedAt: now };
  await db.put('meta', next, 'sync');
  return { kind: full ? 'full' : 'delta', pages, changed, full: atCap };
}
