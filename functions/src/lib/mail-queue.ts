import { FieldValue, Timestamp } from 'firebase-admin/firestore';

// The mail queue: one document per mail in `mail`, written in the same transaction as the change it
// announces, under an id derived from what it announces (a retried request cannot queue a second
// copy). The `sendMail` function (functions/src/mail/) sends each new document and records its
// delivery on it, in the shape of the Trigger Email extension it replaces (docs/decisions/037-own-mailer.md).

export const MAIL_COLLECTION = 'mail';

/** What a mail says and to whom: the extension's `to` and `message.{subject,text,html}`. */
export interface MailDoc {
  to: string;
  message: { subject: string; text: string; html: string };
}

/**
 * A PENDING mail no sender took within this long is taken by the sweeper (functions/src/mail/):
 * the trigger's event was lost, or refused while the function was at its instance limit.
 */
export const MAIL_PENDING_GRACE_MS = 3 * 60 * 1000;
/**
 * Mail documents (addresses, order details) are deleted this long after they were queued or last
 * resent: `expireAt` is the field of a Firestore TTL policy (firestore.indexes.json, decision 037).
 */
export const MAIL_KEEP_MS = 30 * 24 * 60 * 60 * 1000;

export const mailExpiry = (now = Date.now()) => Timestamp.fromMillis(now + MAIL_KEEP_MS);

/**
 * A mail as queued: its delivery PENDING, not tried yet (the extension's first state).
 * `nextAttemptAt` is when the sweeper takes it if the trigger has not (mail/mail.repo.ts).
 */
export function queued(mail: MailDoc, now = Date.now()) {
  return {
    ...mail,
    expireAt: mailExpiry(now),
    delivery: { state: 'PENDING', attempts: 0, startTime: FieldValue.serverTimestamp(), endTime: null, leaseExpireTime: null, nextAttemptAt: Timestamp.fromMillis(now + MAIL_PENDING_GRACE_MS), error: null },
  };
}
