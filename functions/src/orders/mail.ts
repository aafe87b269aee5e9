import type { OrderStatus } from '@bookstore/contract';
import { formatCents } from '@bookstore/contract';

// Mail is queued as documents in `mail`, in the shape the Trigger Email extension
// (firebase/firestore-send-email) reads: `to` and `message.{subject,text,html}`. The extension sends
// each new document and records the delivery on it. The document is written in the same
// transaction as the change it announces, under an id derived from (order, event): a retried request
// cannot queue a second copy, and a change that did not happen queues none.

export const MAIL_COLLECTION = 'mail';

export interface MailDoc {
  to: string;
  message: { subject: string; text: string; html: string };
}

export interface MailOrder {
  name: string;
  email: string;
  totalCents: number;
  lines: { title: string; unitPriceCents: number }[];
}

/** One mail per order and event: placement, or the arrival in a status (each is reached at most once). */
export const mailId = (orderId: string, event: 'placed' | OrderStatus) => `${orderId}-${event}`;

export const shortId = (orderId: string) => orderId.slice(0, 8).toUpperCase();

const HEADLINES: Record<'placed' | OrderStatus, string> = {
  placed: 'We have received your order',
  pending: 'Your order is waiting for confirmation',
  confirmed: 'Your order is confirmed',
  shipped: 'Your order is on its way',
  delivered: 'Your order was delivered',
  cancelled: 'Your order was cancelled',
  refused: 'Your order was refused at delivery',
};

function amountLine(event: 'placed' | OrderStatus, totalCents: number): string {
  const amount = `$${formatCents(totalCents)}`;
  if (event === 'delivered') return `Paid in cash on delivery: ${amount}`;
  if (event === 'cancelled' || event === 'refused') return `Nothing is due (the order came to ${amount}).`;
  return `Cash due on delivery: ${amount}`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function orderMail(orderId: string, order: MailOrder, event: 'placed' | OrderStatus, note?: string): MailDoc {
  const headline = HEADLINES[event];
  const amount = amountLine(event, order.totalCents);
  const lines = order.lines.map((l) => `- ${l.title}: $${formatCents(l.unitPriceCents)}`);
  const text = [
    `Hello ${order.name},`,
    '',
    `${headline}. Order ${shortId(orderId)}:`,
    ...lines,
    '',
    amount,
    ...(note ? ['', `Note: ${note}`] : []),
  ].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(order.name)},</p>`,
    `<p>${headline}. Order <strong>${shortId(orderId)}</strong>:</p>`,
    `<ul>${order.lines.map((l) => `<li>${escapeHtml(l.title)}: $${formatCents(l.unitPriceCents)}</li>`).join('')}</ul>`,
    `<p><strong>${escapeHtml(amount)}</strong></p>`,
    ...(note ? [`<p>Note: ${escapeHtml(note)}</p>`] : []),
  ].join('\n');
  return { to: order.email, message: { subject: `${headline} (order ${shortId(orderId)})`, text, html } };
}
