/** Thrown anywhere in a handler; the error middleware turns it into `{ message }` with this status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Seconds an outage answer (503: Firestore unreachable, a request past its deadline) asks clients to wait. */
export const OUTAGE_RETRY_AFTER_S = 30;

/**
 * Seconds a 503 for a query whose Firestore index is missing or still building asks clients to
 * wait: a build takes minutes (docs/deploying.md, the index wait), so sooner would only add load.
 */
export const INDEX_RETRY_AFTER_S = 60;
