import { CHECKOUT_SESSION_MINUTES, shortOrderId, sumCents, type StoredOrder } from '@bookstore/contract';
import type Stripe from 'stripe';

// What the shop asks Stripe Checkout for: built on the server from the stored order (never from the
// client, never from a Stripe product catalogue), so Stripe charges exactly what the order says.

export const CURRENCY = 'usd';

type LineItem = Stripe.Checkout.SessionCreateParams.LineItem;

const line = (name: string, cents: number): LineItem => ({
  quantity: 1,
  price_data: { currency: CURRENCY, unit_amount: cents, product_data: { name: name.slice(0, 250) } },
});

/**
 * One line per book at the price it was sold for, then shipping and (when added on top) tax, as
 * the order was priced. They must add up to the order's total; if they ever did not (a rounding
 * rule changed), one line for the whole order is charged instead: the total is what counts.
 */
export function lineItems(orderId: string, order: Pick<StoredOrder, 'items' | 'charges' | 'totalCents'>): LineItem[] {
  const lines = (order.items ?? []).map((l) => line(l.title, l.unitPriceCents));
  const c = order.charges;
  if (c && c.shippingCents > 0) lines.push(line('Shipping', c.shippingCents));
  if (c && !c.taxIncluded && c.taxCents > 0) lines.push(line(c.taxLabel || 'Tax', c.taxCents));
  const cents = sumCents(lines.map((l) => l.price_data!.unit_amount!));
  if (cents === order.totalCents && lines.every((l) => l.price_data!.unit_amount! > 0)) return lines;
  return [line(`Order ${shortOrderId(orderId).toUpperCase()}`, order.totalCents)];
}

export interface SessionRequest {
  orderId: string;
  order: Pick<StoredOrder, 'items' | 'charges' | 'totalCents' | 'email'>;
  /** The shop's origin: the page Checkout returns to is the order's own. */
  origin: string;
  /** 1 for the order's first session, then one more per 'Pay Now'. */
  attempt: number;
  now?: number;
}

/** The Checkout Session's parameters (mode payment, 30 minutes, the order's id twice). */
export function sessionParams({ orderId, order, origin, attempt, now = Date.now() }: SessionRequest): Stripe.Checkout.SessionCreateParams {
  const page = `${origin}/orders/${encodeURIComponent(orderId)}`;
  return {
    mode: 'payment',
    // Card only (issue 54): a delayed method (a bank debit) would leave the order 'unpaid' for days
    // while its page offered 'Pay Now', and a second payment could follow. Delayed methods are a
    // later decision (docs/decisions/030-card-payments.md). Since API version 2026-10-28 Checkout
    // takes the list as `allowed_payment_method_types` (the SDK pinned in stripe-client.ts has no
    // `payment_method_types` for sessions): whatever the account enables, only cards are offered.
    allowed_payment_method_types: ['card'],
    line_items: lineItems(orderId, order),
    client_reference_id: orderId,
    metadata: { orderId, attempt: String(attempt) },
    // The PaymentIntent carries the order too: a refund's event names only the payment (charge.refunded).
    payment_intent_data: { metadata: { orderId } },
    customer_email: order.email,
    // Stripe's shortest session; a minute more is asked so the request's own time does not make it too short.
    expires_at: Math.floor(now / 1000) + CHECKOUT_SESSION_MINUTES * 60 + 60,
    success_url: `${page}?checkout=success`,
    cancel_url: `${page}?checkout=cancelled`,
  };
}

/** One key per order attempt: a retried request (ours or the SDK's) opens the same session. */
export const sessionIdempotencyKey = (orderId: string, attempt: number) => `checkout-${orderId}-${attempt}`;

/**
 * The time a session's expiry is counted from. Stripe refuses a key sent again with other
 * parameters, so the first session's expiry is counted from the order's placement: a retry within a
 * minute (Stripe did not answer in time, the client sent the order again) asks for exactly what the
 * first request asked, and gets the session it may have opened. Later, or for a new attempt, the clock.
 */
export function sessionClock(order: { createdAt: string }, attempt: number, now = Date.now()): number {
  const placedAt = Date.parse(order.createdAt);
  return attempt === 1 && now - placedAt >= 0 && now - placedAt < 60_000 ? placedAt : now;
}
