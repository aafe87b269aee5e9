import { z } from 'zod';
import { CursorSchema } from './paging';

// The shop's own mail (issue 36, docs/decisions/037-own-mailer.md): each document in `mail` is
// sent by the `sendMail` function, which records its delivery on it with the Trigger Email
// extension's field names, so readers written for the extension keep working.

/** PENDING (queued) -> PROCESSING (claimed by one instance) -> SUCCESS or ERROR. */
export const MAIL_STATES = ['PENDING', 'PROCESSING', 'SUCCESS', 'ERROR'] as const;
export type MailState = (typeof MAIL_STATES)[number];

/** Sending tries per mail, the first included; a permanent refusal (SMTP 5xx) stops at once. */
export const MAX_MAIL_ATTEMPTS = 5;

/** A mail the shop could not send, as GET /api/admin/mail/failed lists it. */
export interface FailedMail {
  id: string;
  to: string;
  subject: string;
  attempts: number;
  /** The last SMTP or connection error. */
  error: string;
  /** ISO 8601: when the mail was queued, and when the last try ended. */
  queuedAt: string | null;
  failedAt: string | null;
}

export const FAILED_MAIL_PAGE_SIZE = 25;

// GET /api/admin/mail/failed?cursor=&limit=
export const FailedMailQuerySchema = z
  .object({
    cursor: CursorSchema.optional(),
    limit: z.coerce.number({ error: 'limit must be a number' }).int('limit must be a whole number').min(1, 'limit is at least 1').max(100, 'limit is at most 100').default(FAILED_MAIL_PAGE_SIZE),
  })
  .strict();
export type FailedMailQuery = z.infer<typeof FailedMailQuerySchema>;

export interface FailedMailPage {
  mail: FailedMail[];
  nextCursor: string | null;
}
