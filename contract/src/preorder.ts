import { dayInShopZone } from './shop-zone';

// Pre-orders (issue 41). A book whose publication date is after today, in the shop's time zone, is
// forthcoming: the shop takes orders for it at stock 0. Each such order line waits ('waiting') until
// copies arrive through the book write path, which gives them to the waiting lines oldest first
// ('allocated'); a line ordered while copies are on hand is allocated at once. Zod-free: the
// storefront's cards read isForthcoming on the first visit.

export const PREORDER_STATES = ['waiting', 'allocated'] as const;
export type PreorderState = (typeof PREORDER_STATES)[number];

/** A pre-order line on the desk's list (GET /api/admin/preorders), by publication date. */
export interface DeskPreorder {
  orderId: string;
  bookId: string;
  title: string;
  publishedOn?: string;
  state: PreorderState | 'cancelled' | 'shipped';
  createdAt: string;
  /** Always 1: an order holds each book once, so a line is one copy. */
  quantity: 1;
  customer: { name: string; email: string } | null;
}

export interface DeskPreordersPage {
  preorders: DeskPreorder[];
  nextCursor: string | null;
}

/** The largest per-book pre-order limit a form may set. */
export const MAX_PREORDER_LIMIT = 10_000;

/** Today in the shop's time zone, as YYYY-MM-DD. */
export function shopToday(now: Date = new Date()): string {
  return dayInShopZone(now);
}

/**
 * Whether a book published on `publishedOn` (YYYY, YYYY-MM or YYYY-MM-DD) is still to come on `today`:
 * a partial date counts from its first day ('2027-03' is forthcoming until March 1, 2027 begins).
 */
export function isForthcoming(publishedOn: string | undefined | null, today: string = shopToday()): boolean {
  if (!publishedOn || !/^\d{4}(-\d{2}(-\d{2})?)?$/.test(publishedOn)) return false;
  const first = publishedOn.length === 4 ? `${publishedOn}-01-01` : publishedOn.length === 7 ? `${publishedOn}-01` : publishedOn;
  return first > today;
}
