import { createHash } from 'node:crypto';
import {
  DEFAULT_TILL_ID, discountOfCopies, formatGiftCardCode, fromCents, isGiftCardLine, type FieldChange, RETURN_EXCEEDS_SALE, SALE_ID_REUSED, shopDay, soldAtProblem, storedName,
  type ParsedGiftCardLine, type ParsedSaleInput, type ParsedSaleReturnInput, type ReturnMethod, type Sale, type SaleActor, type SaleBookLineInput, type SaleLineInput,
  type SaleReturn, type SalesPage, type SalesSummary, type SaleStatus, SALE_NOT_PAID,
} from '@bookstore/contract';
import { FieldPath, FieldValue, type DocumentSnapshot, type Transaction } from 'firebase-admin/firestore';
import { logger } from 'firebase-functions';
import { appendAudit, audit, openAudit, type AuditActor, type AuditLog } from '../admin/audit.repo';
import { books, type BookDoc } from '../books/book-doc';
import { noAfterCommit, stageBookWrites } from '../books/book-writes';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { addToCounters } from '../counters/counters.repo';
import { decodeCursor, encodeCursor } from '../lib/created-cursor';
import { giftCardId, giveBackToCard, readCardForReturn, stageGiftCardIssue, type StagedIssue } from '../promotions/gift-cards.repo';
import {
  apiBookLine, apiLine, giftCardCentsOf, isBookLine, LINE_PRICERS, linesCents, linesDiscountCents, priceDiffersOf, returnable, type StoredBookLine, type StoredSaleLine,
} from './sale-lines';
import { authorityChanges, authorityFields, type TillAuthority } from './approval';
import { stageAllowance } from './allowance';
import { claimReservedCodes, serverGiftCardCode, withServerCodes } from './gift-card-codes';
import {
  randomTakingsShard, returnCounterDelta, returnTakings, saleCounterDelta, saleTakings, summaryOf, TAKINGS_COLLECTION, TAKINGS_SHARDS, takingsDocId, type TakingsWrite,
} from './takings';
import { terminalHold, type StoredTerminal } from './terminal-hold';
import { saleTenders, stageTillPayment, type StoredSaleDiscount, type StoredSalePayment } from './till-payment';
import { isAlreadyExists } from '../lib/errors';

// Counter sales and returns (issue 39). A sale is `sales/<saleId>`, the id the counter made, so a
// sale sent twice (a lost answer, the offline queue, five at once) is stored once: the transaction
// reads the id first and replays what is there, and its create() stops a racing duplicate. In the
// same transaction it prices the lines from the books it reads, takes the copies through the book
// write path (the stock web orders take from: a sale and an order racing for the last copy cannot
// both commit), counts the takings and appends one audit event. A return is `saleReturns/<id>`
// (the day's index of returns, and what makes a retried return one return) plus its lines in the
// sale, whose `returned` counts say what may still come back.
//
// Gift cards (issue 40): a gift card line issues its card in the sale's transaction, and a return as
// store credit issues one in the return's; the code is the server's for that sale or return (issue
// 55: gift-card-codes.ts), or one reserved for the till, so a retry names the same card, and the
// answer to the POST that sold it shows it; reads show its last 4 only (the card is stored under the
// code's hash). Issue 55 also checks who stands behind a sale or return (approval.ts) and a
// bookseller's allowance (allowance.ts), in the same transaction.
//
// The till's money (issue 54): a sale is recorded as the till made it, whenever it reaches the shop:
// at its `soldAt` (its time, and its takings' day) and at the prices the till charged (its total is
// the money taken). A charge other than the book's price at soldAt is flagged for a manager, never
// refused. A soldAt more than 5 minutes ahead or 7 days behind the shop's clock is refused (400).

export const sales = () => db().collection('sales');
export const saleReturns = () => db().collection('saleReturns');
const takingsDay = (day: string, shard: number) => db().collection(TAKINGS_COLLECTION).doc(takingsDocId(day, shard));

interface StoredReturn {
  id: string;
  lines: StoredBookLine[];
  totalCents: number;
  refundMethod: ReturnMethod;
  /** Store credit: the card it went on. */
  giftCard?: { id: string; last4: string };
  by: SaleActor;
  /** Issue 55 (absent before: DEFAULT_TILL_ID). */
  tillId?: string;
  approvedBy?: SaleActor;
  createdAt: string;
  day: string;
  /** Issue 57: paid back to the card through Stripe (a card-terminal sale's return). */
  cardRefund?: { id: string | null; status: 'succeeded' | 'pending' | 'failed' };
  /** Issue 57: of totalCents, put back on the gift card that paid for the sale. */
  giftCardBack?: { id: string; last4: string; cents: number };
}

export interface SaleDoc {
  lines: StoredSaleLine[];
  totalCents: number;
  payment: StoredSalePayment;
  /** Issue 57: a discount code taken off its book lines (each line's `discountCents`). */
  discount?: StoredSaleDiscount;
  /** Issue 57: of payment.giftCard's part, what returns have put back on the card so far. */
  giftCardReturnedCents?: number;
  changeCents?: number;
  by: SaleActor;
  /** Issue 55: who synced a sale made offline by `by`, the owner or manager who approved it, the till (absent before: DEFAULT_TILL_ID). */
  recordedBy?: SaleActor;
  approvedBy?: SaleActor;
  tillId?: string;
  /** When the till made the sale (= soldAt; the day list's order). */
  createdAt: string;
  /** Issue 54: when the till made it, and when the shop recorded it (absent on older sales: createdAt, both). */
  soldAt?: string;
  receivedAt?: string;
  /** The shop's day of soldAt (shopDay): the takings' day and the day list's filter. */
  day: string;
  /** Issue 54: a line was charged other than its book's price (absent on older sales: false). */
  priceDiffers?: boolean;
  /**
   * sha256 of the parsed lines (with the prices charged) and payment: the same saleId with another
   * sale is refused. Not soldAt: a sale queued before issue 54 and sent again now carries the time
   * its till made it, and is the same sale as the one sent (without it) before its answer was lost.
   */
  requestHash: string;
  /** Copies returned so far, by book id. */
  returned: Record<string, number>;
  returns: StoredReturn[];
  /** Issue 57: absent: complete (every sale before it, and cash). */
  status?: SaleStatus;
  terminal?: StoredTerminal;
}

export interface ReturnDoc {
  saleId: string;
  totalCents: number;
  refundMethod: ReturnMethod;
  /** Issue 57: of totalCents, put back on the gift card that paid for the sale (the shift's figures read it). */
  giftCardBackCents?: number;
  by: SaleActor;
  tillId?: string;
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

/** Gift card codes a request carried, by card id (formatted as the receipt prints them). */
type Codes = ReadonlyMap<string, string>;
const codesOf = (codes: string[]): Codes => new Map(codes.map((code) => [giftCardId(code), formatGiftCardCode(code)]));

const toReturn = (saleId: string, r: StoredReturn, codes?: Codes): SaleReturn => {
  const code = r.giftCard && codes?.get(r.giftCard.id);
  return {
    _id: r.id, saleId, lines: r.lines.map(apiBookLine), total: fromCents(r.totalCents), refundMethod: r.refundMethod, by: r.by,
    tillId: r.tillId ?? DEFAULT_TILL_ID, ...(r.approvedBy ? { approvedBy: r.approvedBy } : {}), createdAt: r.createdAt,
    ...(r.giftCard ? { giftCard: { ...r.giftCard, ...(code ? { code } : {}) } } : {}),
    ...(r.cardRefund ? { cardRefund: r.cardRefund } : {}),
    ...(r.giftCardBack ? { giftCardBack: { id: r.giftCardBack.id, last4: r.giftCardBack.last4, amount: fromCents(r.giftCardBack.cents) } } : {}),
  };
};

export function toSale(id: string, doc: SaleDoc, codes?: Codes): Sale {
  return {
    _id: id,
    lines: doc.lines.map((line) => apiLine(line, codes)),
    total: fromCents(doc.totalCents),
    payment: {
      method: doc.payment.method,
      ...(doc.payment.tenderedCents !== undefined ? { tendered: fromCents(doc.payment.tenderedCents) } : {}),
      ...(doc.payment.giftCard ? { giftCard: { id: doc.payment.giftCard.id, last4: doc.payment.giftCard.last4, amount: fromCents(doc.payment.giftCard.cents) } } : {}),
    },
    ...(doc.payment.giftCard ? { due: fromCents(doc.totalCents - doc.payment.giftCard.cents) } : {}),
    ...(doc.discount ? { discount: { code: doc.discount.code, amount: fromCents(doc.discount.cents) } } : {}),
    ...(doc.changeCents !== undefined ? { change: fromCents(doc.changeCents) } : {}),
    by: doc.by,
    ...(doc.recordedBy ? { recordedBy: doc.recordedBy } : {}),
    ...(doc.approvedBy ? { approvedBy: doc.approvedBy } : {}),
    tillId: doc.tillId ?? DEFAULT_TILL_ID,
    createdAt: doc.createdAt,
    soldAt: doc.soldAt ?? doc.createdAt,
    receivedAt: doc.receivedAt ?? doc.createdAt,
    day: doc.day,
    priceDiffers: doc.priceDiffers ?? false,
    returns: (doc.returns ?? []).map((r) => toReturn(id, r)),
    ...(doc.status ? { status: doc.status } : {}),
    ...(doc.terminal ? { terminal: doc.terminal } : {}),
  };
}

/** Adds a sale's or return's takings to one shard of its day (blind increments: no read, no lock). */
export function addTakings(tx: Transaction, day: string, write: TakingsWrite): void {
  const fields: Record<string, unknown> = { ...write.texts };
  for (const [field, by] of Object.entries(write.numbers)) fields[field] = FieldValue.increment(by);
  tx.set(takingsDay(day, randomTakingsShard()), fields, { merge: true });
}

interface ResolvedLine {
  input: SaleBookLineInput;
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
async function resolveLines(tx: Transaction, lines: SaleBookLineInput[], isbnIds: Map<string, string>): Promise<ResolvedLine[]> {
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

const PRICE_FIELD = storedName('newPrice');
/** How many of a book's audit events after a sale's time are searched for its first price change. */
const PRICE_HISTORY_EVENTS = 50;

/**
 * A book's price at `soldAt` (issue 54): its stored price, unless the book was edited after soldAt
 * (updatedAt moves with each edit of its fields, not with its stock); then the first price change
 * after soldAt says what the price was before it. Each edit of a book has its audit event
 * (`books/<id>`, every changed field before and after), committed with the edit. Read outside the
 * transaction: events up to the book's updatedAt are history, and an edit landing meanwhile writes
 * the book this transaction read, so the transaction runs again. No price change among the first
 * PRICE_HISTORY_EVENTS edits after soldAt: the stored price (at worst a flag a manager clears).
 */
async function priceAt(snap: DocumentSnapshot, soldAt: string): Promise<number> {
  const book = snap.data() as BookDoc;
  if (!(book.updatedAt > soldAt)) return book.newPriceCents;
  const events = await runQuery(audit().where('target', '==', `books/${snap.id}`).where('at', '>', soldAt).orderBy('at').limit(PRICE_HISTORY_EVENTS));
  for (const event of events.docs) {
    const change = (event.data().changes as Record<string, FieldChange> | undefined)?.[PRICE_FIELD];
    if (change && typeof change.before === 'number') return change.before;
  }
  return book.newPriceCents;
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

/** Scripts and tests that call the repo directly: the actor alone, not limited. */
const unlimited = (actor: AuditActor & { displayName: string }): TillAuthority => ({ maker: actor, limited: false, allowanceOf: actor.username });

/** A sale already stored under this saleId: the same request is answered with it (and the codes it carried), another is 422. */
function replaySale(existing: DocumentSnapshot, hash: string, codes: Codes): PlacedSale {
  const doc = existing.data() as SaleDoc;
  if (doc.requestHash !== hash) throw new HttpError(422, 'This saleId was used for a different sale', { code: SALE_ID_REUSED });
  return { sale: toSale(existing.id, doc, codes), replayed: true };
}

/** A sale's gift card lines, each staged for issue in its transaction (reads that no card has the code). */
async function stageCards(tx: Transaction, cards: (ParsedGiftCardLine & { code: string })[], by: string, saleId: string): Promise<(StagedIssue & { amountCents: number })[]> {
  const staged = [];
  for (const card of cards) staged.push({ ...(await stageGiftCardIssue(tx, card.code, { amountCents: card.amount, kind: 'issued', by, saleId })), amountCents: card.amount });
  return staged;
}

/**
 * The sale's or return's one audit event when no book moves (a sale of gift cards only; a return of
 * books deleted since): otherwise the book write path writes it. Opened before the writes.
 */
async function ownAudit(tx: Transaction, bookChanges: number): Promise<AuditLog | null> {
  return bookChanges === 0 ? openAudit(tx) : null;
}

const cardTaken = () => new HttpError(409, 'A gift card with this code exists already: make a new code and send it again', { code: 'GIFT_CARD_CODE_TAKEN' });

/**
 * Records the sale at the prices the till charged (a line without one: its book's current price),
 * on its soldAt's day, in one transaction: the copies leave stock through the book write path, the
 * sale is stored under the counter's saleId, the takings and the shop's counters move, and one audit
 * event records it. A saleId already stored answers that sale.
 */
export async function placeSale(actor: AuditActor & { displayName: string }, input: ParsedSaleInput, who: TillAuthority = unlimited(actor)): Promise<PlacedSale> {
  const ref = sales().doc(input.saleId);
  const hash = hashOf({ lines: input.lines, payment: input.payment, ...(input.discountCode ? { discountCode: input.discountCode } : {}) });
  const bookInputs = input.lines.filter((l): l is SaleBookLineInput => !isGiftCardLine(l));
  // Issue 55: every card's code is the server's for this sale, or one reserved for this till.
  const coded = withServerCodes(input.saleId, input.lines);
  const cardInputs = coded.lines.filter(isGiftCardLine) as (ParsedGiftCardLine & { code: string })[];
  const codes = codesOf(cardInputs.map((c) => c.code));
  let afterCommit = noAfterCommit;
  let tries = 0;
  const started = Date.now();
  const isbnIds = await idsOfIsbns(bookInputs);
  const attempt = () =>
    db().runTransaction(async (tx): Promise<PlacedSale> => {
      tries += 1;
      if (tries > 1) logger.info('Sale transaction retried', { attempt: tries, saleId: input.saleId });
      withinBudget(started, tries);
      afterCommit = noAfterCommit;
      const existing = await tx.get(ref);
      countReads(1);
      if (existing.exists) return replaySale(existing, hash, codes);

      // After the replay: a sale the shop has is answered however long its answer took to come back.
      const now = new Date().toISOString();
      const soldAt = input.soldAt ?? now;
      const problem = soldAtProblem(soldAt, new Date(now));
      if (problem) throw new HttpError(400, problem.message, { code: problem.code, details: { soldAt: [problem.message] } });
      const claims = await claimReservedCodes(tx, input.tillId, coded.deviceCodes, ref.path);
      const allowance = await stageAllowance(tx, who, { day: shopDay(soldAt), tillId: input.tillId, valueCents: cardInputs.reduce((sum, c) => sum + c.amount, 0) });

      const resolved = await resolveLines(tx, bookInputs, isbnIds);
      refuseUnknown(resolved);
      refuseRepeats(resolved);
      const prices = await Promise.all(resolved.map((r) => priceAt(r.snap!, soldAt)));
      const cards = await stageCards(tx, cardInputs, actor.username, ref.id);
      // In the order the counter sent them: each kind priced by its own rule.
      let nextBook = 0;
      let nextCard = 0;
      const priced: StoredSaleLine[] = coded.lines.map((line) => {
        if (isGiftCardLine(line)) return LINE_PRICERS.gift_card(cards[nextCard++]!);
        const at = nextBook++;
        const r = resolved[at]!;
        const book = r.snap!.data() as BookDoc;
        return LINE_PRICERS.book({ id: r.snap!.id, isbn: book.isbn, title: book.title, newPriceCents: prices[at]! }, r.input.quantity, r.input.unitPrice);
      });
      // Issue 57: the discount code and the gift card, read and refused (or not) before anything is written.
      const categories = new Map(resolved.map((r) => [r.snap!.id, (r.snap!.data() as BookDoc).category]));
      const till = await stageTillPayment(tx, input, priced, categories, now);
      const { lines, totalCents, dueCents } = till;
      const priceDiffers = priceDiffersOf(lines);
      const changes: Record<string, FieldChange> = {
        total: { before: null, after: totalCents },
        payment: { before: null, after: input.payment.method },
        ...(till.payment.giftCard ? { giftCardPaid: { before: null, after: { giftCardId: till.payment.giftCard.id, last4: till.payment.giftCard.last4, cents: till.payment.giftCard.cents } } } : {}),
        ...(till.discount ? { discount: { before: null, after: { code: till.discount.code, cents: till.discount.cents } } } : {}),
        soldAt: { before: null, after: soldAt },
        tillId: { before: null, after: input.tillId },
        ...authorityChanges(who),
        lines: {
          before: null,
          after: lines.filter(isBookLine).map((l) => ({ bookId: l.bookId, quantity: l.quantity, unitPriceCents: l.unitPriceCents, ...(l.priceDiffers ? { bookPriceCents: l.bookPriceCents } : {}) })),
        },
        ...(priceDiffers ? { priceDiffers: { before: null, after: true } } : {}),
        ...(cards.length ? { giftCards: { before: null, after: cards.map((c) => ({ giftCardId: c.id, last4: c.last4, amountCents: c.amountCents })) } } : {}),
      };
      // The copies, the sale's one audit event and the books' side effects: the write path's (its
      // 409 when a book has too few copies, named here by the ISBNs the counter scanned).
      const staged = await outOfStockByIsbn(resolved, () =>
        stageBookWrites(tx, resolved.map((r) => ({ book: r.snap!, stockDelta: -r.input.quantity })), { sale: ref.path, staff: actor, action: 'sale.create', changes }, now),
      );
      const log = await ownAudit(tx, resolved.length);
      const tendered = till.payment.tenderedCents;
      if (tendered !== undefined && tendered < dueCents) {
        throw new HttpError(400, `Amount tendered is less than the total ($${fromCents(dueCents).toFixed(2)})`, {
          code: 'TENDERED_TOO_LOW', total: fromCents(dueCents), details: { 'payment.tendered': ['Amount tendered is less than the total'] },
        });
      }

      const by = { username: actor.username, name: actor.displayName };
      const held = terminalHold(input); // issue 57: a card-terminal sale waits for its reader
      const doc: SaleDoc = {
        ...held,
        lines,
        totalCents,
        payment: till.payment,
        ...(till.discount ? { discount: till.discount } : {}),
        ...(tendered !== undefined ? { changeCents: tendered - dueCents } : {}),
        by,
        ...authorityFields(who),
        createdAt: soldAt,
        soldAt,
        receivedAt: now,
        day: shopDay(soldAt),
        tillId: input.tillId,
        priceDiffers,
        requestHash: hash,
        returned: {},
        returns: [],
      };
      tx.create(ref, doc); // first: a duplicate racing past the read above stops here
      afterCommit = staged.write();
      if (log) appendAudit(log, actor, { action: 'sale.create', target: ref.path, changes: { ...changes, stock: { before: {}, after: {} } } }, now);
      for (const card of cards) card.write(now);
      claims.write(now);
      allowance.write();
      till.write(ref.id, input.tillId, now);
      const counted = { totalCents, giftCardCents: giftCardCentsOf(lines), giftCards: cards.length, tenders: saleTenders(doc), by, priceDiffers };
      // A held sale's takings count when Stripe reports the payment (terminal.ts), once.
      if (!held) {
        addToCounters(tx, saleCounterDelta(counted));
        addTakings(tx, doc.day, saleTakings(counted));
      }
      return { sale: toSale(ref.id, doc, codes), replayed: false };
    }, TX_OPTIONS);
  let placed: PlacedSale;
  try {
    placed = await attempt();
  } catch (error) {
    // Two requests with one saleId raced: the loser's create failed, so it answers the winner's sale.
    if (isAlreadyExists(error)) {
      const existing = await ref.get();
      countReads(1);
      if (existing.exists) return replaySale(existing, hash, codes);
      if (cardInputs.length > 0) throw cardTaken(); // another sale created a card with one of these codes meanwhile
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

export async function returnExists(returnId: string): Promise<boolean> {
  const snap = await saleReturns().doc(returnId).get();
  countReads(1);
  return snap.exists;
}

export interface PlacedReturn {
  ret: SaleReturn;
  sale: Sale;
  replayed: boolean;
}

/** The sold book line a return line names (by ISBN or book id), or undefined. */
function soldLine(sale: SaleDoc, line: SaleLineInput): StoredBookLine | undefined {
  return sale.lines.filter(isBookLine).find((sold) => (line.bookId ? sold.bookId === line.bookId : sold.isbn === line.isbn));
}

/**
 * Takes copies of a sale back at the prices they were sold for: in one transaction the copies go
 * back to stock through the book write path (a book deleted since has no stock to return to), the
 * return is stored and added to the sale, the day's refunds and the shop's counters move, and one
 * audit event records it. Never more of a book than was sold, less what earlier returns took back.
 */
export async function returnSale(actor: AuditActor & { displayName: string }, saleId: string, input: ParsedSaleReturnInput, who: TillAuthority = unlimited(actor)): Promise<PlacedReturn> {
  const saleRef = sales().doc(saleId);
  const retRef = input.returnId ? saleReturns().doc(input.returnId) : saleReturns().doc();
  const hash = hashOf({ saleId, lines: input.lines, refundMethod: input.refundMethod, ...(input.giftCardCode ? { giftCardCode: input.giftCardCode } : {}) });
  // Issue 55: store credit goes on a card whose code is the server's for this return, or one reserved for this till.
  const credit = input.refundMethod === 'store_credit' ? (input.giftCardCode ?? serverGiftCardCode(retRef.id, 'store credit')) : undefined;
  const codes = codesOf(credit ? [credit] : []);
  let afterCommit = noAfterCommit;
  const replayReturn = (sale: SaleDoc, ret: ReturnDoc): PlacedReturn => {
    const stored = sale.returns.find((r) => r.id === retRef.id);
    if (ret.saleId !== saleId || ret.requestHash !== hash || !stored) {
      throw new HttpError(422, 'This returnId was used for a different return', { code: SALE_ID_REUSED });
    }
    return { ret: toReturn(saleId, stored, codes), sale: toSale(saleId, sale), replayed: true };
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
      if ((sale.status ?? 'complete') !== 'complete') throw new HttpError(409, `This sale is ${sale.status}: only a paid sale has copies to return`, { code: SALE_NOT_PAID });

      const notSold = input.lines.filter((line) => !soldLine(sale, line));
      if (notSold.length > 0) {
        const names = notSold.map((l) => (l.isbn ? `ISBN ${l.isbn}` : `id ${l.bookId}`));
        throw new HttpError(400, `Not on this sale: ${names.join(', ')}`, { code: 'NOT_ON_SALE', isbns: notSold.filter((l) => l.isbn).map((l) => l.isbn!), bookIds: notSold.filter((l) => l.bookId).map((l) => l.bookId!) });
      }
      // At the price charged, less these copies' share of a discount (issue 57); a sale's price flags stay on the sale.
      const lines = input.lines.map((line): StoredBookLine => {
        const soldAs = soldLine(sale, line)!;
        const { priceDiffers: _flag, bookPriceCents: _price, discountCents: _discount, ...sold } = soldAs;
        const share = discountOfCopies(soldAs, sale.returned?.[sold.bookId] ?? 0, line.quantity);
        return { ...sold, quantity: line.quantity, ...(share ? { discountCents: share } : {}) };
      });
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
      // Store credit: exactly what these lines were sold for, on a new card, in this transaction.
      const totalCents = linesCents(lines) - linesDiscountCents(lines);
      if (credit && totalCents <= 0) throw new HttpError(400, 'These books were sold for nothing: there is no store credit to give', { code: 'NOTHING_TO_CREDIT' });
      // Issue 57: what a gift card paid of the sale goes back on it first, never out as money.
      const paidByCard = sale.payment.giftCard;
      const backCents = paidByCard ? Math.min(totalCents, paidByCard.cents - (sale.giftCardReturnedCents ?? 0)) : 0;
      const payingCard = backCents > 0 ? await readCardForReturn(tx, paidByCard!.id) : undefined;
      const moneyCents = totalCents - backCents;
      const claims = await claimReservedCodes(tx, input.tillId, input.giftCardCode ? [input.giftCardCode] : [], retRef.path);
      const elsewhere = sale.day !== shopDay(now) ? 'This sale was made on an earlier day' : (sale.tillId ?? DEFAULT_TILL_ID) !== input.tillId ? 'This sale was made at another till' : undefined;
      const allowance = await stageAllowance(tx, who, {
        day: shopDay(now), tillId: input.tillId, valueCents: totalCents, ...(elsewhere ? { needsApproval: `${elsewhere}: a manager must approve its return` } : {}),
      });
      const card = credit && moneyCents > 0 ? await stageGiftCardIssue(tx, credit, { amountCents: moneyCents, kind: 'store-credit', by: actor.username, saleId }) : undefined;
      const stored: StoredReturn = {
        id: retRef.id, lines, totalCents, refundMethod: input.refundMethod, by, tillId: input.tillId, ...authorityFields(who), createdAt: now, day: shopDay(now), ...(card ? { giftCard: { id: card.id, last4: card.last4 } } : {}),
        ...(payingCard ? { giftCardBack: { id: payingCard.id, last4: payingCard.last4, cents: backCents } } : {}),
      };
      const changes: Record<string, FieldChange> = {
        returnId: { before: null, after: retRef.id },
        refund: { before: null, after: stored.totalCents },
        refundMethod: { before: null, after: input.refundMethod },
        tillId: { before: null, after: input.tillId },
        ...authorityChanges(who),
        lines: { before: null, after: lines.map((l) => ({ bookId: l.bookId, quantity: l.quantity, unitPriceCents: l.unitPriceCents })) },
        ...(card ? { storeCredit: { before: null, after: { giftCardId: card.id, last4: card.last4, amountCents: moneyCents } } } : {}),
        ...(payingCard ? { giftCardBack: { before: null, after: { giftCardId: payingCard.id, last4: payingCard.last4, cents: backCents } } } : {}),
      };
      // The copies back, the return's one audit event, back-in-stock alerts: the write path's.
      const restock = bookSnaps.filter((b) => b.exists).map((book) => ({ book, stockDelta: lines.find((l) => l.bookId === book.id)!.quantity }));
      const staged = await stageBookWrites(tx, restock, { sale: saleRef.path, staff: actor, action: 'sale.return', changes }, now);
      const log = await ownAudit(tx, restock.length);
      const returned = { ...(sale.returned ?? {}) };
      for (const l of lines) returned[l.bookId] = (returned[l.bookId] ?? 0) + l.quantity;
      const cardReturned = payingCard ? { giftCardReturnedCents: (sale.giftCardReturnedCents ?? 0) + backCents } : {};
      const updated: SaleDoc = { ...sale, returned, returns: [...(sale.returns ?? []), stored], ...cardReturned };
      tx.create(retRef, {
        saleId, totalCents: stored.totalCents, refundMethod: stored.refundMethod, ...(backCents > 0 ? { giftCardBackCents: backCents } : {}), by, tillId: input.tillId, createdAt: now, day: stored.day, requestHash: hash,
      } satisfies ReturnDoc);
      tx.update(saleRef, { returned, returns: updated.returns, ...cardReturned });
      if (payingCard) giveBackToCard(tx, payingCard, backCents, saleId, now, actor.username, 'saleId');
      afterCommit = staged.write();
      if (log) appendAudit(log, actor, { action: 'sale.return', target: saleRef.path, changes: { ...changes, stock: { before: {}, after: {} } } }, now);
      card?.write(now);
      claims.write(now);
      allowance.write();
      const counted = { totalCents: stored.totalCents, refundMethod: input.refundMethod, giftCardBackCents: backCents };
      addToCounters(tx, returnCounterDelta(counted));
      addTakings(tx, stored.day, returnTakings(counted));
      return { ret: toReturn(saleId, stored, codes), sale: toSale(saleId, updated), replayed: false };
    }, TX_OPTIONS);
  let placed: PlacedReturn;
  try {
    placed = await attempt();
  } catch (error) {
    if (input.returnId && isAlreadyExists(error)) {
      const [saleSnap, retSnap] = await db().getAll(saleRef, retRef);
      countReads(2);
      if (saleSnap!.exists && retSnap!.exists) return replayReturn(saleSnap!.data() as SaleDoc, retSnap!.data() as ReturnDoc);
    }
    if (credit && isAlreadyExists(error)) throw cardTaken();
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

