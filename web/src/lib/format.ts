import { moneyLabel } from '@bookstore/contract';

export { CARD_DESCRIPTION_LIMIT, truncate } from '@bookstore/contract';

/** "$12.50": the contract's one money format. */
export const money = moneyLabel;

export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

/** Date and time, for an order's timeline ('Nov 22, 2026, 1:05 AM'). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleString('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}
