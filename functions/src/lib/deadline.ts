import type { RequestHandler } from 'express';

// Cloud Run cuts a request at the function's timeout (60 s) with an empty 504 the shopper's app
// cannot explain. A request still unanswered at its deadline is answered first, with 503 and
// Retry-After: a read well before that, a write later (its transaction retries under contention),
// an import last. A write that completes after its 503 still stands; clients read before they repeat.
export const DEADLINE_MS = { read: 15_000, write: 45_000, import: 50_000 } as const;
export const DEADLINE_RETRY_AFTER_S = 30;

export function deadlineFor(method: string, path: string): number {
  if (method === 'GET' || method === 'HEAD') return DEADLINE_MS.read;
  return /\/books\/import$/.test(path) ? DEADLINE_MS.import : DEADLINE_MS.write;
}

/** Answers 503 `{ message }` with Retry-After when the request outlives its deadline. */
export function withDeadline(deadlines: (method: string, path: string) => number = deadlineFor): RequestHandler {
  return (req, res, next) => {
    const timer = setTimeout(() => {
      if (res.headersSent) return;
      res
        .status(503)
        .set({ 'Retry-After': String(DEADLINE_RETRY_AFTER_S), 'Cache-Control': 'no-store' })
        .json({ message: 'The shop is slow to answer right now. Please try again in a moment.' });
      // The handler is still running and will answer too: its late headers and body go nowhere
      // instead of throwing ERR_HTTP_HEADERS_SENT out of whatever callback it answers from.
      res.setHeader = () => res;
      res.writeHead = () => res;
      res.write = () => true;
      res.end = () => res;
    }, deadlines(req.method, req.path));
    timer.unref();
    res.on('finish', () => clearTimeout(timer));
    res.on('close', () => clearTimeout(timer));
    next();
  };
}
