import {
  fromCents, shopDay, type PettyCashEntry, type PettyCashKind, type Shift, type ShiftFigures,
} from '@bookstore/contract';
import { appendAudit, logChainHead, openAudit, type AuditActor } from '../admin/audit.repo';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { runPagedQuery, runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { busy, TX_OPTIONS } from '../lib/transactions';
import { noTenders, saleTenders, type StoredSalePayment } from '../sales/till-payment';

// Shifts at the till (issue 57; contract/src/shift.ts). shifts/<id> holds a shift; tills/<tillId>
// names its open shift, so a transaction on it lets one shift at a time be open per till (a second
// open, or two at once, gets 409). A shift's figures are read from what the till recorded while it
// was open: its sales and counter returns (their `tillId` and the time the till made them,
// `createdAt`), and the shift's own pay-ins and pay-outs. The cost of reading them grows with the
// shift's own trade, never with the shop's history. Closing keeps the figures as they were then,
// with the count and the variance, and appends one audit event.

const shifts = () => db().collection('shifts');
const tills = () => db().collection('tills');

interface StoredShift {
  tillId: string;
  status: 'open' | 'closed';
  floatCents: number;
  openedAt: string;
  openedBy: string;
  /** The shop's day it was opened on: the day's Z-report. */
  day: string;
  pettyCash: (Omit<PettyCashEntry, 'amount'> & { cents: number })[];
  closedAt?: string;
  closedBy?: string;
  countedCents?: number;
  /** The figures as closed (cents): expected, by method. */
  closed?: FiguresCents;
}

interface FiguresCents {
  salesCount: number;
  salesByMethod: Record<string, number>;
  refundsCount: number;
  refundsByMethod: Record<string, number>;
  payInCents: number;
  payOutCents: number;
  expectedCents: number;
}

const notFound = () => new HttpError(404, 'Shift not found');
const shiftClosed = () => new HttpError(409, 'This shift is closed already', { code: 'SHIFT_CLOSED' });

const add = (into: Record<string, number>, key: string, cents: number) => {
  into[key] = (into[key] ?? 0) + cents;
};

/** What the till recorded between the shift's opening and `until`, in cents (no petty cash yet). */
async function tradeOf(shift: StoredShift, until: string): Promise<Omit<FiguresCents, 'payInCents' | 'payOutCents' | 'expectedCents'>> {
  const window = (collection: string) => db().collection(collection).where('tillId', '==', shift.tillId).where('createdAt', '>=', shift.openedAt).where('createdAt', '<=', until);
  const [sales, returns] = await Promise.all([runPagedQuery(window('sales'), 'createdAt'), runPagedQuery(window('saleReturns'), 'createdAt')]);
  const salesByMethod: Record<string, number> = noTenders();
  const refundsByMethod: Record<string, number> = { ...noTenders(), store_credit: 0 };
  let salesCount = 0;
  for (const doc of sales) {
    const sale = doc.data() as { status?: string; totalCents: number; payment: StoredSalePayment };
    // A card-terminal sale still waiting for the reader, or failed, took nothing.
    if (sale.status !== undefined && sale.status !== 'complete') continue;
    salesCount += 1;
    // Issue 57: a gift card's part apart from the cash or card that paid the rest.
    for (const [method, cents] of Object.entries(saleTenders(sale))) add(salesByMethod, method, cents);
  }
  for (const doc of returns) {
    const back = doc.data() as { totalCents: number; refundMethod: string; giftCardBackCents?: number };
    const onCard = back.giftCardBackCents ?? 0;
    add(refundsByMethod, back.refundMethod, back.totalCents - onCard);
    if (onCard > 0) add(refundsByMethod, 'gift_card', onCard);
  }
  return { salesCount, salesByMethod, refundsCount: returns.length, refundsByMethod };
}

/** The trade plus the shift's petty cash, and the cash the drawer should hold. */
function withCash(shift: StoredShift, trade: Awaited<ReturnType<typeof tradeOf>>): FiguresCents {
  const pay = (kind: PettyCashKind) => shift.pettyCash.filter((p) => p.kind === kind).reduce((sum, p) => sum + p.cents, 0);
  const payInCents = pay('pay_in');
  const payOutCents = pay('pay_out');
  return {
    ...trade, payInCents, payOutCents,
    expectedCents: shift.floatCents + (trade.salesByMethod.cash ?? 0) - (trade.refundsByMethod.cash ?? 0) + payInCents - payOutCents,
  };
}

const figuresOf = async (shift: StoredShift, until: string) => withCash(shift, await tradeOf(shift, until));

const dollars = (byMethod: Record<string, number>) => Object.fromEntries(Object.entries(byMethod).map(([k, v]) => [k, fromCents(v)]));

function toShift(id: string, doc: StoredShift, figures: FiguresCents): Shift {
  const f: ShiftFigures = {
    sales: { count: figures.salesCount, byMethod: dollars(figures.salesByMethod) },
    refunds: { count: figures.refundsCount, byMethod: dollars(figures.refundsByMethod) },
    payIns: fromCents(figures.payInCents), payOuts: fromCents(figures.payOutCents), expected: fromCents(figures.expectedCents),
  };
  return {
    _id: id, tillId: doc.tillId, status: doc.status, float: fromCents(doc.floatCents), openedAt: doc.openedAt, openedBy: doc.openedBy,
    pettyCash: doc.pettyCash.map(({ cents, ...p }) => ({ ...p, amount: fromCents(cents) })), figures: f,
    ...(doc.status === 'closed' ? {
      closedAt: doc.closedAt, closedBy: doc.closedBy, counted: fromCents(doc.countedCents ?? 0),
      variance: fromCents((doc.countedCents ?? 0) - figures.expectedCents),
    } : {}),
  };
}

/** A shift with its figures: as closed, or as of now while open. */
async function answer(id: string, doc: StoredShift): Promise<Shift> {
  return toShift(id, doc, doc.closed ?? (await figuresOf(doc, new Date().toISOString())));
}

export async function openShift(actor: AuditActor, tillId: string, floatCents: number): Promise<Shift> {
  const ref = shifts().doc();
  const tillRef = tills().doc(tillId);
  const now = new Date().toISOString();
  const doc: StoredShift = { tillId, status: 'open', floatCents, openedAt: now, openedBy: actor.username, day: shopDay(now), pettyCash: [] };
  const head = await db().runTransaction(async (tx) => {
    const till = await tx.get(tillRef);
    countReads(1);
    const open = till.get('openShiftId') as string | null | undefined;
    if (open) throw new HttpError(409, `Till ${tillId} has a shift open already: close it first`, { code: 'SHIFT_ALREADY_OPEN', details: { shiftId: [open] } });
    const log = await openAudit(tx);
    tx.set(tillRef, { openShiftId: ref.id, updatedAt: now });
    tx.create(ref, doc);
    appendAudit(log, actor, { action: 'shift.open', target: `shifts/${ref.id}`, changes: { tillId: { before: null, after: tillId }, float: { before: null, after: fromCents(floatCents) } } }, now);
    return log.head;
  }, TX_OPTIONS).catch(busy);
  logChainHead(head);
  return toShift(ref.id, doc, withCash(doc, { salesCount: 0, salesByMethod: { cash: 0, card_terminal: 0 }, refundsCount: 0, refundsByMethod: { cash: 0, card_terminal: 0, store_credit: 0 } }));
}

export async function getShift(id: string): Promise<Shift | null> {
  const snap = await shifts().doc(id).get();
  countReads(1);
  return snap.exists ? answer(id, snap.data() as StoredShift) : null;
}

/** The open shift of a till, or null. */
export async function openShiftOf(tillId: string): Promise<Shift | null> {
  const till = await tills().doc(tillId).get();
  countReads(1);
  const id = till.get('openShiftId') as string | null | undefined;
  return id ? getShift(id) : null;
}

export async function addPettyCash(actor: AuditActor, id: string, entry: { kind: PettyCashKind; amount: number; reason: string }): Promise<Shift> {
  const ref = shifts().doc(id);
  const now = new Date().toISOString();
  let stored: StoredShift | undefined;
  const head = await db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    stored = snap.data() as StoredShift | undefined;
    if (!stored) throw notFound();
    if (stored.status !== 'open') throw shiftClosed();
    const log = await openAudit(tx);
    const item = { kind: entry.kind, cents: entry.amount, reason: entry.reason, at: now, by: actor.username };
    stored = { ...stored, pettyCash: [...stored.pettyCash, item] };
    tx.update(ref, { pettyCash: stored.pettyCash });
    appendAudit(log, actor, {
      action: entry.kind === 'pay_in' ? 'shift.pay-in' : 'shift.pay-out', target: `shifts/${id}`,
      changes: { amount: { before: null, after: fromCents(entry.amount) }, reason: { before: null, after: entry.reason } },
    }, now);
    return log.head;
  }, TX_OPTIONS).catch(busy);
  logChainHead(head);
  return answer(id, stored!);
}

/**
 * Closes a shift: its figures up to now, the count, the variance; the till free for the next shift.
 * The sales and returns are read just before the transaction (a sale made in that moment would be
 * missed: the till closes its shift after its last sale); the petty cash is the stored shift's.
 */
export async function closeShift(actor: AuditActor, id: string, countedCents: number): Promise<Shift> {
  const ref = shifts().doc(id);
  const first = await ref.get();
  countReads(1);
  const before = first.data() as StoredShift | undefined;
  if (!before) throw notFound();
  if (before.status !== 'open') throw shiftClosed();
  const now = new Date().toISOString();
  const trade = await tradeOf(before, now);
  let closed: StoredShift | undefined;
  const head = await db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    const stored = snap.data() as StoredShift;
    if (stored.status !== 'open') throw shiftClosed();
    const final = withCash(stored, trade); // its petty cash as stored now
    const log = await openAudit(tx);
    closed = { ...stored, status: 'closed', closedAt: now, closedBy: actor.username, countedCents, closed: final };
    tx.set(ref, closed);
    tx.set(tills().doc(stored.tillId), { openShiftId: null, updatedAt: now });
    appendAudit(log, actor, {
      action: 'shift.close', target: `shifts/${id}`,
      changes: {
        expected: { before: null, after: fromCents(final.expectedCents) }, counted: { before: null, after: fromCents(countedCents) },
        variance: { before: null, after: fromCents(countedCents - final.expectedCents) },
      },
    }, now);
    return log.head;
  }, TX_OPTIONS).catch(busy);
  logChainHead(head);
  return toShift(id, closed!, closed!.closed!);
}

/** The shifts opened on a shop day (a till opens a few a day: at most 100 answered), each with its figures. */
export async function shiftsOfDay(day: string, tillId?: string): Promise<Shift[]> {
  let query = shifts().where('day', '==', day);
  if (tillId) query = query.where('tillId', '==', tillId);
  const snap = await runQuery(query.orderBy('openedAt').limit(100));
  return Promise.all(snap.docs.map((d) => answer(d.id, d.data() as StoredShift)));
}
