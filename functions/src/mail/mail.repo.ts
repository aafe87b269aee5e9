import type { FailedMail, FailedMailPage, FailedMailQuery, MailState } from '@bookstore/contract';
import { FieldValue, Timestamp, type Query } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { MAIL_COLLECTION, type MailDoc } from '../lib/mail-queue';
import { runQuery } from '../lib/queries';

// The mail documents' delivery record, in the Trigger Email extension's fields (decision 037):
// delivery.{state, attempts, startTime, endTime, leaseExpireTime, error, info}. Only this module
// and the queue's writers (lib/mail-queue.ts) touch `mail`.

const mail = () => db().collection(MAIL_COLLECTION);

interface StoredDelivery {
  state?: MailState;
  attempts?: number;
  startTime?: Timestamp | null;
  endTime?: Timestamp | null;
  leaseExpireTime?: Timestamp | null;
  error?: string | null;
}

interface StoredMail extends Partial<MailDoc> {
  delivery?: StoredDelivery;
}

/** What a claim found: the mail to send (this instance holds it), or why nothing is to be sent. */
export type Claim =
  | { claimed: true; mail: MailDoc }
  | { claimed: false; reason: 'missing' | 'invalid' | 'taken' | 'done' | 'lease-expired'; state?: MailState };

/** A mail document a sender can use: an address and a subject with a text or html body. */
function sendable(data: StoredMail): MailDoc | null {
  const { to, message } = data;
  if (typeof to !== 'string' || !to.trim() || !message || typeof message.subject !== 'string') return null;
  if (typeof message.text !== 'string' && typeof message.html !== 'string') return null;
  return { to, message: { subject: message.subject, text: message.text ?? '', html: message.html ?? '' } };
}

/**
 * Takes the mail for this instance, in a transaction: PENDING (or no delivery yet) becomes
 * PROCESSING with a lease, so a second delivery of the same event (Eventarc delivers at least
 * once) finds it taken and sends nothing. A PROCESSING mail whose lease ran out belonged to an
 * instance that died mid-send: it may have gone out, so it is marked ERROR, never sent again
 * (the extension does the same). A document that cannot be sent is marked ERROR at once.
 */
export async function claimMail(id: string, leaseMs: number, now = Date.now()): Promise<Claim> {
  const ref = mail().doc(id);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (!snap.exists) return { claimed: false, reason: 'missing' } as const;
    const data = snap.data() as StoredMail;
    const state = data.delivery?.state ?? 'PENDING';
    if (state === 'PROCESSING') {
      const lease = data.delivery?.leaseExpireTime?.toMillis() ?? 0;
      if (lease > now) return { claimed: false, reason: 'taken', state } as const;
      tx.update(ref, { 'delivery.state': 'ERROR', 'delivery.error': 'Message processing lease expired.', 'delivery.endTime': FieldValue.serverTimestamp(), 'delivery.leaseExpireTime': null });
      return { claimed: false, reason: 'lease-expired', state } as const;
    }
    if (state !== 'PENDING') return { claimed: false, reason: 'done', state } as const;
    const message = sendable(data);
    if (!message) {
      tx.update(ref, { delivery: { ...data.delivery, state: 'ERROR', attempts: 0, error: 'Not a mail: it needs `to` and `message.subject` with `message.text` or `message.html`.', endTime: FieldValue.serverTimestamp(), leaseExpireTime: null } });
      return { claimed: false, reason: 'invalid' } as const;
    }
    tx.update(ref, {
      'delivery.state': 'PROCESSING',
      'delivery.attempts': data.delivery?.attempts ?? 0,
      'delivery.startTime': data.delivery?.startTime ?? FieldValue.serverTimestamp(),
      'delivery.leaseExpireTime': Timestamp.fromMillis(now + leaseMs),
      'delivery.error': null,
    });
    return { claimed: true, mail: message } as const;
  });
}

/** A try that failed and will be tried again: the count and the error so far, still PROCESSING. */
export async function recordRetry(id: string, attempts: number, error: string): Promise<void> {
  await mail().doc(id).update({ 'delivery.attempts': attempts, 'delivery.error': error });
}

/** What the SMTP server answered (nodemailer's info), as the extension records it. */
export interface SentInfo {
  messageId: string | null;
  accepted: string[];
  rejected: string[];
  pending: string[];
  response: string | null;
}

export async function recordSuccess(id: string, attempts: number, info: SentInfo): Promise<void> {
  await mail().doc(id).update({
    'delivery.state': 'SUCCESS', 'delivery.attempts': attempts, 'delivery.error': null, 'delivery.info': info,
    'delivery.endTime': FieldValue.serverTimestamp(), 'delivery.leaseExpireTime': null,
  });
}

export async function recordFailure(id: string, attempts: number, error: string): Promise<void> {
  await mail().doc(id).update({
    'delivery.state': 'ERROR', 'delivery.attempts': attempts, 'delivery.error': error,
    'delivery.endTime': FieldValue.serverTimestamp(), 'delivery.leaseExpireTime': null,
  });
}

// Cursor: url-safe base64 of [seconds, nanoseconds, id] of the page's last mail (endTime to the
// nanosecond, so two failures within a millisecond never skip one another).
function encodeCursor(at: Timestamp, id: string): string {
  return Buffer.from(JSON.stringify([at.seconds, at.nanoseconds, id])).toString('base64url');
}

function decodeCursor(token: string): [Timestamp, string] {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 3) {
      const [seconds, nanos, id] = value as unknown[];
      if (Number.isSafeInteger(seconds) && Number.isInteger(nanos) && (nanos as number) >= 0 && (nanos as number) < 1e9 && typeof id === 'string' && id.length > 0 && id.length < 1500 && !id.includes('/')) {
        return [new Timestamp(seconds as number, nanos as number), id];
      }
    }
  } catch {
    /* answered below */
  }
  throw new HttpError(400, 'cursor is not valid', { details: { cursor: ['cursor is not valid'] } });
}

const iso = (t: Timestamp | null | undefined) => (t ? t.toDate().toISOString() : null);

/** Mail that ended in ERROR, the latest failure first (composite index: delivery.state, delivery.endTime). */
export async function failedMailPage(query: FailedMailQuery): Promise<FailedMailPage> {
  let q: Query = mail().where('delivery.state', '==', 'ERROR').orderBy('delivery.endTime', 'desc').orderBy('__name__', 'desc');
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  if (after) q = q.startAfter(after[0], mail().doc(after[1]));
  const snap = await runQuery(q.limit(query.limit + 1));
  const docs = snap.docs.slice(0, query.limit);
  const page: FailedMail[] = docs.map((doc) => {
    const data = doc.data() as StoredMail;
    return {
      id: doc.id,
      to: typeof data.to === 'string' ? data.to : '',
      subject: typeof data.message?.subject === 'string' ? data.message.subject : '',
      attempts: data.delivery?.attempts ?? 0,
      error: data.delivery?.error ?? '',
      queuedAt: iso(data.delivery?.startTime),
      failedAt: iso(data.delivery?.endTime),
    };
  });
  const last = docs[docs.length - 1];
  const lastEnd = last && (last.data() as StoredMail).delivery?.endTime;
  return { mail: page, nextCursor: snap.docs.length > query.limit && last && lastEnd ? encodeCursor(lastEnd, last.id) : null };
}
