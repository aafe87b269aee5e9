import { logger } from 'firebase-functions/logger';
import type { AuditActor } from '../admin/audit.repo';
import { HttpError } from '../lib/http-error';
import { runQuery } from '../lib/queries';
import { sales } from './sales.repo';
import { cancelTerminalSale } from './terminal';

// Part of the hourly `releaseHolds` job (index.ts; issue 57): a card-reader sale still waiting for its
// card long after it was sent (the till closed or lost its network before anyone pressed Cancel, and
// nobody presented a card) holds copies nobody is buying. It is cancelled as the till's Cancel does
// (terminal.ts): the reader's action stopped, the PaymentIntent cancelled at Stripe, then the copies,
// the gift card's part and the discount code's use given back, once. One Stripe just took the money
// for is completed instead (cancelTerminalSale finds it succeeded), so nothing paid is ever undone.

/** How long a sale may wait for its card before the job cancels it. */
export const TERMINAL_SALE_EXPIRY_MS = 15 * 60 * 1000;
/** Sales looked at per run: the oldest first; the rest the next hour. */
export const TERMINAL_EXPIRY_BATCH = 100;

const JOB_ACTOR: AuditActor = { username: 'job:releaseHolds', role: 'owner' };

export interface TerminalExpiryReport {
  cancelled: string[];
  completed: string[];
  skipped: string[];
}

export async function expireTerminalSales(now = new Date()): Promise<TerminalExpiryReport> {
  const report: TerminalExpiryReport = { cancelled: [], completed: [], skipped: [] };
  const cutoff = new Date(now.getTime() - TERMINAL_SALE_EXPIRY_MS).toISOString();
  const due = await runQuery(sales().where('status', '==', 'awaiting_payment').where('receivedAt', '<', cutoff).orderBy('receivedAt').limit(TERMINAL_EXPIRY_BATCH));
  for (const doc of due.docs) {
    try {
      const sale = await cancelTerminalSale(JOB_ACTOR, doc.id);
      (sale.status === 'complete' ? report.completed : report.cancelled).push(doc.id);
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) {
        report.completed.push(doc.id); // paid at the last moment: it stays sold
        continue;
      }
      // One sale's failure (Stripe not answering) must not stop the others: the next run tries again.
      logger.error('Terminal sale: not expired this run', { saleId: doc.id, message: (error as Error).message });
      report.skipped.push(doc.id);
    }
  }
  if (due.size) logger.info('Waiting terminal sales expired', { cancelled: report.cancelled.length, completed: report.completed.length, skipped: report.skipped.length, saleIds: report.cancelled });
  return report;
}
