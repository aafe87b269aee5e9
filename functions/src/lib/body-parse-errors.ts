import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { bodyLimitFor, type BodyLimit } from '../config';
import { adminClaims, parseBearer } from './admin-token';

// The Functions runtime (functions-framework in production, the emulator runtime locally) parses
// request bodies with body-parser, up to 32 MB (1 GB in functions-framework), *before* our Express
// app, its limits or any authentication run: one ~29 MB JSON body costs ~140 MB of heap. Both
// runtimes load our module first and then build their parsers from the same body-parser module,
// so we wrap its factories here, once, for every route:
// - the body limit of the route (config.ts BODY_LIMITS) is enforced before parsing: a declared
//   Content-Length over it, or a body (chunked included) whose bytes pass it while streaming in,
//   is answered at once with 413 `{ message }`; the bytes are never buffered or parsed;
// - the parser itself runs with the same limit (so a compressed body cannot inflate past it);
// - a parse error is recorded on the request and our app answers it with the usual `{ message }`
//   JSON, instead of the runtime's HTML error page (functions-framework-nodejs issue 686).

export interface BodyError {
  status: number;
  type: string;
}

type Req = IncomingMessage & { bodyError?: BodyError; [GUARD]?: Guard };
type Next = (err?: unknown) => void;
type Middleware = (req: Req, res: ServerResponse, next: Next) => void;
type Factory = ((options?: Record<string, unknown>) => Middleware) & { [WRAPPED]?: true };

// Symbol.for: the entry (index.js) marks requests and each function's own bundle reads the mark.
const GUARD = Symbol.for('bookstore.bodyGuard');
const WRAPPED = Symbol.for('bookstore.bodyParserWrapped');
const FACTORIES = ['json', 'text', 'urlencoded', 'raw'] as const;
const DRAIN_MS = 10_000;

interface Guard extends BodyLimit {
  refused: boolean;
}

const REFUSAL_TYPES: Record<number, string> = { 401: 'unauthorized', 413: 'entity.too.large', 415: 'charset.unsupported' };

/** Whether an Authorization header carries a well-signed, unexpired admin token. */
function signedStaffToken(header: string | undefined): boolean {
  const token = parseBearer(header);
  return token !== null && adminClaims(token) !== null;
}

/** Answers 413 (or `status`) now; bytes still arriving are dropped, never handed to a parser. */
function refuse(req: Req, res: ServerResponse, guard: Guard, status = 413, message = guard.message): void {
  guard.refused = true;
  req.bodyError = { status, type: REFUSAL_TYPES[status] ?? 'refused' };
  if (!res.headersSent) {
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(JSON.stringify({ message }));
  }
  // A lingering close, as web servers do: discard what is already on its way for a moment, then
  // cut a body that still has not ended. Closing at once resets the socket while the client is
  // still sending, and the client may lose our 413 (measured: 3 of 12 got ECONNRESET); the
  // emulator's proxy treats such a failed write as a crashed function and kills the worker.
  req.resume();
  // Under the Functions emulator the sender is its own proxy on loopback, which always ends the
  // body; a cut there crashes the whole emulator suite (firebase-tools 15.34's functionsRuntimeWorker
  // answers the reset with a second writeHead: ERR_HTTP_HEADERS_SENT, uncaught), and on a loaded
  // machine 29 MB take longer than DRAIN_MS to arrive (npm run test:faults). So drain it all there.
  if (process.env.FUNCTIONS_EMULATOR === 'true') return;
  setTimeout(() => {
    if (!req.complete) req.destroy();
  }, DRAIN_MS).unref();
}

/** The lower-cased charset a Content-Type names, or null when it names none. */
export function charsetOf(contentType: string | undefined): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match ? match[1]!.toLowerCase() : null;
}

/**
 * Runs once per request (whichever wrapped parser sees it first): refuses by Content-Length, else
 * counts the bytes as they are emitted to whoever reads the body.
 */
function guardBody(req: Req, res: ServerResponse): Guard {
  const existing = req[GUARD];
  if (existing) return existing;
  const guard: Guard = { ...bodyLimitFor(req.method, req.url, req.headers['content-type']), refused: false };
  req[GUARD] = guard;
  // body-parser would decode a declared UTF-16 or Latin-1 body: the API speaks UTF-8 only, so a body
  // that names another charset is refused before a byte of it is read.
  const charset = charsetOf(req.headers['content-type']);
  if (charset !== null && charset !== 'utf-8') {
    refuse(req, res, guard, 415, 'Request bodies must be UTF-8 (charset=utf-8)');
    return guard;
  }
  // The large uploads (covers, imports) are staff-only: an anonymous or forged caller is answered
  // 401 before its megabytes are read. The signature and expiry are checked here; whether the
  // token was revoked needs a Firestore read and is the app's check, after the body.
  if (guard.staffOnly && !signedStaffToken(req.headers.authorization)) {
    refuse(req, res, guard, 401, req.headers.authorization ? 'Invalid or expired admin token' : 'Admin token required');
    return guard;
  }
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > guard.bytes) {
    refuse(req, res, guard);
    return guard;
  }
  let received = 0;
  const emit = req.emit;
  // Patching this request's emit sees every chunk whoever reads it and whenever they attach,
  // without changing the stream's flow the way an extra 'data' listener would.
  req.emit = function (this: Req, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'data') {
      if (guard.refused) return false;
      received += (args[0] as Buffer).length;
      if (received > guard.bytes) {
        refuse(req, res, guard);
        return false;
      }
    }
    return emit.call(this, event, ...args);
  } as typeof req.emit;
  return guard;
}

/** A body-parser factory whose middlewares enforce the route limits first (exported for the unit test). */
export function wrapFactory(original: Factory): Factory {
  const wrapped: Factory = (options) => {
    const parsers = new Map<number, Middleware>(); // one parser per distinct limit, built on first use
    return (req, res, next) => {
      const guard = guardBody(req, res);
      if (guard.refused) return; // answered already: nothing else may run
      let parser = parsers.get(guard.bytes);
      if (!parser) parsers.set(guard.bytes, (parser = original({ ...options, limit: guard.bytes })));
      parser(req, res, (err?: unknown) => {
        if (guard.refused) return;
        const e = err as { status?: number; type?: string } | undefined;
        if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
          req.bodyError = { status: e.status, type: e.type ?? 'unknown' };
          return next();
        }
        next(err);
      });
    };
  };
  wrapped[WRAPPED] = true;
  return wrapped;
}

/** The runtimes that parse bodies before our app: the Functions emulator's and functions-framework (Cloud Run). */
export function preParsingRuntime(env: NodeJS.ProcessEnv = process.env, main = require.main?.filename ?? ''): boolean {
  return env.FUNCTIONS_EMULATOR === 'true' || Boolean(env.K_SERVICE) || /functions-framework|functionsEmulatorRuntime/.test(main);
}

/**
 * Why body-parser cannot be wrapped from `main`, or null when it can: each factory must exist and
 * still build an Express middleware `(req, res, next)`. A runtime that moved to another parser, or
 * a body-parser whose shape changed, must stop the start, not silently skip the limits.
 */
function unwrappable(bodyParser: Record<string, unknown> | undefined, main: string | undefined): string | null {
  if (!bodyParser) return `body-parser not found from ${main ?? 'an unknown main module'}`;
  for (const name of FACTORIES) {
    const factory = bodyParser[name] as Factory | undefined;
    if (typeof factory !== 'function') return `body-parser.${name} is not a function`;
    if (factory[WRAPPED]) continue;
    const middleware: unknown = factory({ limit: 1 });
    if (typeof middleware !== 'function' || middleware.length !== 3) return `body-parser.${name}() no longer returns a (req, res, next) middleware`;
  }
  return null;
}

/**
 * Wraps the runtime's body-parser factories, and asserts that it did. Under a runtime that
 * pre-parses bodies it must apply, or the function refuses to start: without it one anonymous
 * request can exhaust its memory. Elsewhere a failure is logged as an error.
 * Why and how: docs/decisions/011-body-parser-patch.md.
 */
export function deferBodyParseErrors(main = require.main?.filename): void {
  const required = preParsingRuntime(process.env, main ?? '');
  let bodyParser: Record<string, unknown> | undefined;
  try {
    bodyParser = main ? createRequire(main)('body-parser') : undefined;
  } catch {
    bodyParser = undefined;
  }
  const problem = unwrappable(bodyParser, main);
  if (!problem) {
    for (const name of FACTORIES) {
      const original = bodyParser![name] as Factory;
      if (original[WRAPPED]) continue;
      Object.defineProperty(bodyParser, name, { value: wrapFactory(original), configurable: true, enumerable: true, writable: true });
    }
  }
  const applied = !problem && FACTORIES.every((name) => (bodyParser?.[name] as Factory | undefined)?.[WRAPPED]);
  if (!applied) {
    const message = `Body limits could not be installed: ${problem ?? 'body-parser refused the wrapper'}`;
    if (required) throw new Error(message);
    console.error(message);
    return;
  }
  console.log(`Body limits installed before parsing (body-parser from ${main})`);
}

/**
 * The start-up check proves a body-parser was wrapped, not that the runtime parses with that one.
 * Every request passes the wrapped parsers (they run for bodiless requests too), so a request
 * without the guard's mark means the limits are not in force: say so, loudly, once.
 */
export function withBodyLimitCheck<Req extends IncomingMessage, Res extends ServerResponse>(handler: (req: Req, res: Res) => void) {
  let warned = false;
  return (req: Req, res: Res): void => {
    if (!warned && !(req as Req & { [GUARD]?: Guard })[GUARD] && preParsingRuntime()) {
      warned = true;
      console.error('Body limits are NOT in force: this request was parsed without the wrapped body-parser (see lib/body-parse-errors.ts)');
    }
    handler(req, res);
  };
}
