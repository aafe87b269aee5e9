import { createHash } from 'node:crypto';
import { MAX_OPEN_ORDERS, OPEN_STATUSES, type OrderStatus, type ParsedOrderInput } from '@bookstore/contract';

// Per-account state the order transactions keep exact, without ever reading a customer's orders.

/** Server-only (firestore.rules deny every client): one document per customer uid. */
export const CUSTOMERS_COLLECTION = 'customers';

export interface CustomerDoc {
  /** Orders of this account now pending or confirmed; moved in the same transaction as each order. */
  openOrders?: number;
  /** Set by an operator to allow one account more than MAX_OPEN_ORDERS. */
  maxOpenOrders?: number;
}

const isOpen = (status: OrderStatus) => OPEN_STATUSES.includes(status);

/** How a status change moves the account's open-order count: -1 when it leaves pending|confirmed, +1 when it enters. */
export function openOrdersDelta(from: OrderStatus, to: OrderStatus): number {
  return Number(isOpen(to)) - Number(isOpen(from));
}

export function openOrderLimit(doc: CustomerDoc | undefined): number {
  return doc?.maxOpenOrders ?? MAX_OPEN_ORDERS;
}

/** Open orders as stored; never below 0 (orders placed before the counter existed leave it without them). */
export function openOrdersOf(doc: CustomerDoc | undefined): number {
  return Math.max(0, doc?.openOrders ?? 0);
}

/** JSON with every object's keys sorted: the same parsed order always gives the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * What an Idempotency-Key is bound to: the account and the parsed order (so `"12.50"` and `12.5`,
 * or keys in another order, are the same request, and a different cart is not).
 */
export function requestHash(uid: string, input: ParsedOrderInput): string {
  return createHash('sha256').update(`${uid}\n${canonicalJson(input)}`).digest('hex');
}
