import { createHash } from 'node:crypto';
import {
  fromCents, RETURN_EXCEEDS_SALE, SALE_ID_REUSED, shopDay,
  type ParsedSaleInput, type ParsedSaleReturnInput, type Sale, type SaleActor, type SaleLineInput, type SalePaymentMethod, type SaleReturn, type SalesPage, type SalesSummary,
} from '@bookstore/contract';
import { FieldPath, FieldValue, type DocumentSnapshot, type Transaction } from 'firebase-admin/firestore';
import { logger } from 'firebase-functions';
import type { AuditActor } from '../admin/audit.repo';
import { books, type BookDoc } from '../books/book-doc';
import { noAfterCommit, stageBookWrites } from '../books/book-writes';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { addToCounters } from '../orders/counters.repo';
import { decodeCursor, encodeCursor } from '../orders/cursor';
import { apiLine, LINE_PRICERS, linesCents, returnable, type StoredSaleLine } from './sale-lines';
import {
  randomTakingsShard, returnCounterDelta, returnTakings, saleCounterDelta, saleTakings, summaryOf, TAKINGS_COLLECTION, TAKINGS_SHARDS, takingsDocId, type TakingsWrite,
} from './takings';

// Counter sales and returns (issue 39). A sale is `sales/<saleId>`, the id the counter made, so a
// sale sent twice (a lost answer, the offline queue, five at once) is stored once: the transaction
// reads the id first and replays what is there, and its create() stops a racing duplicate. In the
// same transaction it prices the lines from the books it reads, takes the copies through the book
// write path (the stock web orders take from: a sale and an order racing for the last copy cannot
// both commit), counts the takings and appends one audit event. A return is `saleReturns/<id>`
// (the day's index of returns, and what makes a retried return one return) plus its lines in the
// sale, whose `returned` counts say what may still come back.

export const sales = () => db().collection('sales');
export const saleReturns = () => db().collection('saleReturns');
const takingsDay = (day: string, shard: number) => db().collection(TAKINGS_COLLECTION).doc(takingsDocId(day, shard));

interface StoredReturn {
  id: string;
  lines: StoredSaleLine[];
  totalCents: number;
  refundMethod: SalePaymentMethod;
  by: SaleActor;
  createdAt: string;
  day: string;
}

export interface SaleDoc {
  lines: StoredSaleLine[];
  totalCents: number;
  payment: { method: SalePaymentMethod; tenderedCents?: number };
  changeCents?: number;
  by: SaleActor;
  createdAt: string;
  /** The shop's day of the sale (shopDay): the takings' day and the day list's filter. */
  day: string;
  /** sha256 of the parsed lines and payment: the same saleId with another sale is refused. */
  requestHash: string;
  /** Copies returned so far, by book id. */
  returned: Record<string, number>;
  returns: StoredReturn[];
}

export interface ReturnDoc {
  saleId: string;
  totalCents: number;
  refundMethod: SalePaymentMethod;
  by: SaleActor;
  createdAt: string;
  day: string;
  requestHash: string;
}

// A last copy wanted by 8 tills and 8 shoppers at once: each loser's transaction runs again to see it gone.
const TX_OPTIONS = { maxAttempts: 10 };
// No new attempt after this long: under heavy contention (the emulator's lock waits, about 15 s a
// conflict on a loaded machine) ten attempts passed the function's 60 s timeout, an empty 504 after
// which the sale might still land. Stopping between attempts is a 503 with nothing written; the
// counter keeps the sale waiting and sends it again under the same id.
const TX_BUDGET_MS = 25_000;

const tooBusy = () => new HttpError(503, 'Too many sales of these books at once. Please try again.', { code: 'BUSY' }, { 'Retry-After': '1' });

/** Throws 503 (nothing written) when a retried attempt would start past the budget. */
function withinBudget(started: number, attempt: number): void {
  if (attempt > 1 && Date.now() - started > TX_BUDGET_MS) throw tooBusy();
}

function busy(error: unknown): never {
  if ((error as { code?: number }).code === 10 /* ABORTED */) throw tooBusy();
  throw error;
}

const hashOf = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

const toReturn = (saleId: string, r: StoredReturn): SaleReturn => ({
  _id: r.id, saleId, lines: r.lines.map(apiLine), total: fromCents(r.totalCents), refundMethod: r.refundMethod, by: r.by, createdAt: r.createdAt,
});

export function toSale(id: string, doc: SaleDoc): Sale {
  return {
    _id: id,
    lines: doc.lines.map(apiLine),
    total: fromCents(doc.totalCents),
    payment: { method: doc.payment.method, ...(doc.payment.tenderedCents !== undefined ? { tendered: fromCents(doc.payment.tenderedCents) } : {}) },
    ...(doc.changeCents !== undefined ? { change: fromCents(doc.changeCents) } : {}),
    by: doc.by,
    createdAt: doc.createdAt,
    day: doc.day,
    returns: (doc.returns ?? []).map((r) => toReturn(id, r)),
  };
}

/** Adds a sale's or return's takings to one shard of its day (blind increments: no read, no lock). */
function addTakings(tx: Transaction, day: string, write: TakingsWrite): void {
  const fields: Record<string, unknown> = { ...write.texts };
  for (const [field, by] of Object.entries(write.numbers)) fields[field] = FieldValue.increment(by);
  tx.set(takingsDay(day, randomTakingsShard()), fields, { merge: true });
}

interface ResolvedLine {
  input: SaleLineInput;
  snap: DocumentSnapshot | null;
}

/**
 * Which book holds each ISBN: one query per ISBN line, before the transaction. Inside it, the books
 * are read by id (their documents lock; a query in a contended transaction can find the emulator's
 * transaction closed under it) and a book whose ISBN changed meanwhile counts as not found.
 */
async function idsOfIsbns(lines: SaleLineInput[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const line of lines.filter((l) => l.isbn)) {
    const found = await runQuery(books().where('isbn', '==', line.isbn!).limit(1));
    if (found.docs[0]) ids.set(line.isbn!, found.docs[0].id);
  }
  return ids;
}

/** Each line's book, read in the transaction by id (null: no such book, or no longer with that ISBN). */
async function resolveLines(tx: Transaction, lines: SaleLineInput[], isbnIds: Map<string, string>): Promise<ResolvedLine[]> {
  const idOf = (line: SaleLineInput) => line.bookId ?? isbnIds.get(line.isbn!);
  const ids = [...new Set(lines.map(idOf).filter((id): id is string => !!id))];
  const snaps = ids.length ? await tx.getAll(...ids.map((id) => books().doc(id))) : [];
  countReads(snaps.length);
  return lines.map((input) => {
    const id = idOf(input);
    const snap = id ? snaps[ids.indexOf(id)] : undefined;
    const matches = snap?.exists && (!input.isbn || (snap.data() as BookDoc).isbn === input.isbn);
    return { input, snap: matches ? snap! : null };
  });
}

/** The lines' books that do not exist: 400 UNKNOWN_BOOKS, naming them as the request did. */
function refuseUnknown(resolved: ResolvedLine[]): void {
  const unknown = resolved.filter((r) => !r.snap).map((r) => r.input);
  if (unknown.length === 0) return;
  const isbns = unknown.filter((l) => l.isbn).map((l) => l.isbn!);
  const bookIds = unknown.filter((l) => l.bookId).map((l) => l.bookId!);
  throw new HttpError(400, `No book in the catalogue for ${[...isbns.map((i) => `ISBN ${i}`), ...bookIds.map((i) => `id ${i}`)].join(', ')}`, {
    code: 'UNKNOWN_BOOKS', isbns, bookIds,
  });
}

/** One line per book: an ISBN line and an id line naming the same book are a broken request. */
function refuseRepeats(resolved: ResolvedLine[]): void {
  const ids = resolved.map((r) => r.snap!.id);
  const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  if (repeated.length > 0) throw new HttpError(400, `A book appears on more than one line: ${repeated.join(', ')}`, { details: { lines: [`Repeated book: ${repeated.join(', ')}`] } });
}

/** Runs the write path's staging; its 409 OUT_OF_STOCK (book ids) is answered with the ISBNs as the counter sent them too. */
async function outOfStockByIsbn<T>(resolved: ResolvedLine[], stage: () => Promise<T>): Promise<T> {
  try {
    return await stage();
  } catch (error) {
    if (!(error instanceof HttpError) || error.extra.code !== 'OUT_OF_STOCK') throw error;
    const ids = (error.extra.productIDs as string[] | undefined) ?? [];
    const short = resolved.filter((r) => ids.includes(r.snap!.id));
    const isbns = short.map((r) => r.input.isbn ?? (r.snap!.data() as BookDoc).isbn).filter((isbn): isbn is string => !!isbn);
    throw new HttpError(409, 'Not enough copies in stock', { code: 'OUT_OF_STOCK', isbns, bookIds: short.map((r) => r.snap!.id) });
  }
}

export interface PlacedSale {
  sale: Sale;
  replayed: boolean;
}

function replaySale(existing: DocumentSnapshot, hash: string): PlacedSale {
  const doc = existing.data() as SaleDoc;
  if (doc.requestHash !== hash) throw new HttpError(422, 'This saleId was used for a different sale', { code: SALE_ID_REUSED });
  return { sale: toSale(existing.id, doc), replayed: true };
}

/**
 * Sells the lines at the books' current prices, in one transaction: the copies leave stock through
 * the book write path, the sale is stored under the counter's saleId, the takings and the shop's
 * counters move, and one audit event records it. A saleId already stored answers that sale.
 */
export async function placeSale(actor: AuditActor & { displayName: string }, input: ParsedSaleInput): Promise<PlacedSale> {
  const ref = sales().doc(input.saleId);
  const hash = hashOf({ lines: input.lines, payment: input.payment });
  let afterCommit = noAfterCommit;
  let tries = 0;
  const started = Date.now();
  const isbnIds = await idsOfIsbns(input.lines);
  const attempt = () =>
    db().runTransaction(async (tx): Promise<PlacedSale> => {
      tries += 1;
      if (tries > 1) logger.info('Sale transaction retried', { attempt: tries, saleId: input.saleId });
      withinBudget(started, tries);
      afterCommit = noAfterCommit;
      const existing = await tx.get(ref);
      countReads(1);
      if (existing.exists) return replaySale(existing, hash);

      const resolved = await resolveLines(tx, input.lines, isbnIds);
      refuseUnknown(resolved);
      refuseRepeats(resolved);
      const lines = resolved.map((r) => {
        const book = r.snap!.data() as BookDoc;
        return LINE_PRICERS.book({ id: r.snap!.id, isbn: book.isbn, title: book.title, newPriceCents: book.newPriceCents }, r.input.quantity);
      });
      const totalCents = linesCents(lines);
      // The copies, the sale's one audit event and the books' side effects: the write path's (its
      // 409 when a book has too few copies, named here by the ISBNs the counter scanned).
      const now = new Date().toISOString();
      const staged = await outOfStockByIsbn(resolved, () =>
        stageBookWrites(tx, resolved.map((r) => ({ book: r.snap!, stockDelta: -r.input.quantity })), {
          sale: ref.path,
          staff: actor,
          action: 'sale.create',
          changes: {
            total: { before: null, after: totalCents },
            payment: { before: null, after: input.payment.method },
            lines: { before: null, after: lines.map((l) => ({ bookId: l.bookId, quantity: l.quantity, unitPriceCents: l.unitPriceCents })) },
          },
        }, now),
      );
      const tendered = input.payment.method === 'cash' ? input.payment.tendered : undefined;
      if (tendered !== undefined && tendered < totalCents) {
        throw new HttpError(400, `Amount tendered is less than the total ($${fromCents(totalCents).toFixed(2)})`, {
          code: 'TENDERED_TOO_LOW', total: fromCents(totalCents), details: { 'payment.tendered': ['Amount tendered is less than the total'] },
        });
      }

      const by = { username: actor.username, name: actor.displayName };
      const doc: SaleDoc = {
        lines,
        totalCents,
        payment: { method: input.payment.method, ...(tendered !== undefined ? { tenderedCents: tendered } : {}) },
        ...(tendered !== undefined ? { changeCents: tendered - totalCents } : {}),
        by,
        createdAt: now,
        day: shopDay(now),
        requestHash: hash,
        returned: {},
        returns: [],
      };
      tx.create(ref, doc); // first: a duplicate racing past the read above stops here
      afterCommit = staged.write();
      const counted = { totalCents, method: input.payment.method, by };
      addToCounters(tx, saleCounterDelta(counted));
      addTakings(tx, doc.day, saleTakings(counted));
      return { sale: toSale(ref.id, doc), replayed: false };
    }, TX_OPTIONS);
  let placed: PlacedSale;
  try {
    placed = await attempt();
  } catch (error) {
    // Two requests with one saleId raced: the loser's create failed, so it answers the winner's sale.
    if ((error as { code?: number }).code === 6 /* ALREADY_EXISTS */) {
      const existing = await ref.get();
      countReads(1);
      if (existing.exists) return replaySale(existing, hash);
    }
    return busy(error);
  }
  await afterCommit();
  return placed;
}

export async function getSale(id: string): Promise<Sale | null> {
  const snap = await sales().doc(id).get();
  countReads(1);
  return snap.exists ? toSale(snap.id, snap.data() as SaleDoc) : null;
}

export interface PlacedReturn {
  ret: SaleReturn;
  sale: Sale;
  replayed: boolean;
}

/** The sold line a return line names (by ISBN or book id), or undefined. */
function soldLine(sale: SaleDoc, line: SaleLineInput): StoredSaleLine | undefined {
  return sale.lines.find((sold) => (line.bookId ? sold.bookId === line.bookId : sold.isbn === line.isbn));
}

/**
 * Takes copies of a sale back at the prices they were sold for: in one transaction the copies go
 * back to stock through the book write path (a book deleted since has no stock to return to), the
 * return is stored and added to the sale, the day's refunds and the shop's counters move, and one
 * audit event records it. Never more of a book than was sold, less what earlier returns took back.
 */
export async function returnSale(actor: AuditActor & { displayName: string }, saleId: string, input: ParsedSaleReturnInput): Promise<PlacedReturn> {
  const saleRef = sales().doc(saleId);
  const retRef = input.returnId ? saleReturns().doc(input.returnId) : saleReturns().doc();
  const hash = hashOf({ saleId, lines: input.lines, refundMethod: input.refundMethod });
  let afterCommit = noAfterCommit;
  const replayReturn = (sale: SaleDoc, ret: ReturnDoc): PlacedReturn => {
    const stored = sale.returns.find((r) => r.id === retRef.id);
    if (ret.saleId !== saleId || ret.requestHash !== hash || !stored) {
      throw new HttpError(422, 'This returnId was used for a different return', { code: SALE_ID_REUSED });
    }
    return { ret: toReturn(saleId, stored), sale: toSale(saleId, sale), replayed: true };
  };
  let tries = 0;
  const started = Date.now();
  const attempt = () =>
    db().runTransaction(async (tx): Promise<PlacedReturn> => {
      tries += 1;
      withinBudget(started, tries);
      afterCommit = noAfterCommit;
      const [saleSnap, retSnap] = await tx.getAll(saleRef, retRef);
      countReads(2);
      if (!saleSnap!.exists) throw new HttpError(404, 'Sale not found');
      const sale = saleSnap!.data() as SaleDoc;
      if (retSnap!.exists) return replayReturn(sale, retSnap!.data() as ReturnDoc);

      const notSold = input.lines.filter((line) => !soldLine(sale, line));
      if (notSold.length > 0) {
        const names = notSold.map((l) => (l.isbn ? `ISBN ${l.isbn}` : `id ${l.bookId}`));
        throw new HttpError(400, `Not on this sale: ${names.join(', ')}`, { code: 'NOT_ON_SALE', isbns: notSold.filter((l) => l.isbn).map((l) => l.isbn!), bookIds: notSold.filter((l) => l.bookId).map((l) => l.bookId!) });
      }
      const lines = input.lines.map((line) => ({ ...soldLine(sale, line)!, quantity: line.quantity }));
      const ids = lines.map((l) => l.bookId);
      if (new Set(ids).size !== ids.length) throw new HttpError(400, 'A book appears on more than one line', { details: { lines: ['Repeated book'] } });
      const left = returnable(sale.lines, sale.returned ?? {});
      const over = lines.filter((l) => l.quantity > (left.get(l.bookId) ?? 0));
      if (over.length > 0) {
        throw new HttpError(409, 'That is more copies than this sale has left to return', {
          code: RETURN_EXCEEDS_SALE,
          lines: over.map((l) => ({ bookId: l.bookId, isbn: l.isbn, returnable: left.get(l.bookId) ?? 0 })),
        });
      }
      const bookSnaps = await tx.getAll(...ids.map((id) => books().doc(id)));
      countReads(bookSnaps.length);
      const now = new Date().toISOString();
      const by = { username: actor.username, name: actor.displayName };
      const stored: StoredReturn = { id: retRef.id, lines, totalCents: linesCents(lines), refundMethod: input.refundMethod, by, createdAt: now, day: shopDay(now) };
      // The copies back, the return's one audit event, back-in-stock alerts: the write path's.
      const staged = await stageBookWrites(
        tx,
        bookSnaps.filter((b) => b.exists).map((book) => ({ book, stockDelta: lines.find((l) => l.bookId === book.id)!.quantity })),
        {
          sale: saleRef.path,
          staff: actor,
          action: 'sale.return',
          changes: {
            returnId: { before: null, after: retRef.id },
            refund: { before: null, after: stored.totalCents },
            refundMethod: { before: null, after: input.refundMethod },
            lines: { before: null, after: lines.map((l) => ({ bookId: l.bookId, quantity: l.quantity, unitPriceCents: l.unitPriceCents })) },
          },
        },
        now,
      );
      const returned = { ...(sale.returned ?? {}) };
      for (const l of lines) returned[l.bookId] = (returned[l.bookId] ?? 0) + l.quantity;
      const updated: SaleDoc = { ...sale, returned, returns: [...(sale.returns ?? []), stored] };
      tx.create(retRef, { saleId, totalCents: stored.totalCents, refundMethod: stored.refundMethod, by, createdAt: now, day: stored.day, requestHash: hash } satisfies ReturnDoc);
      tx.update(saleRef, { returned, returns: updated.returns });
      afterCommit = staged.write();
      const counted = { totalCents: stored.totalCents, refundMethod: input.refundMethod };
      addToCounters(tx, returnCounterDelta(counted));
      addTakings(tx, stored.day, returnTakings(counted));
      return { ret: toReturn(saleId, stored), sale: toSale(saleId, updated), replayed: false };
    }, TX_OPTIONS);
  let placed: PlacedReturn;
  try {
    placed = await attempt();
  } catch (error) {
    if (input.returnId && (error as { code?: number }).code === 6 /* ALREADY_EXISTS */) {
      const [saleSnap, retSnap] = await db().getAll(saleRef, retRef);
      countReads(2);
      if (saleSnap!.exists && retSnap!.exists) return replayReturn(saleSnap!.data() as SaleDoc, retSnap!.data() as ReturnDoc);
    }
    return busy(error);
  }
  await afterCommit();
  return placed;
}

/** A day's takings: TAKINGS_SHARDS document reads, whatever the number of sales. */
export async function salesSummary(date: string): Promise<SalesSummary> {
  const snaps = await db().getAll(...Array.from({ length: TAKINGS_SHARDS }, (_, k) => takingsDay(date, k)));
  countReads(snaps.length);
  return summaryOf(date, snaps.map((s) => s.data()));
}

/** A day's sales, newest first, one page (a (createdAt, id) cursor, as the order lists). */
export async function salesOfDay(date: string, limit: number, cursor?: string): Promise<SalesPage> {
  let query = sales().where('day', '==', date).orderBy('createdAt', 'desc').orderBy(FieldPath.documentId(), 'desc');
  const after = cursor ? decodeCursor(cursor) : undefined;
  query = after ? query.startAfter(after.createdAt, after.id).limit(limit) : query.limit(limit);
  const snap = await runQuery(query);
  const list = snap.docs.map((d) => toSale(d.id, d.data() as SaleDoc));
  const last = list[list.length - 1];
  return { sales: list, nextCursor: last && list.length === limit ? encodeCursor({ createdAt: last.createdAt, id: last._id }) : null };
}

