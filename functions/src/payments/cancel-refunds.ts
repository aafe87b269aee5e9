import { createHash } from 'node:crypto';
import { fromCents, refundedCentsOf, type Order, type ParsedRefundRequest } from '@bookstore/contract';
import { logger } from 'firebase-functions/logger';
import type { AuditActor } from '../admin/audit.repo';
import { HttpError } from '../lib/http-error';
import { orderFromDoc } from '../orders/orders.repo';
import { requireStripe } from './stripe-client';
import { refundStatusOf } from './payment-facts';
import { applyPaymentFact, cancelRefundsDue, markClosingForCancel, noteRefundProblem, readOrder, stopRetrying } from './payments.repo';
import { recordRefund } from './refunds.repo';
import type { Fact } from './payment-facts';
import { closeSession } from './sessions';
import { stripeFromEnv } from './stripe-client';

// Issue 41 (docs/decisions/041-preorders.md): a paid card order with a pre-order still waiting is
// refunded when it is cancelled, by whoever cancels it. The cancel's own transaction puts the gift
// card's part back (decision 040: the card first) and records the money it owes as `refundDue`
// (orders.repo.ts planTransition); this makes that refund after the commit, through the payments
// code's refund path: Stripe's Refunds API, then recordRefund (counters, the refund mail, the
// customer's order page). Exactly once: the refund's id and its Stripe idempotency key are the
// order's own (cancelRefundId), so two cancels at once, or a cancel sent again after Stripe did not
// answer, ask for the same refund and record it once. Never more than was paid: a refund made since
// the cancel (at the desk) that leaves less than what is due stops it, and Stripe refuses more
// than the charge.

export const CANCEL_REFUND_REASON = 'Pre-order cancelled: refunded in full';

/** Makes the refund a cancelled order owes, if it still owes one; the order as it then is (null: it owed none). */
export async function settleCancelRefund(orderId: string, actor?: AuditActor): Promise<Order | null> {
  const doc = await readOrder(orderId);
  const due = doc?.refundDue;
  const payment = doc?.payment;
  if (!doc || !due || payment?.method !== 'card') {
    if (doc?.refundRetryAt) await stopRetrying(orderId);
    return null;
  }
  const refunds = payment.refunds ?? [];
  const made = refunds.find((r) => r.id === due.refundId);
  if (made && made.status !== 'failed' && made.requestHash) {
    if (doc.refundRetryAt) await stopRetrying(orderId);
    return orderFromDoc(orderId, doc); // done (by a cancel sent at the same time)
  }
  // Refunds since the cancel (the desk's, Stripe's dashboard) may leave less than it owes: the part
  // that can still be made is made, and the rest is listed for the desk (issue 54), never dropped.
  const refundable = made ? due.cents : Math.min(due.cents, (payment.paidCents ?? 0) - refundedCentsOf(refunds));
  if (refundable <= 0) {
    logger.warn('Cancel refund not made: refunds since the cancel leave nothing of it', { orderId, dueCents: due.cents, refundedCents: refundedCentsOf(refunds) });
    await noteShortfall(orderId, due.cents, 0);
    if (doc.refundRetryAt) await stopRetrying(orderId);
    return null;
  }
  if (!payment.paymentIntentId) throw new HttpError(409, 'This order has no card payment to refund', { code: 'REFUND_EXCEEDS_PAYMENT', refundable: 0 });
  const request: ParsedRefundRequest = { amount: fromCents(refundable), reason: due.reason ?? CANCEL_REFUND_REASON, restock: [], destination: undefined };
  const requestHash = createHash('sha256').update(JSON.stringify(request)).digest('hex');
  const { stripe } = requireStripe();
  // One key per order's cancel refund: a retry (the hourly job, a cancel sent again) is the same refund at Stripe.
  const refund = await stripe.refunds.create(
    { payment_intent: payment.paymentIntentId, amount: refundable, reason: 'requested_by_customer', metadata: { orderId, refundId: due.refundId } },
    { idempotencyKey: `refund-${due.refundId}` },
  );
  const answer = await recordRefund({ orderId, refundId: due.refundId, requestHash, request, actor }, { id: refund.id, amountCents: refund.amount, status: refundStatusOf(refund.status) });
  if (refundable < due.cents) await noteShortfall(orderId, due.cents, refundable);
  // Stripe answered (even a refund that failed): recorded where the desk sees it. Asking again under
  // the same key would only get the same answer back, so the job stops here.
  await stopRetrying(orderId);
  return answer.order;
}

/** How long after a cancel the job first tries its refund again: the cancel's own try has had its turn. */
export const CANCEL_REFUND_GRACE_MS = 10 * 60_000;
export const CANCEL_REFUND_BATCH = 50;

export interface CancelRefundReport {
  refunded: string[];
  skipped: string[];
}

/**
 * Part of the hourly `releaseHolds` job (index.ts): a cancelled order whose refund Stripe did not
 * make at the cancel (it did not answer, or refused for a while) is refunded now, through the same
 * settle as the cancel, so a cancel, the desk and two runs at once make it once between them (its
 * refund id and Stripe idempotency key are the order's own). One that fails waits for the next run.
 */
export async function retryCancelRefunds(now = new Date()): Promise<CancelRefundReport> {
  const report: CancelRefundReport = { refunded: [], skipped: [] };
  const before = new Date(now.getTime() - CANCEL_REFUND_GRACE_MS).toISOString();
  const due = await cancelRefundsDue(before, CANCEL_REFUND_BATCH);
  for (const id of due) {
    try {
      if (await settleCancelRefund(id)) report.refunded.push(id);
    } catch (error) {
      logger.error('Cancel refund not made yet', { orderId: id, message: (error as Error).message });
      report.skipped.push(id);
    }
  }
  if (due.length) logger.info('Cancel refunds tried again', { refunded: report.refunded.length, skipped: report.skipped.length, orderIds: report.refunded });
  return report;
}

/**
 * A cancel (the customer's or the desk's) with its refund: `cancel` commits the order's move; the
 * refund it owes is made after. A cancel refused as already done (409: sent twice at once, or again
 * after Stripe did not answer) still completes that refund, once. Stripe failing leaves the cancel
 * done and the refund due: logged, and made by the hourly job (retryCancelRefunds), a cancel sent again or the desk.
 */
export async function cancelWithRefund(orderId: string, actor: AuditActor | undefined, cancel: () => Promise<Order>, ownerUid?: string): Promise<Order> {
  // Every cancel closes its payment first (issue 54): an unpaid card order's page stops taking cards.
  await expireSessionQuietly(orderId, ownerUid);
  const settle = async () => {
    try {
      return await settleCancelRefund(orderId, actor);
    } catch (error) {
      logger.error('Cancel refund not made yet', { orderId, message: (error as Error).message });
      return null;
    }
  };
  let order: Order;
  try {
    order = await cancel();
  } catch (error) {
    if (error instanceof HttpError && error.status === 409) await settle();
    throw error;
  }
  return (await settle()) ?? order;
}

/** The part of a cancel's refund that could not be made: on the payment problems queue (issue 54). */
async function noteShortfall(orderId: string, dueCents: number, madeCents: number): Promise<void> {
  const message = `The cancel owed $${fromCents(dueCents).toFixed(2)} back; only $${fromCents(madeCents).toFixed(2)} could still be refunded (refunds since the cancel).`;
  await noteRefundProblem(orderId, message, 'Settle the rest with the customer, or refund it in Stripe.');
}

/**
 * Before an unpaid card order is cancelled (by the customer, the desk or a special order's cancel):
 * its session closed at Stripe, so the page stops taking cards. If Stripe cannot be reached the
 * cancel goes on; a payment that still arrives is refunded in full at once (applyAndSettle).
 */
export async function expireSessionQuietly(orderId: string, ownerUid?: string): Promise<void> {
  const doc = await readOrder(orderId);
  const p = doc?.payment;
  if (!doc || (ownerUid !== undefined && doc.uid !== ownerUid)) return;
  if (p?.method !== 'card' || (p.paidCents ?? 0) > 0 || !p.sessionId || doc.status !== 'pending') return;
  const s = stripeFromEnv();
  if (!s) return;
  try {
    await markClosingForCancel(orderId, p.sessionId);
    await closeSession(s.stripe, orderId, p.sessionId);
  } catch (error) {
    logger.warn('Could not close the Checkout session before a cancel', { orderId, sessionId: p.sessionId, message: (error as Error).message });
  }
}

/**
 * A Stripe fact applied (payments.repo.ts applyPaymentFact), then the refund it made owed, at once:
 * a payment that landed on a cancelled order goes back in full (issue 54). Stripe failing here
 * leaves the refund due for the hourly job (retryCancelRefunds), never dropped.
 */
export async function applyAndSettle(eventId: string, type: string, orderId: string | null, fact: Fact) {
  const answer = await applyPaymentFact(eventId, type, orderId, fact);
  if (answer.refundDue && orderId) {
    try {
      await settleCancelRefund(orderId);
    } catch (error) {
      logger.error('Refund of a payment after cancel not made yet', { orderId, message: (error as Error).message });
    }
  }
  return answer;
}
