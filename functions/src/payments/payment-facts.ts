import { cardPaymentStatus, committedRefundCents, disputeOpen, formatCents, refundedCentsOf, type PaymentProblem, type RefundStatus, type StoredDispute, type StoredPayment, type StoredRefund } from '@bookstore/contract';
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
  | { kind: 'dispute'; dispute: Omit<StoredDispute, 'lostCounted'> }
  | { kind: 'none'; why: string };

export interface StripeRefundFact {
  stripeRefundId: string;
  amountCents: number;
  status: RefundStatus;
  /** Our refund's id when the desk asked for it (its metadata), else absent: made in Stripe. */
  ourId?: string;
  reason?: string;
  /** Stripe's failure_reason for a refund that failed at the bank. */
  failureReason?: string;
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
    ...(r.failure_reason ? { failureReason: r.failure_reason.replace(/_/g, ' ') } : {}),
  };
}

/** The fact a charge.dispute.* event states (issue 54). */
export function disputeFact(d: Stripe.Dispute): Fact {
  const due = d.evidence_details?.due_by;
  return { kind: 'dispute', dispute: { id: d.id, status: d.status, amountCents: d.amount, reason: d.reason.replace(/_/g, ' '), ...(due ? { evidenceDueBy: new Date(due * 1000).toISOString() } : {}) } };
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

/** The order a Checkout event is about (our metadata, else the reference id), or null. */
export function sessionOrderId(session: Stripe.Checkout.Session): string | null {
  return session.metadata?.orderId || session.client_reference_id || null;
}

/** The PaymentIntent a refund or dispute event is about: the order is found through its metadata. */
export function paymentIntentOfEvent(event: Stripe.Event): string | null {
  const object = event.data.object as { object?: string; payment_intent?: string | { id: string } | null };
  if (object.object !== 'charge' && object.object !== 'refund' && object.object !== 'dispute') return null;
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
  /** Money arrived on an order that was cancelled: the shop refunds all of it at once (issue 54). */
  refundInFull?: boolean;
  /** A dispute lost just now: its amount leaves the money collected (once). */
  disputeLostCents?: number;
}

const problem = (code: PaymentProblem['code'], message: string, at: string): PaymentProblem => ({ code, message, at });

/** How long a session closed for a cancel is the cancel's to end (its expired event comes within seconds). */
export const CLOSING_FOR_CANCEL_MS = 2 * 60_000;

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
        // The books went back on the shelf: the money goes back too, in full and at once (issue 54).
        const flagged = { ...problem('PAID_AFTER_CANCEL', `$${formatCents(fact.amountCents)} was paid after the order was cancelled.`, at), done: 'Refunding it in full automatically.', action: 'Nothing, unless the refund fails: then refund it in Stripe.' };
        return { ...same, payment: next({ ...recorded, problem: flagged }), newlyPaid: true, refundInFull: true, note: 'paid after cancel' };
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
      // The shop closed it for a cancel under way (cancel-refunds.ts): the cancel, not the expiry, ends the order.
      const closing = payment.closingForCancel;
      if (closing?.sessionId === fact.sessionId && Date.parse(at) - Date.parse(closing.at) < CLOSING_FOR_CANCEL_MS) {
        return { ...same, payment: next({ ...payment, expired: true }), note: 'closed for a cancel' };
      }
      // The current session is the one the order holds: a new one replaces it only once opened (issue 54),
      // so an order whose current session ends is never left waiting for one that never came.
      if (fact.sessionId !== payment.sessionId) return { ...same, note: 'not the current session' };
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
      if (outcome.payment === payment) return { ...same, note: 'refunds already recorded' };
      // A refund that failed at the bank (refund.failed): the customer has not got the money back.
      const failed = outcome.refundEffects.filter((e) => e.sign < 0 && e.refund.status === 'failed');
      if (failed.length === 0) return outcome;
      const cents = failed.reduce((sum, e) => sum + e.refund.amountCents, 0);
      const why = failed.map((e) => e.refund.failureReason).filter(Boolean).join(', ');
      const flagged: PaymentProblem = {
        ...problem('REFUND_FAILED', `A refund of $${formatCents(cents)} failed at the bank${why ? ` (${why})` : ''}: the customer has not got it back.`, at),
        done: 'The customer was mailed that the refund did not go through.',
        action: 'Refund it again from the desk (the money is back in the Stripe balance), or settle it with the customer.',
      };
      return { ...outcome, payment: { ...outcome.payment, problem: flagged }, note: 'refund failed' };
    }
    case 'dispute':
      return applyDispute(payment, fact.dispute, at, same);
  }
}

/**
 * A chargeback (issue 54): the order carries the dispute; while it is open it is on the problems
 * queue (and the desk does not ship); closed, the problem is settled, and a lost one takes its
 * amount off the money collected, once.
 */
function applyDispute(payment: StoredPayment, dispute: Omit<StoredDispute, 'lostCounted'>, at: string, same: Outcome): Outcome {
  const before = payment.dispute;
  if (before && before.id === dispute.id && before.status === dispute.status && before.amountCents === dispute.amountCents) return { ...same, note: 'dispute already recorded' };
  // Events come in any order: a closed dispute does not reopen.
  if (before?.id === dispute.id && !disputeOpen(before) && disputeOpen(dispute)) return { ...same, note: 'dispute already closed' };
  const lostNow = dispute.status === 'lost' && !before?.lostCounted;
  const stored: StoredDispute = { ...dispute, ...(before?.lostCounted || lostNow ? { lostCounted: true } : {}) };
  const amount = `$${formatCents(dispute.amountCents)}`;
  const due = dispute.evidenceDueBy ? ` by ${dispute.evidenceDueBy.slice(0, 10)}` : '';
  const open = disputeOpen(dispute);
  const current = payment.problem;
  const mine = !current || current.resolvedAt || current.code === 'DISPUTED';
  let flagged = current;
  if (mine) {
    flagged = open
      ? { ...problem('DISPUTED', `The customer disputed ${amount} with their bank (${dispute.reason}).`, current?.code === 'DISPUTED' ? current.at : at), action: `Answer it in Stripe with the order's proof${due}. Do not ship the order until it is settled.` }
      : { ...problem('DISPUTED', `The dispute of ${amount} was ${dispute.status}.`, current?.at ?? at), done: dispute.status === 'lost' ? 'The money went back to the customer: taken off the money collected.' : 'The money stays with the shop.', resolvedAt: at };
  }
  const next: StoredPayment = { ...payment, dispute: stored, ...(flagged ? { problem: flagged } : {}) };
  return { ...same, payment: next, ...(lostNow ? { disputeLostCents: dispute.amountCents } : {}), note: `dispute ${dispute.status}` };
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
  const failure = status === 'failed' && fact.failureReason ? { failureReason: fact.failureReason } : {};
  const after: StoredRefund = before
    ? { ...before, stripeRefundId: fact.stripeRefundId, amountCents: fact.amountCents, status, ...failure }
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

/**
 * The automatic refund of a payment after cancel (issue 54), once recorded (by the shop's own record
 * or Stripe's event, whichever comes first), settles its PAID_AFTER_CANCEL problem, or says it failed.
 */
export function withAutoRefundSettled(payment: StoredPayment, refundId: string | undefined, at: string): StoredPayment {
  const p = payment.problem;
  const refund = refundId ? (payment.refunds ?? []).find((r) => r.id === refundId) : undefined;
  if (p?.code !== 'PAID_AFTER_CANCEL' || p.resolvedAt || !refund) return payment;
  const ok = refund.status !== 'failed';
  const done = `Refunded $${formatCents(refund.amountCents)} automatically${ok ? '' : ': the refund failed'}.`;
  return { ...payment, problem: { ...p, done, ...(ok ? { resolvedAt: at } : {}) } };
}

/** Whether a new refund of `cents` fits beside the refunds made or reserved. */
export const fitsRefund = (payment: StoredPayment, cents: number) => committedRefundCents(payment.refunds ?? []) + cents <= (payment.paidCents ?? 0);
