import { MAX_MAIL_ATTEMPTS } from '@bookstore/contract';
import { logger } from 'firebase-functions/logger';
import { SEND_MAIL_TIMEOUT_S } from '../config';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { claimMail, recordFailure, recordRetry, recordSuccess, type SentInfo } from './mail.repo';

// The `sendMail` function's work (index.ts), apart from its trigger so tests run it too: claim the
// mail document (exactly one instance sends it, whatever Eventarc redelivers), send it over SMTP,
// and record the outcome on it. Tries are retried here, with backoff, within the one invocation:
// at most MAX_MAIL_ATTEMPTS, a permanent refusal (5xx) at once. docs/decisions/037-own-mailer.md.

/** The function's timeout; the claim's lease outlives every try an invocation can make. */
export { SEND_MAIL_TIMEOUT_S };
/** The first retry waits this long, each next one twice as long (1, 2, 4, 8 s). */
export const MAIL_BACKOFF_MS = 1000;
// One try is bounded: a host that does not answer is given up after these (nodemailer waits minutes by default).
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export interface SendOptions {
  /** smtp(s)://user:password@host:port (the SMTP_URI secret). */
  smtpUri: string;
  /** The sender, e.g. 'Bookstore <orders@example.com>' (the MAIL_FROM param). */
  from: string;
  backoffMs?: number;
  maxAttempts?: number;
}

export type SendOutcome = 'sent' | 'failed' | 'skipped';

interface SmtpError {
  message?: string;
  code?: string;
  responseCode?: number;
}

/**
 * A refusal that another try cannot change: an SMTP 5xx (no such mailbox, authentication failed,
 * message refused) or an envelope nodemailer itself refuses. Connection errors and 4xx are transient.
 */
export function isPermanent(error: SmtpError): boolean {
  if (typeof error.responseCode === 'number') return error.responseCode >= 500 && error.responseCode < 600;
  return error.code === 'EENVELOPE' || error.code === 'EMESSAGE';
}

/** The error as recorded on the document and logged: never the URI, which carries the password. */
export function describeError(error: SmtpError, smtpUri: string): string {
  const text = String(error.message ?? error).slice(0, 1000);
  const password = (() => {
    try {
      return decodeURIComponent(new URL(smtpUri).password);
    } catch {
      return '';
    }
  })();
  return password ? text.split(password).join('***') : text;
}

function transport(smtpUri: string) {
  let url: URL;
  try {
    url = new URL(smtpUri);
  } catch {
    throw Object.assign(new Error('SMTP_URI is not a URL: set it to smtp(s)://user:password@host:port'), { code: 'ECONFIG', responseCode: 500 });
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw Object.assign(new Error(`SMTP_URI must start with smtp:// or smtps:// (it starts with ${url.protocol}//)`), { code: 'ECONFIG', responseCode: 500 });
  }
  const options: SMTPTransport.Options & { url: string } = { url: smtpUri, ...SMTP_TIMEOUTS };
  return nodemailer.createTransport(options);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Claims mail/<id>, sends it, records SUCCESS or ERROR with the tries it took. */
export async function sendQueuedMail(id: string, options: SendOptions): Promise<SendOutcome> {
  const maxAttempts = options.maxAttempts ?? MAX_MAIL_ATTEMPTS;
  const backoffMs = options.backoffMs ?? MAIL_BACKOFF_MS;
  const claim = await claimMail(id, SEND_MAIL_TIMEOUT_S * 1000);
  if (!claim.claimed) {
    // A duplicate event, or a mail that cannot be sent (recorded as ERROR by the claim).
    const failed = claim.reason === 'invalid' || claim.reason === 'lease-expired';
    (failed ? logger.error : logger.info)(failed ? 'Mail failed' : 'Mail not sent by this call', { mailId: id, reason: claim.reason, state: claim.state ?? null });
    return 'skipped';
  }
  const { to, message } = claim.mail;
  for (let attempt = 1; ; attempt++) {
    let info: SMTPTransport.SentMessageInfo;
    try {
      info = await transport(options.smtpUri).sendMail({ from: options.from, to, subject: message.subject, text: message.text || undefined, html: message.html || undefined });
    } catch (caught) {
      const error = caught as SmtpError;
      const text = describeError(error, options.smtpUri);
      if (isPermanent(error) || attempt >= maxAttempts) {
        await recordFailure(id, attempt, text);
        // An operator's alert: Cloud Logging severity ERROR; the dashboard lists it (Failed Mail).
        logger.error('Mail failed', { mailId: id, attempts: attempt, permanent: isPermanent(error), code: error.code ?? null, responseCode: error.responseCode ?? null, error: text });
        return 'failed';
      }
      await recordRetry(id, attempt, text);
      logger.warn('Mail try failed, retrying', { mailId: id, attempt, code: error.code ?? null, responseCode: error.responseCode ?? null, error: text });
      await sleep(backoffMs * 2 ** (attempt - 1));
      continue;
    }
    // Sent: from here on nothing may send it again (a failed record leaves it PROCESSING, never resent).
    const sent: SentInfo = {
      messageId: info.messageId ?? null,
      accepted: (info.accepted ?? []).map(String),
      rejected: (info.rejected ?? []).map(String),
      pending: (info.pending ?? []).map(String),
      response: info.response ?? null,
    };
    await recordSuccess(id, attempt, sent);
    logger.info('Mail sent', { mailId: id, attempts: attempt, messageId: sent.messageId });
    return 'sent';
  }
}
