import { formatDollars, OrderInputSchema, priceChangedTotal, unorderableBooks, type OrderInput, type PlacedOrderResponse } from '@bookstore/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../lib/api-client';
import { authSdk } from '../../lib/auth/auth-context';
import { queryKeys } from '../../lib/query-keys';
import { announceEmailNotVerified, isEmailNotVerified } from './email-verification';

/** A fresh key per checkout attempt: a double click or a retry returns the first order. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

async function send(order: OrderInput, idempotencyKey: string): Promise<PlacedOrderResponse> {
  const token = await (await authSdk()).idToken();
  return apiFetch<PlacedOrderResponse>('/api/orders', {
    method: 'POST',
    body: order,
    token,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

/** The API's 400 for a request the contract refuses, without the round trip. */
function refused(order: OrderInput): ApiError | null {
  const parsed = OrderInputSchema.safeParse(order);
  if (parsed.success) return null;
  const message = parsed.error.issues[0]?.message ?? 'Invalid request';
  return new ApiError(400, message, { message });
}

// POST /api/orders
export async function createOrder(order: OrderInput, idempotencyKey: string): Promise<PlacedOrderResponse> {
  const invalid = refused(order);
  if (invalid) throw invalid;
  try {
    return await send(order, idempotencyKey);
  } catch (error) {
    if (!isEmailNotVerified(error)) throw error;
    // The ID token held may predate a verification done in another tab: one fresh token, one retry.
    if (await (await authSdk()).refreshEmailVerification()) return send(order, idempotencyKey);
    announceEmailNotVerified();
    throw error;
  }
}

/** The server's new total when prices changed since the cart computed its own (409 PRICE_CHANGED). */
export function priceChangeFromError(error: unknown): number | null {
  return error instanceof ApiError ? priceChangedTotal(error.status, error.body) : null;
}

/** The books a failed checkout named as unorderable (out of stock, or deleted since), else null. */
export function unavailableFromError(error: unknown): ReturnType<typeof unorderableBooks> {
  return error instanceof ApiError ? unorderableBooks(error.status, error.body) : null;
}

export interface PlaceOrder {
  order: OrderInput;
  idempotencyKey: string;
  /** Asked when the server's total differs from the cart's: true resends at the new total. */
  confirmNewTotal: (totalPrice: number) => Promise<boolean>;
}

/**
 * Places an order. When prices changed meanwhile (409 with the current total), the shopper is asked
 * and, if they agree, the same order is sent again with the new expected total and the same key;
 * if they decline, nothing more is sent and the result is null. A placed order changes the
 * customer's orders, the desk and its figures, and the stock of its books.
 */
export function usePlaceOrder() {
  const queryClient = useQueryClient();
  const refreshStock = () => queryClient.invalidateQueries({ queryKey: queryKeys.books });
  return useMutation({
    mutationFn: async ({ order, idempotencyKey, confirmNewTotal }: PlaceOrder): Promise<PlacedOrderResponse | null> => {
      try {
        return await createOrder(order, idempotencyKey);
      } catch (error) {
        const total = priceChangeFromError(error);
        if (total === null) throw error;
        if (!(await confirmNewTotal(total))) return null;
        return createOrder({ ...order, totalPrice: formatDollars(total) }, idempotencyKey);
      }
    },
    onSuccess: (placed) =>
      placed &&
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.myOrders }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminOrders }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminStats }),
        refreshStock(),
      ]),
    // Out of stock or deleted: the storefront shows those books as they are now.
    onError: (error) => {
      if (unavailableFromError(error)) void refreshStock();
    },
  });
}
