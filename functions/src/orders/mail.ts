import type { DeliveryMethod, OrderPickup, OrderStatus, StoredCharges } from '@bookstore/contract';
import { formatCents, formatDate, ratePercentLabel, shortOrderId } from '@bookstore/contract';
import type { MailDoc } from '../lib/mail-queue';
import { escapeHtml } from '../lib/html';

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
  /** Issue 35: paid by card (and what Stripe received so far); absent for cash. */
  paidBy?: 'card';
  paidCents?: number;
}

/** One mail per order and event: placement, or the arrival in a status (each is reached at most once). */
export const mailId = (orderId: string, event: 'placed' | OrderStatus) => `${orderId}-${event}`;

export const shortId = (orderId: string) => shortOrderId(orderId).toUpperCase();

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
  if (order.paidBy === 'card') {
    const paid = order.paidCents ?? 0;
    if (paid === 0) return event === 'cancelled' ? `Nothing was charged (the order came to ${amount}).` : `To pay by card: ${amount}`;
    return event === 'cancelled' ? `You paid ${$(paid)} by card: any refund is listed on your order.` : `Paid by card: ${$(paid)}`;
  }
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

export function orderMail(orderId: string, order: MailOrder, event: 'placed' | OrderStatus, note?: string, headlineOverride?: string): MailDoc {
  const headline = headlineOverride ?? HEADLINES[event];
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

// --- Payments (issue 35) ----------------------------------------------------------------------

/** One payment confirmation per order (the id makes a second one impossible); one mail per refund. */
export const paymentMailId = (orderId: string) => `${orderId}-paid`;
export const refundMailId = (orderId: string, refundId: string) => `${orderId}-refund-${refundId}`;

/** The card payment's confirmation: the order's first mail for a card order (none is sent at placement). */
export function paymentMail(orderId: string, order: MailOrder): MailDoc {
  return orderMail(orderId, order, 'placed', undefined, 'Your payment was received');
}

/** A refund, from the desk or from Stripe. */
/** A refund's mail: where each part went (issue 54: the customer hears of every refund, whatever its destination). */
export function refundMail(orderId: string, order: MailOrder, refundCents: number, byCard: boolean, giftCard?: { cents: number; last4: string }, storeCredit?: { code: string }): MailDoc {
  const headline = 'We have refunded part of your order';
  const money = storeCredit
    ? `${$(refundCents)} is yours as store credit on a new gift card: ${storeCredit.code} (use it at checkout or at the counter).`
    : byCard ? `${$(refundCents)} is on its way back to your card (it can take 5 to 10 days to show).` : `${$(refundCents)} was refunded to you.`;
  const lines = [
    ...(giftCard ? [`${$(giftCard.cents)} is back on your gift card ending ${giftCard.last4}.`] : []),
    ...(refundCents > 0 ? [money] : []),
  ];
  const total = refundCents + (giftCard?.cents ?? 0);
  const text = [`Hello ${order.name},`, '', `${headline}. Order ${shortId(orderId)}:`, ...lines].join('\n');
  const html = [`<p>Hello ${escapeHtml(order.name)},</p>`, `<p>${headline}. Order <strong>${shortId(orderId)}</strong>:</p>`, ...lines.map((l) => `<p>${escapeHtml(l)}</p>`)].join('\n');
  return { to: order.email, message: { subject: `Refund of ${$(total)} (order ${shortId(orderId)})`, text, html } };
}

/** A refund that failed at the bank (refund.failed, issue 54): the correction the customer is owed. */
export function refundFailedMail(orderId: string, order: MailOrder, refundCents: number): MailDoc {
  const headline = 'A refund could not be completed';
  const line = `The refund of ${$(refundCents)} to your card was returned by your bank, so the money has not reached you yet. We will contact you to settle it.`;
  const text = [`Hello ${order.name},`, '', `${headline}. Order ${shortId(orderId)}:`, line].join('\n');
  const html = [`<p>Hello ${escapeHtml(order.name)},</p>`, `<p>${headline}. Order <strong>${shortId(orderId)}</strong>:</p>`, `<p>${escapeHtml(line)}</p>`].join('\n');
  return { to: order.email, message: { subject: `Refund of ${$(refundCents)} not completed (order ${shortId(orderId)})`, text, html } };
}
