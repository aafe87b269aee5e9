import type { Receipt } from '@bookstore/contract';
import { ApiError } from '../../../lib/api-client';
import type { ReceiptDraft } from './purchasing-api';

// Receipts waiting on this device (issue 56): a receipt goes into the queue (localStorage) under
// the receiptId the page made before it is sent, and leaves it when the server has it (201, or 200
// for one it already had) or refused it. A receipt made offline, or whose answer was lost, is sent
// again when the network returns; the server's receiptId check makes the repeats one receipt.

const KEY = 'bookstore.receiving.queue';

export function queuedReceipts(): ReceiptDraft[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(value) ? (value as ReceiptDraft[]) : [];
  } catch {
    return [];
  }
}
const save = (list: ReceiptDraft[]) => localStorage.setItem(KEY, JSON.stringify(list));
export const enqueueReceipt = (draft: ReceiptDraft) => save([...queuedReceipts().filter((r) => r.receiptId !== draft.receiptId), draft]);
const dequeue = (receiptId: string) => save(queuedReceipts().filter((r) => r.receiptId !== receiptId));

/** Whether a failure says "later" (no network, the server busy or down, the session to renew): the receipt stays queued. */
export function isLater(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  if (error.kind === 'FETCH_ERROR' || error.kind === 'TIMEOUT_ERROR' || error.kind === 'PARSING_ERROR') return true;
  return error.status === 401 || error.status === 408 || error.status === 429 || (error.status ?? 0) >= 500;
}

export type Sent = { draft: ReceiptDraft } & ({ receipt: Receipt } | { refused: ApiError });

/** Sends every queued receipt, oldest first, until one must wait (the rest would too). */
export async function flushReceipts(send: (draft: ReceiptDraft) => Promise<Receipt>): Promise<{ sent: Sent[]; waiting: number }> {
  const sent: Sent[] = [];
  for (const draft of queuedReceipts()) {
    try {
      sent.push({ draft, receipt: await send(draft) });
      dequeue(draft.receiptId);
    } catch (error) {
      if (isLater(error)) break;
      dequeue(draft.receiptId);
      sent.push({ draft, refused: error as ApiError });
    }
  }
  return { sent, waiting: queuedReceipts().length };
}
