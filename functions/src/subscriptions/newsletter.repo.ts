import { randomBytes } from 'node:crypto';
import { FieldPath, type QueryDocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { queued } from '../lib/mail-queue';
import { MAIL_COLLECTION, type MailDoc } from '../orders/mail';
import { emailKey } from './stock-alerts.repo';

// The newsletter's list, with double opt-in (issue 28): newsletter/<emailKey> is `pending` from a
// sign-up until the mailed link confirms it (`confirmed`); only confirmed addresses are exported.
// Unsubscribing deletes the document. Server-only (firestore.rules).

export const NEWSLETTER_COLLECTION = 'newsletter';

export interface NewsletterDoc {
  email: string;
  status: 'pending' | 'confirmed';
  /** The current confirmation link's nonce: a link mailed before an unsubscription confirms nothing. */
  nonce: string;
  requestedAt: string;
  confirmedAt?: string;
}

const list = () => db().collection(NEWSLETTER_COLLECTION);
const mail = () => db().collection(MAIL_COLLECTION);

/**
 * A sign-up: a pending entry (its nonce kept if one is pending already, so every link mailed stays
 * good) and the confirmation mail built by `compose(nonce)`, in one transaction. An address already
 * confirmed gets nothing (the caller answers the same).
 */
export async function requestSubscription(email: string, compose: (nonce: string) => MailDoc): Promise<'mailed' | 'already-confirmed'> {
  const normalised = email.trim().toLowerCase();
  const key = emailKey(normalised);
  const ref = list().doc(key);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    const stored = snap.data() as NewsletterDoc | undefined;
    if (stored?.status === 'confirmed') return 'already-confirmed';
    const now = new Date();
    const nonce = stored?.nonce ?? randomBytes(12).toString('base64url');
    tx.set(ref, { email: normalised, status: 'pending', nonce, requestedAt: now.toISOString() } satisfies NewsletterDoc);
    tx.create(mail().doc(`newsletter-confirm-${key}-${now.getTime()}`), queued(compose(nonce)));
    return 'mailed';
  });
}

/** Confirms a pending entry whose nonce the link carries; false if there is none (unsubscribed since, or a stale link). */
export async function confirmSubscription(email: string, nonce: string): Promise<boolean> {
  const ref = list().doc(emailKey(email));
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    const stored = snap.data() as NewsletterDoc | undefined;
    if (!stored || stored.nonce !== nonce) return false;
    if (stored.status !== 'confirmed') tx.update(ref, { status: 'confirmed', confirmedAt: new Date().toISOString() });
    return true;
  });
}

export async function removeSubscription(email: string): Promise<void> {
  await list().doc(emailKey(email)).delete();
}

export const EXPORT_PAGE = 500;

/** Confirmed addresses, a page at a time in document order (one query each: `status ==` on its single-field index). */
export async function* confirmedSubscribers(pageSize = EXPORT_PAGE): AsyncGenerator<NewsletterDoc[]> {
  let after: QueryDocumentSnapshot | undefined;
  for (;;) {
    let query = list().where('status', '==', 'confirmed').orderBy(FieldPath.documentId()).limit(pageSize);
    if (after) query = query.startAfter(after);
    const snap = await runQuery(query);
    if (snap.empty) return;
    yield snap.docs.map((d) => d.data() as NewsletterDoc);
    if (snap.size < pageSize) return;
    after = snap.docs[snap.size - 1];
  }
}
