// @vitest-environment happy-dom
import type { Receipt } from '@bookstore/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { enqueueReceipt, flushReceipts, queuedReceipts } from './receipt-queue';

const draft = (n: number) => ({ receiptId: `00000000-0000-4000-8000-00000000000${n}`, lines: [{ isbn: '9780306406157', quantity: n }] });
const answer = (id: string): Receipt => ({ _id: id, lines: [{ isbn: '9780306406157', received: 1, toSpecialOrders: 0, toPreorders: 0, toShelf: 1 }] });

describe('the receiving queue', () => {
  beforeEach(() => localStorage.clear());

  it('keeps a receipt once per receiptId, sends the queue oldest first and stops at the first that must wait', async () => {
    enqueueReceipt(draft(1));
    enqueueReceipt(draft(2));
    enqueueReceipt(draft(1)); // the same receipt again: still one, now last
    expect(queuedReceipts().map((d) => d.receiptId.slice(-1))).toEqual(['2', '1']);
    const tried: string[] = [];
    const offline = await flushReceipts(async (d) => {
      tried.push(d.receiptId);
      throw new ApiError('FETCH_ERROR', 'offline');
    });
    expect(offline).toEqual({ sent: [], waiting: 2 });
    expect(tried).toHaveLength(1);
    const online = await flushReceipts(async (d) => answer(d.receiptId));
    expect(online.sent.map((s) => ('receipt' in s ? s.receipt._id.slice(-1) : 'refused'))).toEqual(['2', '1']);
    expect(online.waiting).toBe(0);
  });

  it('takes a refused receipt out of the queue and says why; a 5xx or 401 waits', async () => {
    enqueueReceipt(draft(3));
    expect((await flushReceipts(async () => { throw new ApiError(503, 'down'); })).waiting).toBe(1);
    expect((await flushReceipts(async () => { throw new ApiError(401, 'sign in'); })).waiting).toBe(1);
    const refused = await flushReceipts(async () => { throw new ApiError(409, 'This purchase order was cancelled'); });
    expect(refused.waiting).toBe(0);
    expect(refused.sent[0]).toMatchObject({ draft: draft(3), refused: { message: 'This purchase order was cancelled' } });
  });
});
