import type { DeskPreorder, DeskPreordersPage, PreorderState, StoredOrderLine } from '@bookstore/contract';
import { formatPublicationDate } from '@bookstore/contract';
import { FieldPath, type DocumentSnapshot, type QueryDocumentSnapshot, type Transaction } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { runQuery, runTxQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { queued } from '../lib/mail-queue';
import { MAIL_COLLECTION, shortId, type MailDoc } from '../orders/mail';
import { orders, updateOrder } from '../orders/order-writes';
import { paragraphsHtml } from '../lib/html';

// Pre-orders (issue 41; docs/decisions/041-preorders.md). preorders/<orderId>-<bookId>: one per
// order line of a forthcoming book, 'waiting' until a copy is given to it, then 'allocated'. The
// book counts its waiting lines (`preorderWaiting`), so an order placing a pre-order and a save
// adding copies both write the book document and Firestore runs them one after the other.
//
// Copies that arrive go through the book write path (books/book-writes.ts), which calls
// readAllocation before its writes and writeAllocation with them: the oldest waiting lines of the
// book (query: bookId, state, createdAt; firestore.indexes.json) get a copy each, their order line
// and pre-order document say 'allocated', and one mail per line is queued under a deterministic id,
// all in the transaction that changes the stock. A second save reads the lines as allocated and
// the book's waiting count lowered: it allocates nothing more.

export const PREORDERS_COLLECTION = 'preorders';
/** Lines allocated in one transaction (3 writes each: the line, its order, its mail), shared among the books of a save. */
export const PREORDERS_PER_TRANSACTION = 100;

export interface PreorderDoc {
  orderId: string;
  bookId: string;
  uid: string;
  /** The order's time: the queue's order (then the id). */
  createdAt: string;
  /** 'shipped': the copy left with its order (the overview counts only waiting and allocated lines). */
  state: PreorderState | 'cancelled' | 'shipped';
  title: string;
  publishedOn?: string;
  /** The desk's order (by publication date): publishedOn, or '' for a book without one. */
  dateKey: string;
  allocatedAt?: string;
  /** Who waits, for the desk's list (lines stored before this was written have none: the list reads their orders). */
  name?: string;
  email?: string;
}

export const preorders = () => db().collection(PREORDERS_COLLECTION);
const mail = () => db().collection(MAIL_COLLECTION);

export const preorderId = (orderId: string, bookId: string) => `${orderId}-${bookId}`;
export const allocationMailId = (orderId: string, bookId: string) => `${orderId}-preorder-${bookId}`;

/** The pre-order document of a line placed now (waiting, or allocated when copies were on hand). */
export function newPreorder(orderId: string, customer: { uid: string; name: string; email: string }, createdAt: string, line: StoredOrderLine): PreorderDoc {
  return {
    orderId, bookId: line.bookId, uid: customer.uid, name: customer.name, email: customer.email, createdAt, state: line.preorder ?? 'waiting', title: line.title, dateKey: line.publishedOn ?? '',
    ...(line.publishedOn ? { publishedOn: line.publishedOn } : {}),
    ...(line.preorder === 'allocated' ? { allocatedAt: createdAt } : {}),
  };
}

/** What one book's allocation read: its oldest waiting lines and their orders. */
export interface Allocation {
  bookId: string;
  lines: QueryDocumentSnapshot[];
}

/** The oldest `limit` waiting lines of `bookId` (reads: call before the transaction's writes). */
export async function readAllocation(tx: Transaction, bookId: string, limit: number): Promise<Allocation> {
  if (limit <= 0) return { bookId, lines: [] };
  const query = preorders().where('bookId', '==', bookId).where('state', '==', 'waiting').orderBy('createdAt').orderBy(FieldPath.documentId()).limit(limit);
  return { bookId, lines: (await runTxQuery(tx, query)).docs };
}

/** Reads the orders of the lines `allocations` give a copy to (one read per order). */
export async function readAllocatedOrders(tx: Transaction, allocations: Allocation[]): Promise<Map<string, DocumentSnapshot>> {
  const ids = [...new Set(allocations.flatMap((a) => a.lines.map((l) => (l.data() as PreorderDoc).orderId)))];
  const snaps = ids.length ? await tx.getAll(...ids.map((id) => orders().doc(id))) : [];
  countReads(snaps.length);
  return new Map(snaps.map((s) => [s.id, s]));
}

interface MailableOrder {
  name: string;
  email: string;
  items?: StoredOrderLine[];
}

function allocationMail(orderId: string, order: MailableOrder, line: PreorderDoc): MailDoc {
  const headline = 'Your pre-order has arrived';
  const text = [
    `Hello ${order.name},`,
    '',
    `${headline}. Order ${shortId(orderId)}:`,
    `- ${line.title}${line.publishedOn ? ` (published ${formatPublicationDate(line.publishedOn)})` : ''}`,
    '',
    'A copy is set aside for you; we send it with the rest of your order.',
  ].join('\n');
  const html = paragraphsHtml(text);
  return { to: order.email, message: { subject: `${headline}: ${line.title} (order ${shortId(orderId)})`, text, html } };
}

/**
 * Writes what readAllocation read (after the transaction's reads): each line allocated, its order's
 * line marked, one mail per line. An order no longer there (or cancelled: its lines are no longer
 * waiting) is skipped. Returns how many copies each book gave.
 */
export function writeAllocation(tx: Transaction, allocations: Allocation[], orderSnaps: Map<string, DocumentSnapshot>, at: string): void {
  const updatedOrders = new Map<string, MailableOrder & { items: StoredOrderLine[] }>();
  for (const allocation of allocations) {
    for (const snap of allocation.lines) {
      const line = snap.data() as PreorderDoc;
      tx.update(snap.ref, { state: 'allocated', allocatedAt: at });
      const order = updatedOrders.get(line.orderId) ?? (orderSnaps.get(line.orderId)?.data() as (MailableOrder & { items: StoredOrderLine[] }) | undefined);
      if (!order) continue;
      const items = order.items.map((l) => (l.bookId === line.bookId && l.preorder === 'waiting' ? { ...l, preorder: 'allocated' as const } : l));
      updatedOrders.set(line.orderId, { ...order, items });
      tx.create(mail().doc(allocationMailId(line.orderId, line.bookId)), queued(allocationMail(line.orderId, order, line)));
    }
  }
  for (const [orderId, order] of updatedOrders) updateOrder(tx, orders().doc(orderId), { items: order.items, updatedAt: at });
}

/** A cancelled (or refused) order's pre-order lines leave the queue and the desk's list; their books' counts move through the write path. */
export function cancelPreorderLines(tx: Transaction, orderId: string, lines: readonly StoredOrderLine[]): void {
  for (const l of lines) if (l.preorder) tx.update(preorders().doc(preorderId(orderId, l.bookId)), { state: 'cancelled' });
}

/** Pre-order lines whose copies leave with a shipment (or a collection): out of the overview's count of copies set aside. */
export function shipPreorderLines(tx: Transaction, orderId: string, lines: readonly StoredOrderLine[]): void {
  for (const l of lines) if (l.preorder === 'allocated') tx.update(preorders().doc(preorderId(orderId, l.bookId)), { state: 'shipped' });
}

const encode = (d: PreorderDoc, id: string) => Buffer.from(JSON.stringify([d.dateKey, d.createdAt, id])).toString('base64url');
function decode(cursor: string): [string, string, string] {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'string')) return v as [string, string, string];
  } catch {
    /* fall through */
  }
  throw new HttpError(400, 'cursor is not valid');
}

/** The desk's pre-order lines in one state (waiting by default), by publication date, then oldest first: one query a page. */
export async function deskPreorders(state: 'waiting' | 'allocated', limit: number, cursor?: string): Promise<DeskPreordersPage> {
  let query = preorders().where('state', '==', state).orderBy('dateKey').orderBy('createdAt').orderBy(FieldPath.documentId());
  if (cursor) query = query.startAfter(...decode(cursor));
  const snap = await runQuery(query.limit(limit));
  const lines = snap.docs.map((d) => d.data() as PreorderDoc);
  // Lines stored before they carried the customer: their orders, one batched read (at most a page).
  const missing = [...new Set(lines.filter((p) => !p.email).map((p) => p.orderId))];
  const orderSnaps = missing.length ? await db().getAll(...missing.map((id) => orders().doc(id))) : [];
  countReads(orderSnaps.length);
  const who = new Map(orderSnaps.map((o) => [o.id, o.exists ? { name: String(o.get('name') ?? ''), email: String(o.get('email') ?? '') } : null]));
  const list = lines.map((p): DeskPreorder => ({
    orderId: p.orderId, bookId: p.bookId, title: p.title, state: p.state, createdAt: p.createdAt, quantity: 1,
    customer: p.email ? { name: p.name ?? '', email: p.email } : (who.get(p.orderId) ?? null),
    ...(p.publishedOn ? { publishedOn: p.publishedOn } : {}),
  }));
  const last = snap.docs[snap.docs.length - 1];
  return { preorders: list, nextCursor: last && snap.size === limit ? encode(last.data() as PreorderDoc, last.id) : null };
}
