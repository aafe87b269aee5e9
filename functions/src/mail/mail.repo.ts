import { randomUUID } from 'node:crypto';
import { MAX_MAIL_ATTEMPTS, type FailedMail, type FailedMailPage, type FailedMailQuery, type MailState, type ResendMailResult, type WaitingMail, type WaitingMailPage, type WaitingMailQuery } from '@bookstore/contract';
import { FieldValue, Timestamp, type Query } from 'firebase-admin/firestore';
import { appendAudit, logChainHead, openAudit, type AuditActor } from '../admin/audit.repo';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { MAIL_COLLECTION, mailExpiry, type MailDoc } from '../lib/mail-queue';
import { runQuery } from '../lib/queries';

// The mail documents' delivery record, in the Trigger Email extension's fields (decision 037):
// delivery.{state, attempts, startTime, endTime, leaseExpireTime, error, info}, plus ours for
// retries (issue 58): nextAttemptAt, claim, resentAt, resentBy. Only this module and the queue's
// writers (lib/mail-queue.ts) touch `mail`.

const mail = () => db().collection(MAIL_COLLECTION);

interface StoredDelivery {
  state?: MailState;
  attempts?: number;
  startTime?: Timestamp | null;
  endTime?: Timestamp | null;
  leaseExpireTime?: Timestamp | null;
  /** When the sweeper takes the mail: a RETRY's next try, a PENDING's grace, a PROCESSING's lease end; null once SUCCESS or ERROR. */
  nextAttemptAt?: Timestamp | null;
  /** The claim that holds the mail while PROCESSING: only its holder records the outcome. */
  claim?: string | null;
  error?: string | null;
}

interface StoredMail extends Partial<MailDoc> {
  delivery?: StoredDelivery;
}

/** What a claim found: the mail to send (this sender holds it; `attempts` counts this try), or why nothing is to be sent. */
export type Claim =
  | { claimed: true; mail: MailDoc; token: string; attempts: number; state: MailState }
  | { claimed: false; reason: 'missing' | 'invalid' | 'taken' | 'done' | 'not-due' | 'lease-expired'; state?: MailState };

/** A mail document a sender can use: an address and a subject with a text or html body. */
function sendable(data: StoredMail): MailDoc | null {
  const { to, message } = data;
  if (typeof to !== 'string' || !to.trim() || !message || typeof message.subject !== 'string') return null;
  if (typeof message.text !== 'string' && typeof message.html !== 'string') return null;
  return { to, message: { subject: message.subject, text: message.text ?? '', html: message.html ?? '' } };
}

/**
 * Takes the mail for this sender, in a transaction, so that one sender at a time tries it whatever
 * runs at once (Eventarc's redeliveries, the sweeper, the trigger's own sweep): PENDING, a RETRY
 * that is due, or a PROCESSING whose lease ran out becomes PROCESSING under a new lease and claim.
 * A lease runs out only when its sender died mid-try (a try is bounded well within it): the mail
 * is tried again, which may send a second copy if the dead try had gone out; we prefer that to a
 * lost mail (issue 58; decision 037). A document that cannot be sent is marked ERROR at once.
 */
export async function claimMail(id: string, leaseMs: number, now = Date.now(), maxAttempts = MAX_MAIL_ATTEMPTS): Promise<Claim> {
  const ref = mail().doc(id);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (!snap.exists) return { claimed: false, reason: 'missing' } as const;
    const data = snap.data() as StoredMail;
    const state = data.delivery?.state ?? 'PENDING';
    if (state === 'SUCCESS' || state === 'ERROR') return { claimed: false, reason: 'done', state } as const;
    if (state === 'PROCESSING' && (data.delivery?.leaseExpireTime?.toMillis() ?? 0) > now) return { claimed: false, reason: 'taken', state } as const;
    if (state === 'RETRY' && (data.delivery?.nextAttemptAt?.toMillis() ?? 0) > now) return { claimed: false, reason: 'not-due', state } as const;
    const message = sendable(data);
    if (!message) {
      tx.update(ref, { delivery: { ...data.delivery, state: 'ERROR', attempts: data.delivery?.attempts ?? 0, error: 'Not a mail: it needs `to` and `message.subject` with `message.text` or `message.html`.', endTime: FieldValue.serverTimestamp(), leaseExpireTime: null, nextAttemptAt: null, claim: null } });
      return { claimed: false, reason: 'invalid' } as const;
    }
    // A try counts when it starts: a mail whose every sender dies (it crashes the instance) runs out of tries too.
    const attempts = (data.delivery?.attempts ?? 0) + 1;
    if (state === 'PROCESSING' && attempts > maxAttempts) {
      tx.update(ref, { 'delivery.state': 'ERROR', 'delivery.error': 'Message processing lease expired on its last try.', 'delivery.endTime': FieldValue.serverTimestamp(), 'delivery.leaseExpireTime': null, 'delivery.nextAttemptAt': null, 'delivery.claim': null });
      return { claimed: false, reason: 'lease-expired', state } as const;
    }
    const token = randomUUID();
    const lease = Timestamp.fromMillis(now + leaseMs);
    tx.update(ref, {
      'delivery.state': 'PROCESSING',
      'delivery.attempts': attempts,
      'delivery.startTime': data.delivery?.startTime ?? FieldValue.serverTimestamp(),
      'delivery.leaseExpireTime': lease,
      'delivery.nextAttemptAt': lease,
      'delivery.claim': token,
    });
    return { claimed: true, mail: message, token, attempts, state } as const;
  });
}

/**
 * Writes a try's outcome if `token` still holds the mail: a sender whose lease ran out and whose
 * mail another sender took meanwhile records nothing (the other's outcome stands). False if not.
 */
async function recordIfHeld(id: string, token: string, update: Record<string, unknown>): Promise<boolean> {
  const ref = mail().doc(id);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    const delivery = (snap.data() as StoredMail | undefined)?.delivery;
    if (!snap.exists || delivery?.state !== 'PROCESSING' || delivery.claim !== token) return false;
    tx.update(ref, update);
    return true;
  });
}

/** A temporary refusal: RETRY at `nextAttemptAt`, with the tries so far and the last error. */
export async function recordRetry(id: string, token: string, attempts: number, error: string, nextAttemptAt: number): Promise<boolean> {
  return recordIfHeld(id, token, {
    'delivery.state': 'RETRY', 'delivery.attempts': attempts, 'delivery.error': error, 'delivery.endTime': FieldValue.serverTimestamp(),
    'delivery.leaseExpireTime': null, 'delivery.nextAttemptAt': Timestamp.fromMillis(nextAttemptAt), 'delivery.claim': null,
  });
}

/** What the SMTP server answered (nodemailer's info), as the extension records it. */
export interface SentInfo {
  messageId: string | null;
  accepted: string[];
  rejected: string[];
  pending: string[];
  response: string | null;
}

export async function recordSuccess(id: string, token: string, attempts: number, info: SentInfo): Promise<boolean> {
  return recordIfHeld(id, token, {
    'delivery.state': 'SUCCESS', 'delivery.attempts': attempts, 'delivery.error': null, 'delivery.info': info,
    'delivery.endTime': FieldValue.serverTimestamp(), 'delivery.leaseExpireTime': null, 'delivery.nextAttemptAt': null, 'delivery.claim': null,
  });
}

export async function recordFailure(id: string, token: string, attempts: number, error: string): Promise<boolean> {
  return recordIfHeld(id, token, {
    'delivery.state': 'ERROR', 'delivery.attempts': attempts, 'delivery.error': error,
    'delivery.endTime': FieldValue.serverTimestamp(), 'delivery.leaseExpireTime': null, 'delivery.nextAttemptAt': null, 'delivery.claim': null,
  });
}

/**
 * The mail the sweeper should take now, the longest overdue first: due RETRYs, PENDING past its
 * grace, PROCESSING past its lease. One field, so Firestore's automatic single-field index serves it.
 */
export async function dueMailIds(limit: number, now = Date.now()): Promise<string[]> {
  const snap = await runQuery(mail().where('delivery.nextAttemptAt', '<=', Timestamp.fromMillis(now)).orderBy('delivery.nextAttemptAt').limit(limit));
  return snap.docs.map((doc) => doc.id);
}

/**
 * Resends a failed mail (POST /api/admin/mail/:id/resend): ERROR becomes RETRY due now, its tries
 * counted afresh, with its audit event, in one transaction. Pressed again (or three times at once),
 * the mail is no longer ERROR: 409, nothing changes, so it is sent once.
 */
export async function resendMail(id: string, actor: AuditActor, now = Date.now()): Promise<ResendMailResult> {
  const ref = mail().doc(id);
  const head = await db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    const log = await openAudit(tx);
    if (!snap.exists) throw new HttpError(404, 'Mail not found');
    const delivery = (snap.data() as StoredMail).delivery;
    const state = delivery?.state ?? 'PENDING';
    if (state !== 'ERROR') {
      throw new HttpError(409, state === 'SUCCESS' ? 'This mail was sent; only a failed mail can be resent' : 'This mail is already waiting to be sent', { code: 'MAIL_NOT_FAILED' });
    }
    tx.update(ref, {
      'delivery.state': 'RETRY', 'delivery.attempts': 0, 'delivery.nextAttemptAt': Timestamp.fromMillis(now), 'delivery.leaseExpireTime': null, 'delivery.claim': null,
      'delivery.resentAt': Timestamp.fromMillis(now), 'delivery.resentBy': actor.username, expireAt: mailExpiry(now),
    });
    appendAudit(log, actor, { action: 'mail.resend', target: ref.path, changes: { 'delivery.state': { before: 'ERROR', after: 'RETRY' }, 'delivery.attempts': { before: delivery?.attempts ?? 0, after: 0 } } });
    return log.head;
  });
  logChainHead(head);
  return { id, state: 'RETRY', nextAttemptAt: new Date(now).toISOString() };
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

/** A RETRY this long past its time means no sweeper ran (it runs every minute): shown as stuck. */
const RETRY_OVERDUE_MS = 3 * 60 * 1000;

/** Mail not sent yet (PENDING, PROCESSING, RETRY), the soonest next try first, with whether it is stuck. */
export async function waitingMailPage(query: WaitingMailQuery, now = Date.now()): Promise<WaitingMailPage> {
  // Only a timestamp is `>` the epoch: SUCCESS and ERROR (nextAttemptAt null) are left out.
  let q: Query = mail().where('delivery.nextAttemptAt', '>', Timestamp.fromMillis(0)).orderBy('delivery.nextAttemptAt').orderBy('__name__');
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  if (after) q = q.startAfter(after[0], mail().doc(after[1]));
  const snap = await runQuery(q.limit(query.limit + 1));
  const docs = snap.docs.slice(0, query.limit);
  const page: WaitingMail[] = docs.map((doc) => {
    const data = doc.data() as StoredMail;
    const d = data.delivery ?? {};
    const state = d.state === 'PROCESSING' || d.state === 'RETRY' ? d.state : 'PENDING';
    const next = d.nextAttemptAt?.toMillis() ?? now;
    return {
      id: doc.id,
      to: typeof data.to === 'string' ? data.to : '',
      subject: typeof data.message?.subject === 'string' ? data.message.subject : '',
      state,
      attempts: d.attempts ?? 0,
      error: d.error ?? null,
      stuck: state === 'RETRY' ? next <= now - RETRY_OVERDUE_MS : next <= now,
      queuedAt: iso(d.startTime),
      nextAttemptAt: iso(d.nextAttemptAt),
    };
  });
  const last = docs[docs.length - 1];
  const lastNext = last && (last.data() as StoredMail).delivery?.nextAttemptAt;
  return { mail: page, nextCursor: snap.docs.length > query.limit && last && lastNext ? encodeCursor(lastNext, last.id) : null };
}
