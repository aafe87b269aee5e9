import { z } from 'zod';
import { BookIdSchema } from './book';

// Issue 28: back-in-stock alerts and the newsletter (double opt-in). Texts and limits without zod:
// subscription-texts.ts. Routes (docs/api.md):
//   POST /api/stock-alerts               { bookId, email? }   anyone (email) or a customer (token)  202 { message }
//   POST /api/newsletter                 { email }            anyone                               202 { message }
//   POST /api/newsletter/confirm         { token }            anyone with the mailed link          200 { message }
//   POST /api/unsubscribe                { token }            anyone with a mailed link            200 { message }
//   GET  /api/admin/stock-alerts/:bookId                      staff (books.view)                   200 { bookId, waiting }
//   GET  /api/admin/newsletter.csv                            owner, manager (newsletter.export)   200 text/csv

export const SubscriberEmailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email must be at most 254 characters')
  .pipe(z.email({ error: 'Email is not valid' }));

// POST /api/stock-alerts: signed out, the address to write to; signed in, the account's own (any
// `email` sent is ignored).
export const StockAlertInputSchema = z
  .object({
    bookId: BookIdSchema,
    email: SubscriberEmailSchema.optional(),
  })
  .strip();
export type StockAlertInput = z.infer<typeof StockAlertInputSchema>;

// POST /api/newsletter
export const NewsletterInputSchema = z.object({ email: SubscriberEmailSchema }).strip();
export type NewsletterInput = z.infer<typeof NewsletterInputSchema>;

/** A mailed link's token: base64url payload, a dot, base64url signature. */
export const MailTokenSchema = z
  .string({ error: 'Token is required' })
  .max(1024, 'Token is not valid')
  .regex(/^[A-Za-z0-9_-]{1,900}\.[A-Za-z0-9_-]{43}$/, 'Token is not valid');

// POST /api/newsletter/confirm, POST /api/unsubscribe
export const MailTokenInputSchema = z.object({ token: MailTokenSchema }).strip();

export interface MessageResponse {
  message: string;
}

/** GET /api/admin/stock-alerts/:bookId */
export interface StockAlertCount {
  bookId: string;
  waiting: number;
}

/**
 * The mailbox an address delivers to, for the sign-up limits (issue 36): lower case, without a
 * `+tag` (most providers deliver `ann+x@` to `ann@`), and for Gmail without dots in the local part,
 * googlemail.com read as gmail.com. `A.nn+news@GoogleMail.com` and `ann@gmail.com` are one mailbox,
 * so spelling a stranger's address forty ways fills one budget, not forty. Only a key: mail still
 * goes to the address as typed.
 */
export function mailboxKey(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at <= 0) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replace(/\./g, '');
  return `${local}@${domain}`;
}
