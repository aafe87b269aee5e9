import type { ParsedSaleInput, SaleStatus } from '@bookstore/contract';

// Issue 57: what a card-terminal sale stores when it is placed (placeSale): it holds its copies and
// waits for the reader (terminal.ts), so its takings are counted when Stripe reports the payment.

export interface StoredTerminal {
  /** Our reader (readers/<id>). */
  readerId: string;
  paymentIntentId: string | null;
  tillId?: string;
  failure?: string;
}

export interface TerminalHold {
  status: SaleStatus;
  terminal: StoredTerminal;
}

/** A card-terminal sale's status and reader when placed; null for a sale paid at the till at once (cash). */
export function terminalHold(input: ParsedSaleInput): TerminalHold | null {
  if (input.payment.method !== 'card_terminal' || !input.payment.readerId) return null;
  return { status: 'awaiting_payment', terminal: { readerId: input.payment.readerId, paymentIntentId: null, ...(input.tillId ? { tillId: input.tillId } : {}) } };
}
