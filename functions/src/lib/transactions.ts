import { HttpError } from './http-error';

// Every transaction of the shop's aggregates (orders, books, sales, refunds) runs with these
// options and answers lasting contention the same way.

// Contention retries: 20 shoppers racing for a last copy all read that book, and each loser's
// transaction has to run again to see the new stock (and answer 409).
export const TX_OPTIONS = { maxAttempts: 10 };

/**
 * Still contended after every retry (a stampede on one book: its stock is one document): a 503 the
 * client may retry (with the same Idempotency-Key), rather than a 500.
 */
export function busy(error: unknown): never {
  if ((error as { code?: number }).code === 10 /* ABORTED */) {
    throw new HttpError(503, 'Too many orders for these books at once. Please try again.', {}, { 'Retry-After': '1' });
  }
  throw error;
}
