import type { StoredPayment } from '@bookstore/contract';
import { logger } from 'firebase-functions/logger';
import { sessionFact, type Fact } from './payment-facts';
import { applyPaymentFact, dueUnpaidOrders, postponeDeadline } from './payments.repo';
import { stripeFromEnv, type Stripe } from './stripe-client';

// Part of the hourly `releaseHolds` job (index.ts): an unpaid card order whose session has ended is
// cancelled and restocked even if Stripe's checkout.session.expired event never arrives. The job
// asks Stripe first: a session paid after all is recorded as paid (its completed event was lost);
// one still open waits for its end. Each outcome goes through the same transaction as the events,
// keyed on the session, so the job, a late event and a second run apply it once between them.

export const UNPAID_BATCH = 200;

export interface UnpaidReport {
  cancelled: string[];
  paid: string[];
  waiting: string[];
  skipped: string[];
}

const asEvent = (id: string, type: string, session: Stripe.Checkout.Session) => ({ id, type, data: { object: session } }) as unknown as Stripe.Event;

export async function expireUnpaidOrders(now = new Date()): Promise<UnpaidReport> {
  const report: UnpaidReport = { cancelled: [], paid: [], waiting: [], skipped: [] };
  const due = await dueUnpaidOrders(now, UNPAID_BATCH);
  const s = due.length ? stripeFromEnv() : null;
  for (const { id, payment } of due) {
    try {
      await lookAt(id, payment, s, now, report);
    } catch (error) {
      // One order's failure (a busy transaction, Stripe timing out) must not stop the others: next run.
      logger.error('Unpaid order: not settled this run', { orderId: id, message: (error as Error).message });
      report.skipped.push(id);
    }
  }
  // Issue 54: an order the job could not move is looked at again in an hour, behind the others, so
  // the first UNPAID_BATCH of the query never fill up with orders it cannot move (they are listed).
  for (const id of report.skipped) {
    await postponeDeadline(id, Math.floor(now.getTime() / 1000) + 3600).catch((error: unknown) => logger.warn('Unpaid order: deadline not moved', { orderId: id, message: (error as Error).message }));
  }
  if (due.length) logger.info('Unpaid card orders looked at', { cancelled: report.cancelled.length, paid: report.paid.length, waiting: report.waiting.length, skipped: report.skipped.length, orderIds: report.cancelled, skippedIds: report.skipped });
  return report;
}

async function lookAt(id: string, payment: StoredPayment, s: ReturnType<typeof stripeFromEnv>, now: Date, report: UnpaidReport): Promise<void> {
  {
    let key: string;
    let fact: Fact;
    if (!payment.sessionId) {
      // Stripe never opened a session for it (it did not answer at checkout): nothing can be paid.
      key = `job-${id}-no-session-${payment.attempts ?? 0}`;
      fact = { kind: 'expired', sessionId: payment.sessionId as unknown as string };
    } else {
      if (!s) {
        report.skipped.push(id); // card payments turned off: nobody can confirm with Stripe
        return;
      }
      let session: Stripe.Checkout.Session;
      try {
        session = await s.stripe.checkout.sessions.retrieve(payment.sessionId);
      } catch (error) {
        logger.warn('Unpaid order: Stripe did not answer', { orderId: id, message: (error as Error).message });
        report.skipped.push(id);
        return;
      }
      if (session.status === 'open' || (session.status === 'complete' && session.payment_status === 'unpaid')) {
        await postponeDeadline(id, Math.max(session.expires_at, Math.floor(now.getTime() / 1000) + 3600));
        report.waiting.push(id);
        return;
      }
      const type = session.status === 'expired' ? 'checkout.session.expired' : 'checkout.session.completed';
      key = `job-${session.id}-${session.status}`;
      fact = sessionFact(asEvent(key, type, session));
    }
    const { result, order } = await applyPaymentFact(key, 'job', id, fact);
    if (result !== 'applied') report.skipped.push(id);
    else if (order?.status === 'cancelled') report.cancelled.push(id);
    else report.paid.push(id);
  }
}
