import { giftCardCodeIsValid, giftCardLogLabel, normaliseGiftCardCode } from '@bookstore/contract';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { logger } from 'firebase-functions/logger';
import { HttpError, INDEX_RETRY_AFTER_S, OUTAGE_RETRY_AFTER_S } from './http-error';
import { describeQuery, IndexNotReadyError } from './queries';

/**
 * A request path as log lines may carry it: path segments holding an email address (the spec's
 * `/api/orders/email/{email}`, raw or %40-encoded) become `[email]`, so no customer's address
 * reaches the logs an operator or a log sink reads; a segment that is a gift card's code (a client
 * still calling the old `GET /api/gift-cards/:code/balance`) keeps only its last 4 (issue 55).
 */
export function loggablePath(path: string): string {
  return path
    .split('/')
    .map((segment) => (/@|%40/i.test(segment) ? '[email]' : isGiftCardCode(segment) ? `[gift card ${giftCardLogLabel(decoded(segment))}]` : segment))
    .join('/');
}

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};
const isGiftCardCode = (segment: string) => /^[0-9A-Za-z]{16}$/.test(normaliseGiftCardCode(decoded(segment))) && giftCardCodeIsValid(normaliseGiftCardCode(decoded(segment)));

/** A Firestore (gRPC) error that says the service, not the request, failed. */
export function isFirestoreUnavailable(error: unknown): error is { code: number } {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 14 || code === 4 || code === 8;
}

/** A `create` that found the document already there (ALREADY_EXISTS, 6): a place, an id or a key taken first. */
export function isAlreadyExists(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 6;
}

/**
 * A transaction that lost its turn on a busy document: ABORTED (10) once the SDK's own retries are
 * spent, or a transaction Firestore closed while it waited for a lock (INVALID_ARGUMENT 3, "invalid
 * or closed" / "expired": seen on the emulator when many requests race for one document). Nothing
 * was written; the same request again gets the real answer.
 */
export function isTransactionContention(error: unknown): boolean {
  const { code, details, message } = (error ?? {}) as { code?: unknown; details?: unknown; message?: unknown };
  if (code === 10) return true;
  return code === 3 && /transaction (is invalid or closed|has expired|is no longer valid)/i.test(`${details ?? ''} ${message ?? ''}`);
}

/**
 * For a scheduled job, which has no client to send a refused request again: runs `work` again (up
 * to `attempts` in all, a moment apart) while Firestore refuses it as contended, here or as the 503
 * an order transaction turns ABORTED into. Each attempt re-reads, so a job that lost to another
 * run sees that run's result.
 */
export async function retryContended<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const contended = isTransactionContention(error) || (error instanceof HttpError && error.status === 503);
      if (!contended || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

export const notFound: RequestHandler = (req) => {
  throw new HttpError(404, `No route for ${req.method} ${req.path}`);
};

/** The one place errors become responses: `{ message, ...extra }` with the right status. */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  if (res.headersSent) return;
  // An error is never cached (Hosting's CDN would keep a 404 without cache headers for 10 minutes),
  // even when the handler had chosen to cache the answer it was about to write.
  res.set('Cache-Control', 'no-store');
  if (error instanceof HttpError) {
    // A 5xx we chose (503 busy, Retry-After) is still an outage signal for an operator.
    if (error.status >= 500) logger.error('Server error', { status: error.status, method: req.method, path: loggablePath(req.path), code: error.extra.code ?? null, message: error.message });
    res.set(error.headers).status(error.status).json({ message: error.message, ...error.extra });
    return;
  }
  // A query whose composite index is missing or still building (a release that skipped the index
  // wait, an index deleted in the console): an operator's fault the client can only wait out. The
  // log names the query and keeps Firestore's message, whose link creates or shows the index.
  if (error instanceof IndexNotReadyError) {
    logger.error('Firestore index missing or building', {
      status: 503,
      method: req.method,
      path: loggablePath(req.path),
      query: describeQuery(error.query),
      shape: error.query,
      firestore: error.firestoreMessage,
    });
    res.set('Retry-After', String(INDEX_RETRY_AFTER_S)).status(503).json({ message: 'This part of the shop is being prepared after an update. Please try again in a minute.', code: 'INDEX_NOT_READY' });
    return;
  }
  // Firestore unreachable or too slow (gRPC UNAVAILABLE 14, DEADLINE_EXCEEDED 4, RESOURCE_EXHAUSTED 8):
  // an outage the client can wait out, not a fault of its request or a bug of ours.
  if (isFirestoreUnavailable(error)) {
    logger.error('Firestore unavailable', { status: 503, method: req.method, path: loggablePath(req.path), code: error.code });
    res.set('Retry-After', String(OUTAGE_RETRY_AFTER_S)).status(503).json({ message: 'The shop is briefly unavailable. Please try again in a moment.' });
    return;
  }
  if (isTransactionContention(error)) {
    logger.warn('Transaction contention', { status: 503, method: req.method, path: loggablePath(req.path), code: (error as { code: number }).code });
    res.set('Retry-After', '1').status(503).json({ message: 'Someone else is changing this right now. Please try again.', code: 'BUSY' });
    return;
  }
  // body-parser style errors (from express.json in tests or other runtimes) carry a status.
  const status = typeof error?.status === 'number' ? error.status : 500;
  if (status >= 400 && status < 500) {
    const message =
      error.type === 'entity.parse.failed' ? 'Request body is not valid JSON'
      : error.type === 'entity.too.large' ? 'Request body is too large'
      : 'Bad request';
    res.status(status).json({ message });
    return;
  }
  logger.error('Unhandled error', { status: 500, method: req.method, path: loggablePath(req.path), error: String(error?.stack ?? error) });
  res.status(500).json({ message: 'Something went wrong on our side. Please try again.' });
};
