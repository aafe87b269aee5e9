import { FieldValue } from 'firebase-admin/firestore';

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

/** A mail as queued: its delivery PENDING, not tried yet (the extension's first state). */
export function queued(mail: MailDoc) {
  return { ...mail, delivery: { state: 'PENDING', attempts: 0, startTime: FieldValue.serverTimestamp(), endTime: null, leaseExpireTime: null, error: null } };
}
