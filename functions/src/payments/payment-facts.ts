import { cardPaymentStatus, committedRefundCents, formatCents, refundedCentsOf, type PaymentProblem, type RefundStatus, type StoredPayment, type StoredRefund } from '@bookstore/contract';
import type Stripe from 'stripe';
import { CURRENCY } from './checkout-session';

// What a Stripe event says about an order's payment, as a fact, and the payment after the fact.
// Facts are recorded, never replayed as deltas: the status is derived from them
// (contract cardPaymentStatus), so events applied in any order give the same payment. Pure: the
// transaction around it (payments.repo.ts) makes each event count once.

export type Fact =
  | { kind: 'paid'; sessionId: string; amountCents: number; currency: string; paymentIntentId?: string }
  | { kind: 'failed'; sessionId: string }
  | { kind: 'expired'; sessionId: string }
  | { kind: 'refunds'; refunds: StripeRefundFact[] }
  | { kind: 'none'; why: string };

export interface StripeRefundFact {
  stripeRefundId: string;
  amountCents: number;
  status: RefundStatus;
  /** Our refund's id when the desk asked for it (its metadata), else absent: made in Stripe. */
  ourId?: string;
  reason?: string;
}

/** Stripe's refund statuses in ours: pending and succeeded count; failed and canceled do not. */
export function refundStatusOf(status: string | null | undefined): RefundStatus {
  if (status === 'succeeded') return 'succeeded';
  if (status === 'failed' || status === 'canceled') return 'failed';
  return 'pending'; // pending, requires_action: Stripe already counts them in amount_refunded
}

export function refundFact(r: Stripe.Refund): StripeRefundFact {
  return {
    stripeRefundId: r.id,
    amountCents: r.amount,
    status: refundStatusOf(r.status),
    ...(r.metadata?.refundId ? { ourId: r.metadata.refundId } : {}),
    ...(r.reason ? { reason: r.reason.replace(/_/g, ' ') } : {}),
  };
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

/** The order a Checkout event is about (our metadata, else the reference id), or null. */
export function sessionOrderId(session: Stripe.Checkout.Session): string | null {
  return session.metadata?.orderId || session.client_reference_id || null;
}

/** The PaymentIntent a refund event is about: the order is found through its metadata. */
export function refundPaymentIntent(event: Stripe.Event): string | null {
  const object = event.data.object as { object?: string; payment_intent?: string | { id: string } | null };
  if (object.object !== 'charge' && object.object !== 'refund') return null;
  return idOf(object.payment_intent) ?? null;
}

/** The fact a Checkout event states (refund events are read with the payment's refunds: factsOfRefunds). */
export function sessionFact(event: Stripe.Event): Fact {
  const session = event.data.object as Stripe.Checkout.Session;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      // completed with payment_status unpaid: a delayed method, decided by async_payment_* later.
      if (session.payment_status !== 'paid') return { kind: 'none', why: `session ${session.payment_status}` };
      return { kind: 'paid', sessionId: session.id, amountCents: session.amount_total ?? 0, currency: session.currency ?? '', ...(idOf(session.payment_intent) ? { paymentIntentId: idOf(session.payment_intent) } : {}) };
    case 'checkout.session.async_payment_failed':
      return { kind: 'failed', sessionId: session.id };
    case 'checkout.session.expired':
      return { kind: 'expired', sessionId: session.id };
    default:
      return { kind: 'none', why: `not a payment event (${event.type})` };
  }
}

export interface Outcome {
  payment: StoredPayment;
  /** The payment was received just now (and matched): the confirmation mail, the collected counter. */
  newlyPaid: boolean;
  /** The order's current session ran out unpaid: cancel it (stock back) with the payment. */
  cancel: boolean;
  /** Refunds whose effects (counters, stock, mail) apply now (+1), or are taken back (-1: failed at the bank). */
  refundEffects: { refund: StoredRefund; sign: 1 | -1 }[];
  /** Why nothing changed, for the event's record and the log. */
  note?: string;
}

const problem = (code: PaymentProblem['code'], message: string, at: string): PaymentProblem => ({ code, message, at });

/**
 * The payment after `fact`, for an order in `orderStatus`. Money received is always recorded (never
 * dropped, whatever else happened): paid twice or after a cancellation, or an amount or currency
 * that is not the order's, is flagged for the desk instead of being accepted.
 */
export function applyFact(payment: StoredPayment, orderStatus: string, fact: Fact, at: string): Outcome {
  const same: Outcome = { payment, newlyPaid: false, cancel: false, refundEffects: [] };
  const next = (p: StoredPayment): StoredPayment => ({ ...p, status: cardPaymentStatus(p), refundedCents: refundedCentsOf(p.refunds ?? []) });
  switch (fact.kind) {
    case 'none':
      return { ...same, note: fact.why };
    case 'paid': {
      if (payment.paymentIntentId === fact.paymentIntentId && (payment.paidCents ?? 0) > 0) return { ...same, note: 'payment already recorded' };
      if ((payment.paidCents ?? 0) > 0) {
        // A second session paid too: keep the first, flag the second for a refund by the desk.
        return { ...same, payment: { ...payment, problem: problem('PAID_TWICE', `A second payment of $${formatCents(fact.amountCents)} arrived (session ${fact.sessionId}): refund it in Stripe.`, at) }, note: 'paid twice' };
      }
      const recorded: StoredPayment = { ...payment, paidCents: fact.amountCents, paidAt: at, sessionId: fact.sessionId, ...(fact.paymentIntentId ? { paymentIntentId: fact.paymentIntentId } : {}) };
      delete recorded.checkoutUrl;
      if (fact.amountCents !== payment.amountCents || fact.currency !== CURRENCY) {
        const message = `Stripe received ${fact.currency.toUpperCase()} ${formatCents(fact.amountCents)} for an order of USD ${formatCents(payment.amountCents)}: check it in Stripe and refund or settle it.`;
        return { ...same, payment: next({ ...recorded, problem: problem('AMOUNT_MISMATCH', message, at) }), note: 'amount mismatch' };
      }
      if (orderStatus === 'cancelled') {
        return { ...same, payment: next({ ...recorded, problem: problem('PAID_AFTER_CANCEL', 'Paid after the order was cancelled: refund it.', at) }), newlyPaid: true, note: 'paid after cancel' };
      }
      return { ...same, payment: next(recorded), newlyPaid: true };
    }
    case 'failed':
      if ((payment.paidCents ?? 0) > 0 || fact.sessionId !== payment.sessionId) return { ...same, note: 'not the current unpaid session' };
      return { ...same, payment: next({ ...payment, failed: true }) };
    case 'expired': {
      // Only the order's current session ends it: an older one was replaced by 'Pay Now', and a
      // paid or already cancelled order has nothing left to expire.
      if ((payment.paidCents ?? 0) > 0) return { ...same, note: 'already paid' };
      if (fact.sessionId !== payment.sessionId || (payment.retiredSessions ?? []).includes(fact.sessionId)) return { ...same, note: 'not the current session' };
      if (orderStatus === 'cancelled') return { ...same, payment: next({ ...payment, expired: true }), note: 'already cancelled' };
      return { ...same, payment: next({ ...payment, expired: true }), cancel: true };
    }
    case 'refunds': {
      // Each refund by its Stripe id: one already recorded (by the desk or an earlier event) changes nothing.
      let outcome: Outcome = { ...same };
      for (const refund of fact.refunds) {
        const step = applyRefund(outcome.payment, refund, at, next);
        outcome = { ...outcome, payment: step.payment, refundEffects: [...outcome.refundEffects, ...step.refundEffects] };
      }
      return outcome.payment === payment ? { ...same, note: 'refunds already recorded' } : outcome;
    }
  }
}

function applyRefund(payment: StoredPayment, fact: StripeRefundFact, at: string, next: (p: StoredPayment) => StoredPayment): Outcome {
  const refunds = [...(payment.refunds ?? [])];
  const i = refunds.findIndex((r) => r.stripeRefundId === fact.stripeRefundId || (fact.ourId !== undefined && r.id === fact.ourId));
  const before = i >= 0 ? refunds[i]! : undefined;
  if (before && before.stripeRefundId === fact.stripeRefundId && before.status === fact.status && before.amountCents === fact.amountCents) {
    return { payment, newlyPaid: false, cancel: false, refundEffects: [], note: 'refund already recorded' };
  }
  // Once final, a refund does not go back to pending (events arrive out of order).
  const status = before?.status === 'succeeded' || before?.status === 'failed' ? (fact.status === 'failed' ? 'failed' : before.status) : fact.status;
  const after: StoredRefund = before
    ? { ...before, stripeRefundId: fact.stripeRefundId, amountCents: fact.amountCents, status }
    : fact.ourId
      // The desk's refund, whose answer has not been recorded yet: under the desk's id, which completes it.
      ? { id: fact.ourId, stripeRefundId: fact.stripeRefundId, amountCents: fact.amountCents, status, source: 'desk', reason: 'Refund from the shop', at, restock: [] }
      : { id: `stripe-${fact.stripeRefundId}`, stripeRefundId: fact.stripeRefundId, amountCents: fact.amountCents, status, source: 'stripe', reason: fact.reason ?? 'Refunded in Stripe', at, restock: [] };
  if (i >= 0) refunds[i] = after;
  else refunds.push(after);
  return { ...settleEffects(before, after), payment: next({ ...payment, refunds }) };
}

/** Whether a refund's effects apply now or are taken back, given its record before and after. */
export function settleEffects(before: StoredRefund | undefined, after: StoredRefund): Pick<Outcome, 'refundEffects' | 'newlyPaid' | 'cancel'> {
  const counts = (r: StoredRefund | undefined) => !!r && (r.status === 'pending' || r.status === 'succeeded');
  const applied = !!before?.applied;
  if (counts(after) && !applied) return { newlyPaid: false, cancel: false, refundEffects: [{ refund: { ...after, applied: true }, sign: 1 }] };
  if (!counts(after) && applied) return { newlyPaid: false, cancel: false, refundEffects: [{ refund: { ...after, applied: false }, sign: -1 }] };
  return { newlyPaid: false, cancel: false, refundEffects: [] };
}

/** The refunds with each effect's `applied` mark set as the outcome says. */
export function markApplied(refunds: readonly StoredRefund[], effects: Outcome['refundEffects']): StoredRefund[] {
  return refunds.map((r) => effects.find((e) => e.refund.id === r.id)?.refund ?? r);
}

/** Whether a new refund of `cents` fits beside the refunds made or reserved. */
export const fitsRefund = (payment: StoredPayment, cents: number) => committedRefundCents(payment.refunds ?? []) + cents <= (payment.paidCents ?? 0);
