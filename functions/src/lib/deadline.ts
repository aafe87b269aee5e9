import type { RequestHandler } from 'express';
import { OUTAGE_RETRY_AFTER_S } from './http-error';

// Cloud Run cuts a request at the function's timeout (60 s) with an empty 504 the shopper's app
// cannot explain. A request still unanswered at its deadline is answered first, with 503 and
// Retry-After: a read well before that, a write (an order, an import chunk) at 55 s: under
// contention (the desk's counters, a stampede on one book) its transaction's retries are the slow
// part, and the load test saw them pass 45 s on the emulator. A write that completes after its 503
// still stands; clients read before they repeat.
export const DEADLINE_MS = { read: 15_000, write: 55_000 } as const;

export function deadlineFor(method: string): number {
  return method === 'GET' || method === 'HEAD' ? DEADLINE_MS.read : DEADLINE_MS.write;
}

/** Answers 503 `{ message }` with Retry-After when the request outlives its deadline. */
export function withDeadline(deadlines: (method: string) => number = deadlineFor): RequestHandler {
  return (req, res, next) => {
    const timer = setTimeout(() => {
      if (res.headersSent) return;
      res
        .status(503)
        .set({ 'Retry-After': String(OUTAGE_RETRY_AFTER_S), 'Cache-Control': 'no-store' })
        .json({ message: 'The shop is slow to answer right now. Please try again in a moment.' });
      // The handler is still running and will answer too: its late headers and body go nowhere
      // instead of throwing ERR_HTTP_HEADERS_SENT out of whatever callback it answers from.
      res.setHeader = () => res;
      res.writeHead = () => res;
      res.write = () => true;
      res.end = () => res;
    }, deadlines(req.method));
    timer.unref();
    res.on('finish', () => clearTimeout(timer));
    res.on('close', () => clearTimeout(timer));
    next();
  };
}
