import {
  BookIdSchema,
  EMAIL_NOT_VERIFIED_MESSAGE,
  mailboxKey,
  MAIL_LINK_INVALID,
  MailTokenInputSchema,
  NEWSLETTER_CONFIRMED,
  NEWSLETTER_REQUESTED,
  NEWSLETTER_UNSUBSCRIBED,
  NewsletterInputSchema,
  normaliseEmail,
  STOCK_ALERT_REQUESTED,
  STOCK_ALERTS_UNSUBSCRIBED,
  StockAlertInputSchema,
  toCsv,
  type MessageResponse,
  type StockAlertCount,
} from '@bookstore/contract';
import type { Request, Response } from 'express';
import { logger } from 'firebase-functions/logger';
import { hostingClientAddress } from '../admin/client-address';
import { recordAudit } from '../admin/audit.repo';
import { jwtSecret, requireCustomer, requirePermission, requireSensitive } from '../lib/auth';
import { noStore, rejectUnknownQuery } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { claimedPurpose, signMailLink, verifyMailLink } from '../lib/mail-links';
import { jsonBody, parseWith } from '../lib/validate';
import { siteOrigin } from '../pages/site-origin';
import * as newsletter from './newsletter.repo';
import { takeFromWindow } from './rate-limit.repo';
import * as alerts from './stock-alerts.repo';
import { newsletterConfirmMail } from './subscription-mail';

// Issue 28: back-in-stock alerts and the newsletter's double opt-in. Public sign-ups answer the same
// whether or not the address is known; each is limited per client address as Hosting reports it
// (429 with Retry-After; hostingClientAddress, never an X-Forwarded-For entry the caller wrote) and
// per mailbox (mailboxKey: case, `+tag`, Gmail's dots and googlemail.com are one mailbox; beyond the
// limit nothing more is stored or mailed, and the answer is the same). Issue 36.

const MINUTE = 60 * 1000;
export const ALERTS_PER_IP = 20;
export const ALERTS_IP_WINDOW_MS = 15 * MINUTE;
/** Back-in-stock sign-ups one mailbox takes per hour, however its address is spelled. */
export const ALERTS_PER_ADDRESS = 10;
export const ALERTS_ADDRESS_WINDOW_MS = 60 * MINUTE;
export const NEWSLETTER_PER_IP = 10;
export const NEWSLETTER_IP_WINDOW_MS = 15 * MINUTE;
/** Confirmation mails one mailbox receives: at most one an hour, and three a day. */
export const NEWSLETTER_PER_MAILBOX_HOUR = 1;
export const NEWSLETTER_PER_ADDRESS = 3;
export const NEWSLETTER_ADDRESS_WINDOW_MS = 24 * 60 * MINUTE;
/** How long a confirmation link works. */
export const CONFIRM_LINK_TTL_SECONDS = 7 * 24 * 3600;

/** The key of mailed links; without it (never on Cloud Run, where the api refuses to start) sign-ups are 503. */
function mailSecret(): string {
  const secret = jwtSecret();
  if (!secret) throw new HttpError(503, 'Email sign-ups are not configured');
  return secret;
}

async function limitClient(req: Request, kind: string, limit: number, windowMs: number): Promise<void> {
  const answer = await takeFromWindow(`${kind}-ip:${hostingClientAddress(req)}`, limit, windowMs);
  if (!answer.allowed) {
    throw new HttpError(429, 'Too many requests from your network. Try again later.', {}, { 'Retry-After': String(answer.retryAfter) });
  }
}

const link = (path: string, token: string) => `${siteOrigin()}${path}?token=${encodeURIComponent(token)}`;

// POST /api/stock-alerts
export async function createStockAlert(req: Request, res: Response) {
  const input = parseWith(StockAlertInputSchema, jsonBody(req));
  const secret = mailSecret();
  let email: string;
  let uid: string | undefined;
  if (req.headers.authorization !== undefined) {
    // Signed in: one click, to the account's own address (an `email` in the body is ignored), once
    // that address is verified: anyone can open an account in a stranger's name (issue 36).
    const customer = await requireCustomer(req);
    if (!customer.emailVerified) throw new HttpError(403, EMAIL_NOT_VERIFIED_MESSAGE, { code: 'EMAIL_NOT_VERIFIED' });
    email = normaliseEmail(customer.email);
    uid = customer.uid;
  } else {
    if (!input.email) throw new HttpError(400, 'Email is required', { details: { email: ['Email is required'] } });
    email = normaliseEmail(input.email);
    await limitClient(req, 'alerts', ALERTS_PER_IP, ALERTS_IP_WINDOW_MS);
  }
  const byAddress = await takeFromWindow(`alerts-mailbox:${mailboxKey(email)}`, ALERTS_PER_ADDRESS, ALERTS_ADDRESS_WINDOW_MS);
  const unsubscribeUrl = link('/stock-alerts/unsubscribe', signMailLink({ p: 'alerts-unsubscribe', e: email }, secret));
  if (byAddress.allowed) {
    await alerts.subscribe({ bookId: input.bookId, email, uid, unsubscribeUrl });
  } else {
    // The address's budget is spent: store nothing, answer as usual (after the same book checks).
    logger.warn('Back-in-stock sign-ups for one address over the limit', { bookId: input.bookId });
    await alerts.assertWaitable(input.bookId);
  }
  noStore(res);
  res.status(202).json({ message: STOCK_ALERT_REQUESTED } satisfies MessageResponse);
}

// POST /api/newsletter
export async function subscribeNewsletter(req: Request, res: Response) {
  const { email: typed } = parseWith(NewsletterInputSchema, jsonBody(req));
  const secret = mailSecret();
  await limitClient(req, 'newsletter', NEWSLETTER_PER_IP, NEWSLETTER_IP_WINDOW_MS);
  const email = normaliseEmail(typed);
  // One confirmation mail per mailbox an hour (and three a day), however the address is spelled.
  const mailbox = mailboxKey(email);
  const thisHour = await takeFromWindow(`newsletter-mailbox-hour:${mailbox}`, NEWSLETTER_PER_MAILBOX_HOUR, 60 * MINUTE);
  const today = thisHour.allowed ? await takeFromWindow(`newsletter-mailbox:${mailbox}`, NEWSLETTER_PER_ADDRESS, NEWSLETTER_ADDRESS_WINDOW_MS) : thisHour;
  if (today.allowed) {
    await newsletter.requestSubscription(email, (nonce) =>
      newsletterConfirmMail({
        to: email,
        confirmUrl: link('/newsletter/confirm', signMailLink({ p: 'newsletter-confirm', e: email, n: nonce, x: Math.floor(Date.now() / 1000) + CONFIRM_LINK_TTL_SECONDS }, secret)),
        unsubscribeUrl: link('/newsletter/unsubscribe', signMailLink({ p: 'newsletter-unsubscribe', e: email }, secret)),
      }),
    );
  }
  noStore(res);
  // The same answer for a new, a pending, a confirmed and an over-the-limit address.
  res.status(202).json({ message: NEWSLETTER_REQUESTED } satisfies MessageResponse);
}

// POST /api/newsletter/confirm
export async function confirmNewsletter(req: Request, res: Response) {
  const { token } = parseWith(MailTokenInputSchema, jsonBody(req));
  const claims = verifyMailLink(token, 'newsletter-confirm', mailSecret());
  if (!claims?.n || !(await newsletter.confirmSubscription(claims.e, claims.n))) {
    throw new HttpError(400, MAIL_LINK_INVALID, { code: 'INVALID_LINK' });
  }
  noStore(res);
  res.json({ message: NEWSLETTER_CONFIRMED } satisfies MessageResponse);
}

// POST /api/unsubscribe: the newsletter's link, or the back-in-stock mail's.
export async function unsubscribe(req: Request, res: Response) {
  const { token } = parseWith(MailTokenInputSchema, jsonBody(req));
  const secret = mailSecret();
  const purpose = claimedPurpose(token);
  const claims = purpose === 'newsletter-unsubscribe' || purpose === 'alerts-unsubscribe' ? verifyMailLink(token, purpose, secret) : null;
  if (!claims) throw new HttpError(400, MAIL_LINK_INVALID, { code: 'INVALID_LINK' });
  if (claims.p === 'newsletter-unsubscribe') await newsletter.removeSubscription(claims.e);
  else await alerts.suppressAlerts(claims.e);
  noStore(res);
  res.json({ message: claims.p === 'newsletter-unsubscribe' ? NEWSLETTER_UNSUBSCRIBED : STOCK_ALERTS_UNSUBSCRIBED } satisfies MessageResponse);
}

// GET /api/admin/stock-alerts/:bookId
export async function stockAlertCount(req: Request, res: Response) {
  requirePermission(req, 'books.view');
  rejectUnknownQuery(req);
  const parsed = BookIdSchema.safeParse(req.params.bookId);
  if (!parsed.success) throw new HttpError(404, 'Book not found');
  const waiting = await alerts.countWaiting(parsed.data);
  noStore(res);
  res.json({ bookId: parsed.data, waiting } satisfies StockAlertCount);
}

// GET /api/admin/newsletter.csv: confirmed addresses, read and written a page at a time.
// A list of customers' addresses leaves the shop: the router asks for a recent proof
// (sensitiveRoute), and the export is audited (issue 36).
export async function exportNewsletter(req: Request, res: Response) {
  const actor = requireSensitive(req, 'newsletter.export');
  rejectUnknownQuery(req);
  const pages = newsletter.confirmedSubscribers();
  // The first page before the headers: an outage then is still a JSON 503, not a cut-off file.
  let page = await pages.next();
  // Recorded before a single address is sent: an export the log does not show cannot happen.
  await recordAudit(actor, { action: 'newsletter.export', target: 'newsletter' });
  noStore(res);
  res.status(200).set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="newsletter.csv"' });
  res.write(toCsv([['email', 'confirmedAt']]));
  try {
    while (!page.done) {
      res.write(toCsv(page.value.map((s) => [s.email, s.confirmedAt ?? ''])));
      page = await pages.next();
    }
    res.end();
  } catch (error) {
    // Headers are gone: cut the download short rather than end it as if it were complete.
    logger.error('Newsletter export failed mid-way', { error: String(error) });
    res.destroy();
  }
}
