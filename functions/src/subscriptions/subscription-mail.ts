import type { MailDoc } from '../orders/mail';
import { escapeHtml } from '../lib/html';

// The mail documents of issue 28, in the Trigger Email extension's shape (orders/mail.ts): a
// back-in-stock alert and a newsletter confirmation. Every one carries an unsubscribe link in its
// body (the extension's documented fields are `to` and `message`: no custom List-Unsubscribe header).

export interface RestockMailInput {
  to: string;
  title: string;
  bookUrl: string;
  unsubscribeUrl: string;
}

export function restockMail({ to, title, bookUrl, unsubscribeUrl }: RestockMailInput): MailDoc {
  const subject = `Back in stock: ${title}`;
  const text = [
    'Good news!',
    '',
    `${title} is back in stock. You asked us to tell you: this is the only email we send about it.`,
    `Order it here: ${bookUrl}`,
    '',
    `Stop back-in-stock emails to this address: ${unsubscribeUrl}`,
  ].join('\n');
  const html = [
    '<p>Good news!</p>',
    `<p><strong>${escapeHtml(title)}</strong> is back in stock. You asked us to tell you: this is the only email we send about it.</p>`,
    `<p><a href="${escapeHtml(bookUrl)}">Order it now</a></p>`,
    `<p style="font-size:12px"><a href="${escapeHtml(unsubscribeUrl)}">Stop back-in-stock emails to this address</a></p>`,
  ].join('\n');
  return { to, message: { subject, text, html } };
}

export interface ConfirmMailInput {
  to: string;
  confirmUrl: string;
  unsubscribeUrl: string;
}

export function newsletterConfirmMail({ to, confirmUrl, unsubscribeUrl }: ConfirmMailInput): MailDoc {
  const subject = 'Confirm your subscription to the Bookstore newsletter';
  const text = [
    'Hello,',
    '',
    'Someone (we hope you) asked to receive the Bookstore newsletter at this address.',
    `Confirm your subscription (the link works for 7 days): ${confirmUrl}`,
    '',
    'If it was not you, ignore this email: you will not be subscribed.',
    `Never want these emails: ${unsubscribeUrl}`,
  ].join('\n');
  const html = [
    '<p>Hello,</p>',
    '<p>Someone (we hope you) asked to receive the Bookstore newsletter at this address.</p>',
    `<p><a href="${escapeHtml(confirmUrl)}">Confirm your subscription</a> (the link works for 7 days).</p>`,
    '<p>If it was not you, ignore this email: you will not be subscribed.</p>',
    `<p style="font-size:12px"><a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a></p>`,
  ].join('\n');
  return { to, message: { subject, text, html } };
}
