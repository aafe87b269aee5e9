import { createHash, randomBytes } from 'node:crypto';
import { STOCK_ALERT_IN_STOCK } from '@bookstore/contract';
import { FieldPath, type QueryDocumentSnapshot, type Transaction } from 'firebase-admin/firestore';
import { logger } from 'firebase-functions/logger';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { runCount, runQuery, runTxQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { queued } from '../lib/mail-queue';
import { MAIL_COLLECTION } from '../orders/mail';
import { siteOrigin } from '../pages/site-origin';
import { restockMail } from './subscription-mail';

// Back-in-stock alerts (issue 28; why it runs inside the restocking transactions and not in a
// Firestore trigger: docs/decisions/028-restock-alerts-and-mail-links.md).
//
// stockAlerts/<bookId>_<emailKey>: one per book and address, created only while the book's stock is
// 0 (read in the same transaction). Every write that takes a book's stock from 0 to more reads the
// book's alerts (readAlertsToRelease, before its writes) and, in the same transaction, queues one
// mail per alert and deletes it (releaseAlerts). Mail and deletion commit together or not at all,
// so each subscription yields exactly one mail however often a restock is repeated, retried or
// raced. Every path that raises stock goes through the book write path (books/book-writes.ts),
// which does this for it: in its transaction for a few books, after the commit for many.

export const STOCK_ALERTS_COLLECTION = 'stockAlerts';
export const MAIL_SUPPRESSIONS_COLLECTION = 'mailSuppressions';
/** Alerts released inside one restocking transaction (2 writes each); more are drained in further transactions. */
export const ALERTS_PER_TRANSACTION = 100;

export interface StockAlertDoc {
  bookId: string;
  email: string;
  /** emailKey(email): finds an address's alerts when it unsubscribes. */
  emailKey: string;
  uid?: string;
  /** Random, per subscription: the mail's id, so a later subscription of the same address gets its own mail. */
  nonce: string;
  createdAt: string;
  /** The signed link that stops back-in-stock mail to this address (signed when subscribing: releasing needs no secret). */
  unsubscribeUrl: string;
}

const alerts = () => db().collection(STOCK_ALERTS_COLLECTION);
const suppressions = () => db().collection(MAIL_SUPPRESSIONS_COLLECTION);
const mail = () => db().collection(MAIL_COLLECTION);
// Not books.repo's books(): books.repo imports this module.
const bookRef = (id: string) => db().collection('books').doc(id);

/** A stable, non-reversible key of a normalised address (document ids, rate limits). */
export const emailKey = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);

export const alertMailId = (alertId: string, nonce: string) => `stock-alert-${alertId}-${nonce}`;

export type SubscribeOutcome = 'created' | 'already-waiting' | 'suppressed';

/**
 * Waits for `bookId`'s restock at `email`. 404 for an unknown book, 409 IN_STOCK while it has
 * copies. An address already waiting, or one that asked for no more alerts, changes nothing; the
 * caller answers the same either way.
 */
export async function subscribe(input: { bookId: string; email: string; uid?: string; unsubscribeUrl: string }): Promise<SubscribeOutcome> {
  const email = input.email.trim().toLowerCase();
  const key = emailKey(email);
  const ref = alerts().doc(`${input.bookId}_${key}`);
  return db().runTransaction(async (tx) => {
    const [book, existing, suppressed] = await tx.getAll(bookRef(input.bookId), ref, suppressions().doc(key));
    countReads(3);
    if (!book!.exists) throw new HttpError(404, 'Book not found');
    if (((book!.data() as { stock?: number }).stock ?? 0) > 0) {
      throw new HttpError(409, STOCK_ALERT_IN_STOCK, { code: 'IN_STOCK' });
    }
    if ((suppressed!.data() as { stockAlerts?: boolean } | undefined)?.stockAlerts) return 'suppressed';
    if (existing!.exists) return 'already-waiting';
    const doc: StockAlertDoc = {
      bookId: input.bookId,
      email,
      emailKey: key,
      ...(input.uid ? { uid: input.uid } : {}),
      nonce: randomBytes(8).toString('hex'),
      createdAt: new Date().toISOString(),
      unsubscribeUrl: input.unsubscribeUrl,
    };
    tx.create(ref, doc);
    return 'created';
  });
}

/**
 * Inside a transaction that moves a book's stock from `before` to `after`, and before its writes:
 * the alerts to release (none unless the stock goes from 0 to more).
 */
export async function readAlertsToRelease(tx: Transaction, bookId: string, before: number, after: number, limit = ALERTS_PER_TRANSACTION): Promise<QueryDocumentSnapshot[]> {
  if (!(before <= 0 && after > 0)) return [];
  return (await runTxQuery(tx, alerts().where('bookId', '==', bookId).limit(limit))).docs;
}

/**
 * In the same transaction, after its reads: one mail per alert, and the alert deleted. Returns
 * true when the batch was full (more may wait: call drainAlerts after the commit).
 */
export function releaseAlerts(tx: Transaction, book: { id: string; title: string }, docs: QueryDocumentSnapshot[], limit = ALERTS_PER_TRANSACTION): boolean {
  const bookUrl = `${siteOrigin()}/books/${encodeURIComponent(book.id)}`;
  for (const snap of docs) {
    const alert = snap.data() as StockAlertDoc;
    // set, not create: an id can only repeat if this very alert was already released, which the
    // transaction rules out (it read the alert, which a release deletes).
    tx.set(mail().doc(alertMailId(snap.id, alert.nonce)), queued(restockMail({ to: alert.email, title: book.title, bookUrl, unsubscribeUrl: alert.unsubscribeUrl })));
    tx.delete(snap.ref);
  }
  return docs.length >= limit;
}

/**
 * Releases every alert still waiting for a book that has copies, one transaction per batch (each
 * re-reads the book's stock). For batches beyond the restock's own, and for the import, whose
 * batched writes are not transactions. Never throws: a failure is logged and the alerts wait for
 * the next restock or drain.
 */
export async function drainAlerts(bookId: string): Promise<number> {
  let released = 0;
  try {
    for (let round = 0; round < 1000; round++) {
      const { count, more } = await db().runTransaction(async (tx) => {
        const book = await tx.get(bookRef(bookId));
        countReads(1);
        const data = book.data() as { stock?: number; title?: string } | undefined;
        if (!data || (data.stock ?? 0) <= 0) return { count: 0, more: false };
        const docs = await readAlertsToRelease(tx, bookId, 0, data.stock ?? 0);
        return { count: docs.length, more: releaseAlerts(tx, { id: bookId, title: data.title ?? 'A book' }, docs) };
      });
      released += count;
      if (!more) break;
    }
  } catch (error) {
    logger.error('Back-in-stock alerts not released; they wait for the next restock', { bookId, error: String(error) });
  }
  return released;
}

/** Of `bookIds`, those with at least one alert waiting: one `in` query per 30 ids. */
export async function booksWithAlerts(bookIds: string[]): Promise<string[]> {
  const unique = [...new Set(bookIds)];
  const found = new Set<string>();
  for (let i = 0; i < unique.length; i += 30) {
    const part = unique.slice(i, i + 30);
    const snap = await runQuery(alerts().where('bookId', 'in', part).select('bookId'));
    snap.docs.forEach((d) => found.add(d.get('bookId') as string));
  }
  return [...found];
}

/**
 * After a write that brought more books back in stock (0 -> more) than its transaction releases
 * alerts for (the book write path's INLINE_RESTOCKS): releases theirs.
 */
export async function releaseRestocked(bookIds: string[]): Promise<void> {
  if (bookIds.length === 0) return;
  for (const id of await booksWithAlerts(bookIds)) await drainAlerts(id);
}

/** How many addresses wait for a book (the admin's book page): one count aggregation. */
export async function countWaiting(bookId: string): Promise<number> {
  return runCount(alerts().where('bookId', '==', bookId));
}

/**
 * The address asked for no more back-in-stock mail: remembered (a later request for it is answered
 * as usual and stored nowhere), and its waiting alerts deleted.
 */
export async function suppressAlerts(email: string): Promise<void> {
  const key = emailKey(email);
  await suppressions().doc(key).set({ stockAlerts: true, at: new Date().toISOString() }, { merge: true });
  for (;;) {
    const snap = await runQuery(alerts().where('emailKey', '==', key).orderBy(FieldPath.documentId()).limit(400));
    if (snap.empty) break;
    const batch = db().batch();
    snap.docs.forEach((d) => batch.delete(d.ref));
    await batch.commit();
    if (snap.size < 400) break;
  }
}

/** The checks `subscribe` makes of the book, without storing anything (an address over its limit). */
export async function assertWaitable(bookId: string): Promise<void> {
  const book = await bookRef(bookId).get();
  countReads(1);
  if (!book.exists) throw new HttpError(404, 'Book not found');
  if (((book.data() as { stock?: number }).stock ?? 0) > 0) throw new HttpError(409, STOCK_ALERT_IN_STOCK, { code: 'IN_STOCK' });
}
