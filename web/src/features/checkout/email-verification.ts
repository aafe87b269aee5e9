import { ApiError } from '../../lib/api-client';

// The checkout's verify-email gate hears of a 403 EMAIL_NOT_VERIFIED from here, so the checkout
// page itself needs no state for it.

const EVENT = 'bookstore:email-not-verified';

export function isEmailNotVerified(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && error.body?.code === 'EMAIL_NOT_VERIFIED';
}

export function announceEmailNotVerified(): void {
  window.dispatchEvent(new Event(EVENT));
}

export function onEmailNotVerified(listener: () => void): () => void {
  window.addEventListener(EVENT, listener);
  return () => window.removeEventListener(EVENT, listener);
}
