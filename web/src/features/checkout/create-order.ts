import type { Order, OrderInput } from '@bookstore/contract';
import { apiFetch } from '../../lib/api-client';
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
