import { fromCents } from '@bookstore/contract';
import type { QueuedSale } from './counter-store';
import type { ReceiptData } from './receipt';

// A sale's lines on the counter page (issue 39): books by ISBN, and gift cards (issue 40) whose code
// is the shop's (issue 55).

export interface BookLine {
  kind: 'book';
  bookId: string;
  isbn: string;
  title: string;
  author?: string;
  unitPrice: number;
  quantity: number;
}

export interface CardLine {
  kind: 'gift_card';
  /** The line's key on this page (the code is the shop's). */
  key: string;
  unitPrice: number;
  quantity: 1;
}

export type Line = BookLine | CardLine;
export const lineId = (line: Line) => (line.kind === 'gift_card' ? line.key : line.bookId);

export type Notice = { tone: 'error' | 'info'; text: string; unknownIsbn?: string } | null;

export const centsOf = (dollars: number) => Math.round(dollars * 100);

/** The receipt of a sale kept on the device, before the shop has it. */
export function offlineReceipt(sale: QueuedSale): ReceiptData {
  return {
    saleId: sale.saleId,
    at: sale.queuedAt,
    lines: sale.lines.map(({ giftCardCode, ...l }) => ({
      ...l, lineTotal: fromCents(l.quantity * centsOf(l.unitPrice)), ...(giftCardCode ? { giftCard: { code: giftCardCode, last4: giftCardCode.slice(-4) } } : {}),
    })),
    total: sale.total,
    method: sale.body.payment.method,
    ...(sale.tendered !== undefined ? { tendered: sale.tendered } : {}),
    ...(sale.change !== undefined ? { change: sale.change } : {}),
    waiting: true,
  };
}
