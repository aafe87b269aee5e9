import { moneyLabel } from '@bookstore/contract';

export const CARD_DESCRIPTION_LIMIT = 80;

/** The first `limit` characters plus an ellipsis when longer (book cards). */
export function truncate(text: string, limit = CARD_DESCRIPTION_LIMIT): string {
  const chars = Array.from(text); // do not split a surrogate pair
  return chars.length > limit ? `${chars.slice(0, limit).join('')}...` : text;
}

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
