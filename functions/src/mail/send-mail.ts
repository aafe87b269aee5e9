import { MAX_MAIL_ATTEMPTS, mailRetryDelayMs } from '@bookstore/contract';
import { logger } from 'firebase-functions/logger';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { isLoopbackHost, SEND_MAIL_TIMEOUT_S } from '../config';
import { claimMail, dueMailIds, recordFailure, recordRetry, recordSuccess, type SentInfo } from './mail.repo';

// The mail functions' work (index.ts), apart from their triggers so tests run it too. A mail is
// tried once per call, by one sender at a time: the sender claims it (a transaction: PROCESSING
// under a lease), tries it over SMTP, and records SUCCESS, ERROR (a permanent refusal, SMTP 5xx,
// or the last of MAX_MAIL_ATTEMPTS tries) or RETRY with the time of the next try (a temporary
// refusal: 4xx, a connection error, a timeout), from 30 s up to 12 h apart, about a day in all.
// `sendMail` tries each new mail at once; the sweeper (`sweepMail`, every minute) and each
// `sendMail` call after its own mail take what is due. docs/decisions/037-own-mailer.md.

/** The functions' timeout; a claim's lease outlives one try, so only a dead sender's mail is taken again. */
export { SEND_MAIL_TIMEOUT_S };
/** How long a claim holds a mail: far beyond one bounded try (SMTP_TIMEOUTS), well within the timeout. */
export const MAIL_LEASE_MS = 2 * 60 * 1000;
/** Due mail one call takes: the sweeper's batch, and what sendMail takes after its own mail. */
export const SWEEP_BATCH = 50;
export const TRIGGER_SWEEP_BATCH = 5;
/** Mails one sweeper call tries at once: the pool's connections (a small provider's limit). */
export const SWEEP_PARALLEL = 2;
/** A sweep starts no try after this long: a try is bounded at about a minute, the timeout is SEND_MAIL_TIMEOUT_S. */
const SWEEP_BUDGET_MS = (SEND_MAIL_TIMEOUT_S - 90) * 1000;
// One try is bounded: a host that does not answer is given up after these (nodemailer waits minutes by default).
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export interface SendOptions {
  /** smtp(s)://user:password@host:port (the SMTP_URI secret). */
  smtpUri: string;
  /** The sender, e.g. 'Bookstore <orders@example.com>' (the MAIL_FROM param). */
  from: string;
  maxAttempts?: number;
}

export type SendOutcome = 'sent' | 'retry' | 'failed' | 'skipped';

interface SmtpError {
  message?: string;
  code?: string;
  responseCode?: number;
}

/**
 * A refusal that another try cannot change: an SMTP 5xx (no such mailbox, authentication failed,
 * message refused), an envelope nodemailer itself refuses, or an SMTP_URI we refuse to use.
 * Connection errors, timeouts and 4xx are temporary.
 */
export function isPermanent(error: SmtpError): boolean {
  if (typeof error.responseCode === 'number') return error.responseCode >= 500 && error.responseCode < 600;
  return error.code === 'EENVELOPE' || error.code === 'EMESSAGE' || error.code === 'ECONFIG';
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

const configError = (message: string) => Object.assign(new Error(message), { code: 'ECONFIG' });

/**
 * Why SMTP_URI cannot be used, or null. Outside the emulators the password and the mail must go
 * over TLS: smtps:// (TLS from the start, port 465) or smtp:// with `?requireTLS=true` (STARTTLS
 * or nothing, port 587). Plain smtp:// is for this machine only: a loopback host, or the local
 * emulators (FIRESTORE_EMULATOR_HOST on loopback, which assertSafeEnvironment keeps off Cloud Run).
 */
export function smtpUriRefusal(smtpUri: string, env: NodeJS.ProcessEnv = process.env): string | null {
  let url: URL;
  try {
    url = new URL(smtpUri);
  } catch {
    return 'SMTP_URI is not a URL: set it to smtps://user:password@host:465';
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return `SMTP_URI must start with smtps:// or smtp:// (it starts with ${url.protocol}//)`;
  if (url.protocol === 'smtps:' || url.searchParams.get('requireTLS') === 'true') return null;
  const local = isLoopbackHost(url.host) || (!!env.FIRESTORE_EMULATOR_HOST && isLoopbackHost(env.FIRESTORE_EMULATOR_HOST));
  return local ? null : `SMTP_URI ${url.protocol}//${url.host} sends without TLS: use smtps://user:password@${url.hostname}:465, or smtp://user:password@${url.hostname}:587?requireTLS=true`;
}

/**
 * One pool of SMTP connections per instance and URI (nodemailer's pool: at most SWEEP_PARALLEL
 * connections, each reused for up to 100 mails), kept between calls: a provider sees a few
 * connections, not one per mail. One try is one delivery attempt.
 */
const pools = new Map<string, Transporter<SMTPPool.SentMessageInfo>>();

function transport(smtpUri: string): Transporter<SMTPPool.SentMessageInfo> {
  const refusal = smtpUriRefusal(smtpUri);
  if (refusal) throw configError(refusal);
  let pool = pools.get(smtpUri);
  if (!pool) {
    // maxRequeues 0: a connection the server closes mid-send (a 421 does) fails the try, which we
    // record and retry later, rather than nodemailer retrying it at once, unseen, up to 5 times.
    const options: SMTPPool.Options & { url: string } = { url: smtpUri, pool: true, maxConnections: SWEEP_PARALLEL, maxMessages: 100, maxRequeues: 0, ...SMTP_TIMEOUTS };
    pool = nodemailer.createTransport(options);
    pools.set(smtpUri, pool);
  }
  return pool;
}

/** Closes every pooled connection (tests; an instance's connections otherwise end with it). */
export function closeMailPools(): void {
  for (const pool of pools.values()) pool.close();
  pools.clear();
}

/** Claims mail/<id> if it is free and due, tries it once, records SUCCESS, RETRY or ERROR. */
export async function sendQueuedMail(id: string, options: SendOptions, now = Date.now()): Promise<SendOutcome> {
  const maxAttempts = options.maxAttempts ?? MAX_MAIL_ATTEMPTS;
  const claim = await claimMail(id, MAIL_LEASE_MS, now, maxAttempts);
  if (!claim.claimed) {
    // Another sender has it, it is done or not due, or it cannot be sent (recorded as ERROR by the claim).
    const failed = claim.reason === 'invalid' || claim.reason === 'lease-expired';
    (failed ? logger.error : logger.info)(failed ? 'Mail failed' : 'Mail not sent by this call', { mailId: id, reason: claim.reason, state: claim.state ?? null });
    return 'skipped';
  }
  if (claim.state === 'PROCESSING') logger.warn('Mail taken again: its sender died mid-try (lease expired)', { mailId: id, attempts: claim.attempts });
  const { to, message } = claim.mail;
  const attempt = claim.attempts;
  let info: SMTPTransport.SentMessageInfo;
  try {
    info = await transport(options.smtpUri).sendMail({ from: options.from, to, subject: message.subject, text: message.text || undefined, html: message.html || undefined });
  } catch (caught) {
    const error = caught as SmtpError;
    const text = describeError(error, options.smtpUri);
    const fields = { mailId: id, attempts: attempt, code: error.code ?? null, responseCode: error.responseCode ?? null, error: text };
    if (isPermanent(error) || attempt >= maxAttempts) {
      await recordFailure(id, claim.token, attempt, text);
      // An operator's alert: Cloud Logging severity ERROR; the dashboard lists it (Failed Mail).
      logger.error('Mail failed', { ...fields, permanent: isPermanent(error) });
      return 'failed';
    }
    const next = now + mailRetryDelayMs(attempt);
    await recordRetry(id, claim.token, attempt, text, next);
    logger.warn('Mail try failed, retrying later', { ...fields, nextAttemptAt: new Date(next).toISOString() });
    return 'retry';
  }
  // Sent: from here on only a dead sender's lease could make it go again.
  const sent: SentInfo = {
    messageId: info.messageId ?? null,
    accepted: (info.accepted ?? []).map(String),
    rejected: (info.rejected ?? []).map(String),
    pending: (info.pending ?? []).map(String),
    response: info.response ?? null,
  };
  await recordSuccess(id, claim.token, attempt, sent);
  logger.info('Mail sent', { mailId: id, attempts: attempt, messageId: sent.messageId });
  return 'sent';
}

export interface SweepReport {
  due: number;
  sent: number;
  retry: number;
  failed: number;
  skipped: number;
}

/** Takes up to `limit` due mails (mail.repo.ts dueMailIds) and tries each once, SWEEP_PARALLEL at a time. */
export async function sweepMail(options: SendOptions, limit = SWEEP_BATCH, now = Date.now()): Promise<SweepReport> {
  const started = Date.now();
  const ids = await dueMailIds(limit, now);
  const report: SweepReport = { due: ids.length, sent: 0, retry: 0, failed: 0, skipped: 0 };
  let next = 0;
  const worker = async () => {
    // Within the function's timeout: no new try once a try could outlast it (the rest wait for the next sweep).
    while (next < ids.length && Date.now() - started < SWEEP_BUDGET_MS) {
      const id = ids[next++]!;
      try {
        report[await sendQueuedMail(id, options, now + (Date.now() - started))] += 1; // the given clock, advancing
      } catch (error) {
        // A Firestore error on one mail: the next sweep takes it again (its lease runs out).
        report.skipped += 1;
        logger.error('Mail sweep could not try a mail', { mailId: id, error: String(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: SWEEP_PARALLEL }, worker));
  return report;
}
