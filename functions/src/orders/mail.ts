import type { DeliveryMethod, OrderPickup, OrderStatus, StoredCharges } from '@bookstore/contract';
import { formatCents, formatDate, ratePercentLabel } from '@bookstore/contract';
import type { MailDoc } from '../lib/mail-queue';

// The order mails: one per order and event, queued (lib/mail-queue.ts) in the same transaction as
// the change it announces and sent by the shop's own `sendMail` function.

export { MAIL_COLLECTION, type MailDoc } from '../lib/mail-queue';

export interface MailOrder {
  name: string;
  email: string;
  totalCents: number;
  lines: { title: string; unitPriceCents: number }[];
  /** Issue 27: how the order is fulfilled, what it adds up to, and where it is collected. */
  method?: DeliveryMethod;
  charges?: StoredCharges;
  pickup?: OrderPickup;
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
  ready_for_pickup: 'Your order is ready for pickup',
  collected: 'Thank you for collecting your order',
};

const $ = (cents: number) => `$${formatCents(cents)}`;

function amountLine(event: 'placed' | OrderStatus, order: MailOrder): string {
  const amount = $(order.totalCents);
  if (event === 'cancelled' || event === 'refused') return `Nothing is due (the order came to ${amount}).`;
  if (order.method === 'pickup') return event === 'collected' ? `Paid at the counter: ${amount}` : `Pay at the counter when you collect: ${amount}`;
  if (event === 'delivered') return `Paid in cash on delivery: ${amount}`;
  return `Cash due on delivery: ${amount}`;
}

/** Subtotal, shipping and tax of an order priced with a method (none for older orders). */
function chargeLines(c: StoredCharges | undefined): string[] {
  if (!c) return [];
  const rate = ratePercentLabel(c.taxRateBp);
  return [
    `Subtotal: ${$(c.subtotalCents)}`,
    `Shipping: ${c.shippingCents === 0 ? 'free' : $(c.shippingCents)}`,
    ...(c.taxRateBp > 0 ? [c.taxIncluded ? `Includes ${c.taxLabel} (${rate}): ${$(c.taxCents)}` : `${c.taxLabel} (${rate}): ${$(c.taxCents)}`] : []),
  ];
}

/** Where and when to collect: on the ready mail (and the placement mail of a pickup order). */
function pickupLines(event: 'placed' | OrderStatus, order: MailOrder): string[] {
  const p = order.pickup;
  if (order.method !== 'pickup' || !p || (event !== 'ready_for_pickup' && event !== 'placed')) return [];
  return [
    `Collect it at: ${p.address.replace(/\s*\n\s*/g, ', ')}`,
    `Opening hours: ${p.hours.replace(/\s*\n\s*/g, ', ')}`,
    ...(event === 'ready_for_pickup' && p.holdUntil ? [`We keep it for you until ${formatDate(p.holdUntil)}.`] : []),
  ];
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function orderMail(orderId: string, order: MailOrder, event: 'placed' | OrderStatus, note?: string): MailDoc {
  const headline = HEADLINES[event];
  const amount = amountLine(event, order);
  const lines = order.lines.map((l) => `- ${l.title}: $${formatCents(l.unitPriceCents)}`);
  const charges = chargeLines(order.charges);
  const pickup = pickupLines(event, order);
  const text = [
    `Hello ${order.name},`,
    '',
    `${headline}. Order ${shortId(orderId)}:`,
    ...lines,
    '',
    ...(charges.length ? [...charges, ''] : []),
    amount,
    ...(pickup.length ? ['', ...pickup] : []),
    ...(note ? ['', `Note: ${note}`] : []),
  ].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(order.name)},</p>`,
    `<p>${headline}. Order <strong>${shortId(orderId)}</strong>:</p>`,
    `<ul>${order.lines.map((l) => `<li>${escapeHtml(l.title)}: $${formatCents(l.unitPriceCents)}</li>`).join('')}</ul>`,
    ...(charges.length ? [`<p>${charges.map(escapeHtml).join('<br>')}</p>`] : []),
    `<p><strong>${escapeHtml(amount)}</strong></p>`,
    ...(pickup.length ? [`<p>${pickup.map(escapeHtml).join('<br>')}</p>`] : []),
    ...(note ? [`<p>Note: ${escapeHtml(note)}</p>`] : []),
  ].join('\n');
  return { to: order.email, message: { subject: `${headline} (order ${shortId(orderId)})`, text, html } };
}
