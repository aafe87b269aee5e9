import { logger } from 'firebase-functions/logger';
import { retryCancelRefunds, type CancelRefundReport } from '../payments/cancel-refunds';
import { expireUnpaidOrders, type UnpaidReport } from '../payments/unpaid-orders';
import { expireTerminalSales, type TerminalExpiryReport } from '../sales/terminal-expiry';
import { releaseExpiredHolds, type ReleaseReport } from './orders.repo';

// The scheduled job behind the `releaseHolds` function (index.ts): pickup orders not collected
// within the shop's hold days are cancelled and their books restocked, each once (orders.repo.ts).
// Exported apart from the trigger so the tests run it against the emulator, twice.

export async function releaseHoldsJob(now = new Date()): Promise<ReleaseReport & { unpaid: UnpaidReport; refunds: CancelRefundReport; terminal: TerminalExpiryReport }> {
  const report = await releaseExpiredHolds(now);
  // One structured entry per run (Cloud Logging: jsonPayload.cancelled), also when nothing was due.
  logger.info('Pickup holds released', { cancelled: report.cancelled.length, skipped: report.skipped.length, orderIds: report.cancelled });
  // Issue 35: unpaid card orders whose Checkout session ended, confirmed with Stripe (payments/unpaid-orders.ts).
  const unpaid = await expireUnpaidOrders(now);
  // Issue 41: a cancelled paid pre-order whose refund Stripe did not make at the cancel (cancel-refunds.ts).
  const refunds = await retryCancelRefunds(now);
  // Issue 57: card-reader sales left waiting for a card hold copies: cancelled after 15 minutes (sales/terminal-expiry.ts).
  const terminal = await expireTerminalSales(now);
  return { ...report, unpaid, refunds, terminal };
}
