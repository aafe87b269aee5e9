import type { ErrorRequestHandler, RequestHandler } from 'express';
import { logger } from 'firebase-functions';
import { HttpError } from './http-error';

export const notFound: RequestHandler = (req) => {
  throw new HttpError(404, `No route for ${req.method} ${req.path}`);
};

/** The one place errors become responses: `{ message, ...extra }` with the right status. */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  if (res.headersSent) return;
  if (error instanceof HttpError) {
    // A 5xx we chose (503 busy, Retry-After) is still an outage signal for an operator.
    if (error.status >= 500) logger.error('Server error', { status: error.status, method: req.method, path: req.path, code: error.extra.code ?? null, message: error.message });
    res.set(error.headers).status(error.status).json({ message: error.message, ...error.extra });
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
  logger.error('Unhandled error', { status: 500, method: req.method, path: req.path, error: String(error?.stack ?? error) });
  res.status(500).json({ message: 'Something went wrong on our side. Please try again.' });
};
