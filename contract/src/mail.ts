import { z } from 'zod';
import { CursorSchema } from './paging';

// The shop's own mail (issue 36, docs/decisions/037-own-mailer.md): each document in `mail` is
// sent by the `sendMail` function, which records its delivery on it with the Trigger Email
// extension's field names, so readers written for the extension keep working.

/**
 * PENDING (queued) -> PROCESSING (claimed by one sender, under a lease) -> SUCCESS, ERROR, or RETRY
 * (a temporary refusal: tried again at `nextAttemptAt`, PROCESSING again while it is tried).
 */
export const MAIL_STATES = ['PENDING', 'PROCESSING', 'RETRY', 'SUCCESS', 'ERROR'] as const;
export type MailState = (typeof MAIL_STATES)[number];

/**
 * Sending tries per mail, the first included; a permanent refusal (SMTP 5xx) stops at once. With
 * the waits of mailRetryDelayMs between them, the last try is about a day after the first.
 */
export const MAX_MAIL_ATTEMPTS = 8;
/** The wait after the first failed try; each next wait is four times longer, up to MAIL_MAX_RETRY_DELAY_MS. */
export const MAIL_FIRST_RETRY_DELAY_MS = 30_000;
export const MAIL_MAX_RETRY_DELAY_MS = 12 * 60 * 60 * 1000;

/** How long to wait after `attempts` failed tries: 30 s, 2 min, 8 min, 32 min, 2 h 8 min, 8 h 32 min, then 12 h. */
export function mailRetryDelayMs(attempts: number): number {
  return Math.min(MAIL_FIRST_RETRY_DELAY_MS * 4 ** Math.max(0, attempts - 1), MAIL_MAX_RETRY_DELAY_MS);
}

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

/**
 * A mail not sent yet, as GET /api/admin/mail/waiting lists it: retrying after a temporary refusal,
 * or stuck (PENDING that no sender took within minutes, PROCESSING past its lease: the sender died).
 */
export interface WaitingMail {
  id: string;
  to: string;
  subject: string;
  state: 'PENDING' | 'PROCESSING' | 'RETRY';
  /** Tries so far. */
  attempts: number;
  /** The last SMTP or connection error, if a try failed. */
  error: string | null;
  /** True when it is past the time a sender should have taken it (the sweeper takes it within a minute). */
  stuck: boolean;
  /** ISO 8601: when it was queued, and when the sweeper takes it next (a RETRY's next try, a lease's end). */
  queuedAt: string | null;
  nextAttemptAt: string | null;
}

// GET /api/admin/mail/waiting?cursor=&limit=: the soonest next try first.
export const WaitingMailQuerySchema = FailedMailQuerySchema;
export type WaitingMailQuery = FailedMailQuery;

export interface WaitingMailPage {
  mail: WaitingMail[];
  nextCursor: string | null;
}

/** POST /api/admin/mail/:id/resend (owner, manager): a failed mail queued again, for a fresh round of tries. */
export interface ResendMailResult {
  id: string;
  state: 'RETRY';
  nextAttemptAt: string;
}
