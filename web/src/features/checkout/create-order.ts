import type { Order, OrderInput, OutOfStockResponse, UnknownBooksResponse } from '@bookstore/contract';
import { ApiError, apiFetch } from '../../lib/api-client';
import { authSdk } from '../auth/auth-context';

/** A fresh key per checkout attempt: a double click or a retry returns the first order. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

export async function createOrder(order: OrderInput, idempotencyKey: string): Promise<Order> {
  const token = await (await authSdk()).idToken();
  return apiFetch<Order>('/api/orders', {
    method: 'POST',
    body: order,
    token,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

/**
 * The books a failed checkout named as unorderable: 409 OUT_OF_STOCK, or 400 UNKNOWN_BOOKS (deleted
 * since they were put in the cart). Anything else is not about particular lines.
 */
export function unavailableFromError(error: unknown): { reason: 'out-of-stock' | 'deleted'; productIDs: string[] } | null {
  if (!(error instanceof ApiError) || !error.body) return null;
  const body = error.body as Partial<OutOfStockResponse | UnknownBooksResponse>;
  const productIDs = Array.isArray(body.productIDs) ? body.productIDs.filter((id): id is string => typeof id === 'string') : [];
  if (productIDs.length === 0) return null;
  if (error.status === 409 && body.code === 'OUT_OF_STOCK') return { reason: 'out-of-stock', productIDs };
  if (error.status === 400 && body.code === 'UNKNOWN_BOOKS') return { reason: 'deleted', productIDs };
  return null;
}
