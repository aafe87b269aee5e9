import {
  BOOK_FIELD_NAMES, BOOK_FIELD_SPECS, can, fromStoredFields, isBlank, movingAverageCents, STORED_FIELD_NAMES, STORED_FIELD_PERMISSIONS,
  type AuditAction, type Book, type BookFields, type BookPatch, type FieldChange, type Permission,
} from '@bookstore/contract';
import type { DocumentReference, DocumentSnapshot, QueryDocumentSnapshot, Transaction } from 'firebase-admin/firestore';
import { logger } from 'firebase-functions/logger';
import { appendAudit, appendAudits, changedFields, logChainHead, openAudit, type AuditActor, type AuditEntry } from '../admin/audit.repo';
import { forbidden } from '../lib/auth';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { bookCosts, type BookCostDoc } from '../purchasing/purchasing-docs';
import { PREORDERS_PER_TRANSACTION, readAllocatedOrders, readAllocation, writeAllocation, type Allocation } from '../preorders/preorders.repo';
import { ALERTS_PER_TRANSACTION, drainAlerts, readAlertsToRelease, releaseAlerts, releaseRestocked } from '../subscriptions/stock-alerts.repo';
import { bookDoc, books, derivedFields, type BookDoc } from './book-doc';
import { bumpCatalogVersion } from './catalog-version';
import { INDEXED_STORED_FIELDS } from './search-index';
import { readUnlisted, unlistedCostId, unlistedRef, type UnlistedBookDoc } from './unlisted-books';

// THE way a book changes (issue 37; STYLE.md section 13). Every write of a book, whoever makes it
// (the form, Manage Books' bulk changes, the import, a cover, an order and its cancellation, and
// next the counter sale, the pre-order's allocation, a refund's restock) goes through
// stageBookWrites, which applies each side effect once, in the caller's transaction:
// - the derived query fields (inStock, price band, sort keys) follow the stored fields;
// - a staff member's change is checked field by field against the registry's permissions
//   (contract/src/book-fields.ts) and has its audit event with each changed field before and after;
// - the catalogue version moves when something the search index holds changes (new book, deleted
//   book, a searched or listed field), so every instance loads or builds the matching snapshot;
// - copies of a book with waiting pre-orders (issue 41) go to those lines first, oldest first, in the
//   same transaction (preorders/preorders.repo.ts), up to PREORDERS_PER_TRANSACTION; the rest after
//   the commit, in further transactions that re-read the book (drainPreorders);
// - a book back in stock (0 -> more) releases its back-in-stock alerts: in the transaction for up to
//   INLINE_RESTOCKS books, after the commit (in transactions that re-read the stock) for more;
// - a book that gets an ISBN (created with it, or edited to it) takes over the copies and the cost
//   of that ISBN's unlisted book (issue 56, unlisted-books.ts), once: the unlisted book is deleted
//   in the same transaction. The copies of an unlisted book itself are counted by writeUnlistedStock.
//
// Inside a transaction it composes with the caller's own reads and writes (an order writes itself
// and its books' stock in one transaction):
//
//   let afterCommit: AfterCommit = noAfterCommit;
//   await db().runTransaction(async (tx) => {
//     const snaps = await readBooks(tx, ids);                    // the caller's reads, then
//     const staged = await stageBookWrites(tx, [{ book: snaps[0], stockDelta: -1 }], { order: 'orders/abc' }); // (reads only)
//     ...the caller's own writes...
//     afterCommit = staged.write();                               // queues the books' writes
//   });
//   await afterCommit();                                          // alerts beyond the transaction's share
//
// commitBookWrites wraps that for a write that is only about books.

/** Who changes the books. */
export type BookWriter =
  /**
   * A staff member: each field they change must be theirs to change; one audit event per book (`action` names it, else it follows what changed).
   * `versionLater` (an import's chunks): the catalogue version is not bumped here; the caller bumps it once, after its last chunk (import.repo.ts).
   */
  | { staff: AuditActor; action?: AuditAction; versionLater?: true }
  /** An order's placement, cancellation or release (`orders/<id>`): the order's own events record why the stock moved. */
  | { order: string }
  /**
   * A delivery received or copies returned to a supplier (issue 56: `receipts/<id>`,
   * `supplierReturns/<id>`): the caller checked the staff member's permission and appends ONE audit
   * event for the whole receipt or return, in the same transaction (purchasing/*.repo.ts).
   */
  | { purchasing: string }
  /**
   * A counter sale or a return at the counter (issue 39) by a staff member (`sales.counter`): ONE
   * audit event for the whole sale, `action` on `sale` (`sales/<id>`), holding the caller's
   * `changes` (total, payment, lines) and `stock`, each book's copies before and after.
   */
  | { sale: string; staff: AuditActor; action: AuditAction; changes: Record<string, FieldChange> };

export type BookChange =
  /** A new book (`ref`: its id chosen by the caller, e.g. the import's `isbn-<13 digits>`). */
  | { create: BookFields; ref?: DocumentReference }
  /** Fields replaced (a field left out keeps its value; null or '' clears an optional one). */
  | { book: DocumentSnapshot; set: BookPatch }
  /**
   * Copies taken (negative) or put back: an order, its cancellation, a counter sale. Never below 0 (409 OUT_OF_STOCK).
   * `waitingDelta` (issue 41): pre-order lines joining (+) or leaving (-) the book's queue; such a change allocates nothing.
   */
  | { book: DocumentSnapshot; stockDelta: number; waitingDelta?: number }
  | { book: DocumentSnapshot; remove: true };

export interface BookWriteResult {
  id: string;
  /** The book before and after (null: it did not exist / no longer exists). */
  before: Book | null;
  after: Book | null;
  /** The stored fields that changed (empty: nothing was written). */
  changed: string[];
}

export type AfterCommit = () => Promise<void>;
export const noAfterCommit: AfterCommit = async () => {};

export interface StagedBookWrites {
  results: BookWriteResult[];
  /** Queues every write in the transaction (call it after the transaction's reads); run what it returns once the transaction committed. */
  write(): AfterCommit;
}

/** Restocked books whose alerts are released in the transaction itself (ALERTS_PER_TRANSACTION shared among them); more wait for the commit. */
export const INLINE_RESTOCKS = 5;

interface Planned {
  ref: DocumentReference;
  kind: 'create' | 'set' | 'stock' | 'remove';
  /** The change moves the book's pre-order queue itself (an order's placement or cancellation): no allocation. */
  queueMoves?: boolean;
  /** Copies given to waiting pre-orders in this transaction. */
  allocated?: number;
  /** The unlisted book whose copies this book takes over (its ISBN, the copies). */
  takeOver?: { isbn: string; copies: number };
  before: BookDoc | null;
  after: BookDoc | null;
  changed: string[];
  needs: Permission[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const asRecord = (doc: BookDoc | null) => doc as unknown as Record<string, unknown> | null;
const apiBook = (id: string, doc: BookDoc | null): Book | null =>
  doc && { _id: id, ...fromStoredFields(doc as unknown as Record<string, unknown>), createdAt: doc.createdAt, updatedAt: doc.updatedAt };

/** The fields of `patch` applied to a book's fields: null or '' clears an optional field (a required one keeps its value). */
function patched(fields: BookFields, patch: BookPatch): BookFields {
  const next: Record<string, unknown> = { ...fields };
  for (const name of BOOK_FIELD_NAMES) {
    if (!(name in patch)) continue;
    const value = patch[name];
    if (!isBlank(value)) next[name] = value;
    else if (!BOOK_FIELD_SPECS[name].required) delete next[name];
  }
  return next as BookFields;
}

function plan(change: BookChange, now: string): Planned {
  if ('create' in change) {
    const ref = change.ref ?? books().doc();
    const after = bookDoc(change.create, { createdAt: now, updatedAt: now }, ref.id);
    return { ref, kind: 'create', before: null, after, changed: STORED_FIELD_NAMES.filter((f) => f in after), needs: ['books.create'] };
  }
  const snap = change.book;
  // The caller read it and found it (it knows what a missing book means for its request).
  if (!snap.exists) throw new Error(`books/${snap.id} does not exist`);
  const before = snap.data() as BookDoc;
  if ('remove' in change) {
    return { ref: snap.ref, kind: 'remove', before, after: null, changed: STORED_FIELD_NAMES.filter((f) => f in before), needs: ['books.delete'] };
  }
  if ('stockDelta' in change) {
    const stock = (before.stock ?? 0) + change.stockDelta;
    const waiting = Math.max(0, (before.preorderWaiting ?? 0) + (change.waitingDelta ?? 0));
    const after = { ...before, stock, inStock: stock > 0, ...(change.waitingDelta ? { preorderWaiting: waiting } : {}) };
    const changed = [...(change.stockDelta === 0 ? [] : ['stock']), ...(change.waitingDelta ? ['preorderWaiting'] : [])];
    return { ref: snap.ref, kind: 'stock', before, after, changed, needs: ['books.stock'], queueMoves: Boolean(change.waitingDelta) };
  }
  const fields = patched(fromStoredFields(before as unknown as Record<string, unknown>), change.set);
  // The pre-order queue's count is the orders', not the form's: an edit keeps it.
  const kept = before.preorderWaiting !== undefined ? { preorderWaiting: before.preorderWaiting } : {};
  const next: BookDoc = { ...bookDoc(fields, { createdAt: before.createdAt, updatedAt: now }, before.tie ?? snap.id), ...kept };
  const changed = STORED_FIELD_NAMES.filter((f) => !same(asRecord(before)![f], asRecord(next)![f]));
  return { ref: snap.ref, kind: 'set', before, after: changed.length ? next : before, changed, needs: [...new Set(changed.map((f) => STORED_FIELD_PERMISSIONS[f]!))] };
}

/** The audit action of a change: what it did, or for an edit, the one kind of field it touched. */
function actionOf(p: Planned, writer: { action?: AuditAction }): AuditAction {
  if (writer.action) return writer.action;
  if (p.kind === 'create') return 'book.create';
  if (p.kind === 'remove') return 'book.delete';
  const only = (permission: Permission) => p.needs.every((n) => n === permission);
  return only('books.stock') ? 'book.stock' : only('books.price') ? 'book.price' : 'book.edit';
}

/**
 * Works out the changes and checks them, reading only what the side effects need (the waiting
 * alerts of books coming back in stock): call it before the transaction's writes. Throws, writing
 * nothing, on a change the staff member may not make (403) or stock that would go below 0 (409).
 */
export async function stageBookWrites(tx: Transaction, changes: BookChange[], writer: BookWriter, now = new Date().toISOString()): Promise<StagedBookWrites> {
  const planned = changes.map((change) => plan(change, now));
  const ids = planned.map((p) => p.ref.id);
  if (new Set(ids).size !== ids.length) throw new Error('A book may change once per transaction');
  // Before the pre-orders and alerts below: the copies taken over are the book's like any others.
  const costMoves = await takeOverUnlisted(tx, planned, now);

  const short = planned.filter((p) => p.after && (p.after.stock ?? 0) < 0);
  if (short.length > 0) throw new HttpError(409, 'Some books are out of stock', { code: 'OUT_OF_STOCK', productIDs: short.map((p) => p.ref.id) });
  if ('sale' in writer) {
    // A sale moves stock only, and is the counter's to make whatever the role's book permissions.
    if (planned.some((p) => p.kind !== 'stock') || !can(writer.staff.role, 'sales.counter')) throw forbidden();
  } else if ('staff' in writer) {
    const needed = planned.flatMap((p) => (p.changed.length ? p.needs : []));
    if (needed.some((permission) => !can(writer.staff.role, permission))) throw forbidden();
  }

  // Copies for waiting pre-orders (issue 41): read the oldest waiting lines now, give them the copies
  // before anything else sees the stock. A few books share the transaction's allocations; a save of
  // more books with queues leaves them all to the commit's drain, as do copies beyond a book's share.
  const queued = planned.filter((p) => p.before && p.after && !p.queueMoves && (p.after.preorderWaiting ?? 0) > 0 && (p.after.stock ?? 0) > 0);
  const allocationShare = queued.length <= INLINE_RESTOCKS ? Math.floor(PREORDERS_PER_TRANSACTION / Math.max(1, queued.length)) : 0;
  const allocations: Allocation[] = [];
  for (const p of queued) {
    const allocation = await readAllocation(tx, p.ref.id, Math.min(p.after!.stock, p.after!.preorderWaiting!, allocationShare));
    if (allocation.lines.length === 0) continue;
    allocations.push(allocation);
    const n = allocation.lines.length;
    const stock = p.after!.stock - n;
    p.after = { ...p.after!, stock, inStock: stock > 0, preorderWaiting: p.after!.preorderWaiting! - n };
    p.allocated = n;
    if (!p.changed.includes('stock') && p.after.stock !== p.before!.stock) p.changed = [...p.changed, 'stock'];
    if (!p.changed.includes('preorderWaiting')) p.changed = [...p.changed, 'preorderWaiting'];
  }
  const allocatedOrders = await readAllocatedOrders(tx, allocations);
  const drainLater = queued.filter((p) => (p.after!.preorderWaiting ?? 0) > 0 && (p.after!.stock ?? 0) > 0).map((p) => p.ref.id);

  // Back in stock: the alerts are read now (a transaction reads before it writes).
  // (A new book has nobody waiting: alerts are taken only for a book that exists, sold out.)
  const restocked = planned.filter((p) => p.before && p.after && p.changed.includes('stock') && (p.before.stock ?? 0) <= 0 && p.after.stock > 0);
  const inline = restocked.length <= INLINE_RESTOCKS ? restocked : [];
  const share = Math.floor(ALERTS_PER_TRANSACTION / Math.max(1, inline.length));
  const waiting = new Map<string, QueryDocumentSnapshot[]>();
  for (const p of inline) waiting.set(p.ref.id, await readAlertsToRelease(tx, p.ref.id, p.before!.stock ?? 0, p.after!.stock, share));

  // A staff member's changes are audit events, links of the chain (decision 036): its head is read now.
  const log = 'staff' in writer && planned.some((p) => p.changed.length > 0) ? await openAudit(tx) : null;

  const searchMoved = planned.some((p) => p.kind === 'create' || p.kind === 'remove' || p.changed.some((f) => INDEXED_STORED_FIELDS.includes(f)));

  return {
    results: planned.map((p) => ({ id: p.ref.id, before: apiBook(p.ref.id, p.before), after: apiBook(p.ref.id, p.after), changed: p.changed })),
    write() {
      const events: AuditEntry[] = [];
      for (const p of planned) {
        if (p.changed.length === 0) continue;
        if (p.kind === 'create') tx.create(p.ref, p.after!);
        else if (p.kind === 'set') tx.set(p.ref, p.after!);
        else if (p.kind === 'stock') {
          const queue = p.after!.preorderWaiting !== undefined ? { preorderWaiting: p.after!.preorderWaiting } : {};
          tx.update(p.ref, { stock: p.after!.stock, inStock: p.after!.inStock, ...queue });
        } else tx.delete(p.ref);
        // The queue's count is bookkeeping, not a field a staff member changed: no audit event of its own.
        if ('staff' in writer && !('sale' in writer) && p.changed.some((f) => f !== 'preorderWaiting')) {
          const changes = changedFields(asRecord(p.before), asRecord(p.after), STORED_FIELD_NAMES);
          events.push({ action: actionOf(p, writer), target: `books/${p.ref.id}`, changes });
        }
      }
      if (log && events.length > 0 && 'staff' in writer) appendAudits(log, writer.staff, events, now);
      if (log && 'sale' in writer) {
        const stock = (doc: (p: Planned) => BookDoc | null) => Object.fromEntries(planned.map((p) => [p.ref.id, doc(p)?.stock ?? 0]));
        const changes = { ...writer.changes, stock: { before: stock((p) => p.before), after: stock((p) => p.after) } };
        appendAudit(log, writer.staff, { action: writer.action, target: writer.sale, changes }, now);
      }
      for (const p of planned) if (p.takeOver) tx.delete(unlistedRef(p.takeOver.isbn));
      for (const move of costMoves) {
        tx.set(bookCosts().doc(move.bookId), move.cost);
        tx.delete(bookCosts().doc(unlistedCostId(move.isbn)));
      }
      if (searchMoved && !('versionLater' in writer && writer.versionLater)) bumpCatalogVersion(tx);
      writeAllocation(tx, allocations, allocatedOrders, now);
      const more = inline.filter((p) => releaseAlerts(tx, { id: p.ref.id, title: p.after!.title }, waiting.get(p.ref.id)!, share)).map((p) => p.ref.id);
      const later = restocked.length > INLINE_RESTOCKS ? restocked.map((p) => p.ref.id) : [];
      return async () => {
        if (log && events.length > 0) logChainHead(log.head);
        for (const id of drainLater) await drainPreorders(id);
        for (const id of more) await drainAlerts(id);
        await releaseRestocked(later);
      };
    },
  };
}

/** The ISBN whose unlisted book a planned change takes over: a new book's, or one an edit gives a book. */
function isbnTakingOver(p: Planned): string | undefined {
  const isbn = p.after?.isbn;
  if (!isbn || (p.kind !== 'create' && p.kind !== 'set')) return undefined;
  return p.before?.isbn === isbn ? undefined : isbn;
}

interface CostMove {
  isbn: string;
  bookId: string;
  cost: BookCostDoc;
}

/**
 * Reads the unlisted books of the ISBNs the planned books get (the first book of an ISBN takes it)
 * and adds their copies to those books' stock; answers the costs to move (the book's moving
 * average with the unlisted copies at theirs). Reads only.
 */
async function takeOverUnlisted(tx: Transaction, planned: Planned[], now: string): Promise<CostMove[]> {
  const takers = new Map<string, Planned>();
  for (const p of planned) {
    const isbn = isbnTakingOver(p);
    if (isbn && !takers.has(isbn)) takers.set(isbn, p);
  }
  const unlisted = await readUnlisted(tx, [...takers.keys()]);
  const taking: { isbn: string; p: Planned; onHand: number }[] = [];
  for (const [isbn, p] of takers) {
    const doc = unlisted.get(isbn)?.data() as UnlistedBookDoc | undefined;
    if (!doc) continue;
    const onHand = p.after!.stock ?? 0;
    const stock = onHand + doc.stock;
    p.after = { ...p.after!, stock, inStock: stock > 0 };
    p.takeOver = { isbn, copies: doc.stock };
    if (doc.stock !== 0 && !p.changed.includes('stock')) p.changed = [...p.changed, 'stock'];
    taking.push({ isbn, p, onHand });
  }
  if (taking.length === 0) return [];
  const snaps = await tx.getAll(...taking.flatMap(({ isbn, p }) => [bookCosts().doc(unlistedCostId(isbn)), bookCosts().doc(p.ref.id)]));
  const moves: CostMove[] = [];
  taking.forEach(({ isbn, p, onHand }, i) => {
    const theirs = (snaps[2 * i]!.data() as BookCostDoc | undefined)?.avgCostCents;
    if (theirs === undefined) return; // received without a cost: the book keeps its own
    const own = (snaps[2 * i + 1]!.data() as BookCostDoc | undefined)?.avgCostCents ?? null;
    moves.push({ isbn, bookId: p.ref.id, cost: { avgCostCents: movingAverageCents(onHand, own, p.takeOver!.copies, theirs), updatedAt: now } });
  });
  return moves;
}

/**
 * Copies of an ISBN the catalogue does not list (a receipt, issue 56) counted on its unlisted book,
 * made by its first copies. `snap`: unlistedBooks/<isbn> read in `tx` (readUnlisted), after which
 * the caller found no book of that ISBN. Queues the write; answers the copies before and after.
 */
export function writeUnlistedStock(tx: Transaction, snap: DocumentSnapshot, change: { isbn: string; title: string; stockDelta: number }, now: string): { before: number; after: number } {
  const before = snap.data() as UnlistedBookDoc | undefined;
  const stock = (before?.stock ?? 0) + change.stockDelta;
  if (stock < 0) throw new HttpError(409, 'Some books are out of stock', { code: 'OUT_OF_STOCK' });
  if (before) tx.update(snap.ref, { stock, updatedAt: now });
  else tx.create(snap.ref, { isbn: change.isbn, title: change.title, stock, createdAt: now, updatedAt: now } satisfies UnlistedBookDoc);
  return { before: before?.stock ?? 0, after: stock };
}

/** Whether `patch` would change the stored book (an import's dry run counts the rows that change nothing). */
export function wouldChange(book: DocumentSnapshot, patch: BookPatch): boolean {
  return plan({ book, set: patch }, new Date().toISOString()).changed.length > 0;
}

/** A write that is only about books: reads what `decide` reads, stages its changes, commits, then runs the after-commit work. */
export async function commitBookWrites(writer: BookWriter, decide: (tx: Transaction) => Promise<BookChange[]>): Promise<BookWriteResult[]> {
  let afterCommit = noAfterCommit;
  const results = await db().runTransaction(async (tx) => {
    const staged = await stageBookWrites(tx, await decide(tx), writer);
    afterCommit = staged.write();
    return staged.results;
  });
  await afterCommit();
  return results;
}

/** Transactions one drain runs at most (each allocates up to PREORDERS_PER_TRANSACTION lines). */
const DRAIN_ROUNDS = 50;

/**
 * After a commit that left copies and waiting pre-orders of `bookId` (more than one transaction's
 * share): further transactions through the write path, each re-reading the book and allocating the
 * next oldest lines, until the copies or the queue run out. A crash in between leaves the rest for
 * the book's next write (any save of it allocates first).
 */
export async function drainPreorders(bookId: string): Promise<void> {
  for (let round = 0; round < DRAIN_ROUNDS; round += 1) {
    let allocated = 0;
    // Not commitBookWrites: its after-commit work would start a drain of its own. An allocation only
    // lowers stock, so nothing else waits for the commit.
    await db().runTransaction(async (tx) => {
      allocated = 0;
      const snap = await tx.get(books().doc(bookId));
      const doc = snap.data() as BookDoc | undefined;
      if (!doc || !((doc.preorderWaiting ?? 0) > 0 && (doc.stock ?? 0) > 0)) return;
      const staged = await stageBookWrites(tx, [{ book: snap, stockDelta: 0 }], { order: `preorders/${bookId}` });
      allocated = staged.results[0]!.changed.length ? 1 : 0;
      staged.write();
    });
    if (allocated === 0) return;
  }
}

/**
 * Books written before browse existed (an older local database) lack the fields its queries
 * filter and sort on, so they would never be listed: the first index build writes them once.
 * Only the derived query fields (book-doc.ts), never a field of the book: not a change of the
 * book, so not through the write path (no audit event, no version: the index is being built).
 */
export async function backfillDerivedFields(stale: (BookDoc & { id: string })[]): Promise<void> {
  for (let start = 0; start < stale.length; start += 400) {
    const batch = db().batch();
    for (const book of stale.slice(start, start + 400)) {
      batch.update(books().doc(book.id), { ...derivedFields(book, book.id) });
    }
    await batch.commit();
  }
  logger.info('Backfilled browse fields', { books: stale.length });
}
