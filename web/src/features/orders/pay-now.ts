import type { CheckoutStart } from '@bookstore/contract';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api-client';
import { authSdk } from '../../lib/auth/auth-context';

/** POST /api/orders/:id/payment : a new Stripe Checkout page for an unpaid card order (the previous one is closed). */
export async function startPayment(id: string): Promise<CheckoutStart> {
  const token = await (await authSdk()).idToken();
  return apiFetch<CheckoutStart>(`/api/orders/${encodeURIComponent(id)}/payment`, { method: 'POST', token });
}

/** 'Pay Now': opens the payment page (the card number is typed there, never on our site). */
export function usePayNow() {
  return useMutation({
    mutationFn: (id: string) => startPayment(id),
    onSuccess: ({ checkoutUrl }) => window.location.assign(checkoutUrl),
  });
}
