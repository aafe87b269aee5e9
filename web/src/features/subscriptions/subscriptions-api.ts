import type { MessageResponse } from '@bookstore/contract';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api-client';
import { authSdk } from '../../lib/auth/auth-context';

// Issue 28's public writes. None changes anything the storefront caches, so none invalidates a query.

// POST /api/stock-alerts: signed in, the account's address (the ID token); signed out, the one typed.
export function useStockAlert() {
  return useMutation({
    mutationFn: async ({ bookId, email }: { bookId: string; email?: string }) => {
      const token = email ? null : await (await authSdk()).idToken();
      return apiFetch<MessageResponse>('/api/stock-alerts', { method: 'POST', body: email ? { bookId, email } : { bookId }, token });
    },
  });
}

// POST /api/newsletter/confirm
export function useConfirmNewsletter() {
  return useMutation({
    mutationFn: (token: string) => apiFetch<MessageResponse>('/api/newsletter/confirm', { method: 'POST', body: { token } }),
  });
}

// POST /api/unsubscribe (the newsletter's link or a back-in-stock mail's)
export function useUnsubscribe() {
  return useMutation({
    mutationFn: (token: string) => apiFetch<MessageResponse>('/api/unsubscribe', { method: 'POST', body: { token } }),
  });
}
