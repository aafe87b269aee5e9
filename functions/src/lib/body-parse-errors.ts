import { createRequire } from 'node:module';

// The Functions runtime (functions-framework in production, the emulator runtime locally) parses
// request bodies with body-parser *before* our Express app runs, and answers malformed JSON with its
// own HTML error page (functions-framework-nodejs issue 686). Both load our module first and then
// build their parsers from the same body-parser module, so we wrap its factories here: a parse error
// is recorded on the request and our app answers it with the usual `{ message }` JSON.

export interface BodyError {
  status: number;
  type: string;
}

type Middleware = (req: { bodyError?: BodyError }, res: unknown, next: (err?: unknown) => void) => void;
type Factory = (options?: unknown) => Middleware;

export function deferBodyParseErrors(): void {
  const main = require.main?.filename;
  if (!main) return;
  let bodyParser: Record<string, unknown> & { __deferred?: boolean };
  try {
    bodyParser = createRequire(main)('body-parser');
  } catch {
    return; // not running under a runtime that pre-parses bodies
  }
  if (bodyParser.__deferred) return;
  for (const name of ['json', 'text', 'urlencoded', 'raw']) {
    const original = bodyParser[name] as Factory | undefined;
    if (typeof original !== 'function') continue;
    const wrapped: Factory = (options) => {
      const middleware = original(options);
      return (req, res, next) =>
        middleware(req, res, (err?: unknown) => {
          const e = err as { status?: number; type?: string } | undefined;
          if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
            req.bodyError = { status: e.status, type: e.type ?? 'unknown' };
            return next();
          }
          next(err);
        });
    };
    Object.defineProperty(bodyParser, name, { value: wrapped, configurable: true, enumerable: true, writable: true });
  }
  Object.defineProperty(bodyParser, '__deferred', { value: true });
}
