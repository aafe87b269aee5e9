import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, constants, createServer, type ClientHttp2Session, type Http2Server, type ServerHttp2Stream } from 'node:http2';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_ENV, HOST, ROOT } from '../../scripts/lib/env';
import { startServing, type WatchedProcess } from '../../scripts/lib/watched-process';
import { http } from './helpers';

// A release whose composite indexes are still building (the deploy's index wait skipped or timed
// out, an index deleted in the console): Firestore refuses each query that needs one with gRPC
// FAILED_PRECONDITION, "The query requires an index...". The emulator answers every query, index or
// not, so between the built functions (under functions-framework, as in production) and the suite's
// real Firestore emulator sits a gRPC proxy that forwards every call except queries, which it
// answers as production answers a query whose index is building. Each function must answer 503 with
// Retry-After (never a 500, never cached) and log which query it was.

const FRAMEWORK = `${ROOT}node_modules/@google-cloud/functions-framework/build/src/main.js`;
/** What production says for a query whose index is building (the console link shortened). */
const BUILDING = 'The query requires an index. That index is currently building and cannot be used yet. See its status here: https://console.firebase.google.com/v1/r/project/demo-bookstore/firestore/indexes?create_composite=Ck9wcm9qZWN0cy9kZW1v';
const QUERY_METHODS = ['/google.firestore.v1.Firestore/RunQuery', '/google.firestore.v1.Firestore/RunAggregationQuery'];

const started: WatchedProcess[] = [];
let proxy: Http2Server;
let upstream: ClientHttp2Session;
let refused = 0;

/** Forwards one gRPC call (an HTTP/2 stream) to the real emulator, headers, body and trailers. */
function forward(stream: ServerHttp2Stream, headers: Record<string, string | string[] | undefined>): void {
  const { ':method': method, ':path': path, ':authority': _a, ':scheme': _s, ...rest } = headers;
  const out = upstream.request({ ':method': method as string, ':path': path as string, ...rest });
  stream.pipe(out);
  out.on('response', (response) => {
    const { ':status': status, ...responseHeaders } = response;
    stream.respond({ ':status': status, ...responseHeaders }, { waitForTrailers: true });
    out.on('trailers', (trailers) => stream.once('wantTrailers', () => stream.sendTrailers(trailers)));
    out.pipe(stream);
  });
  out.on('error', () => stream.close(constants.NGHTTP2_INTERNAL_ERROR));
  stream.on('error', () => out.close(constants.NGHTTP2_CANCEL));
}

async function startProxy(): Promise<string> {
  upstream = connect(`http://${EMULATOR_ENV.FIRESTORE_EMULATOR_HOST}`);
  proxy = createServer();
  proxy.on('stream', (stream, headers) => {
    if (QUERY_METHODS.includes(String(headers[':path']))) {
      refused += 1;
      stream.resume(); // the request message, unread
      // A trailers-only gRPC answer: the status in the headers, no message. grpc-message is
      // percent-encoded only outside printable ASCII (and '%'), which this message never needs.
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '9', 'grpc-message': BUILDING }, { endStream: true });
      return;
    }
    forward(stream, headers);
  });
  await new Promise<void>((resolve) => proxy.listen(0, HOST, resolve));
  return `${HOST}:${(proxy.address() as { port: number }).port}`;
}

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One built function under functions-framework, its Firestore behind the proxy; its output in a log file. */
async function boot(target: 'api' | 'pages', firestoreHost: string): Promise<{ url: string; log: string }> {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const log = join(tmpdir(), `index-not-ready-${target}-${randomBytes(4).toString('hex')}.log`);
  const { FUNCTIONS_EMULATOR: _e, K_SERVICE: _k, FIREBASE_CONFIG: _c, ...env } = process.env;
  started.push(
    await startServing(`functions-framework (${target}, queries refused)`, process.execPath,
      [FRAMEWORK, `--target=${target}`, '--signature-type=http', `--source=${ROOT}functions`, `--port=${port}`],
      {
        env: { ...env, ...EMULATOR_ENV, FIRESTORE_EMULATOR_HOST: firestoreHost, FUNCTION_TARGET: target, ADMIN_JWT_SECRET: randomBytes(32).toString('hex'), NODE_ENV: 'production' },
        logFile: log,
      },
      async () => (await fetch(`${url}/no-such-route`)).status === 404, // serving, without touching Firestore
      60_000),
  );
  return { url, log };
}

/**
 * The structured log entries (one JSON line each) whose message starts with this, waiting up to 5 s
 * for the pipe. firebase-functions writes an ERROR entry's message as an Error's stack (`Error: <message>\n    at ...`)
 * so that Error Reporting groups it.
 */
async function entries(log: string, message: string): Promise<Record<string, unknown>[]> {
  const read = () => readFileSync(log, 'utf8').split('\n').filter((line) => line.startsWith('{') && line.includes(message))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => String(entry.message).replace(/^Error: /, '').startsWith(message));
  for (let i = 0; i < 50 && read().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  return read();
}

let api: { url: string; log: string };
let pages: { url: string; log: string };

beforeAll(async () => {
  const firestore = await startProxy();
  [api, pages] = await Promise.all([boot('api', firestore), boot('pages', firestore)]);
}, 120_000);

afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()));
  upstream?.close();
  await new Promise((resolve) => proxy?.close(resolve));
});

describe('a query whose Firestore index is missing or still building', () => {
  it('the proxy is the real emulator for everything but queries: /api/health reads through it', async () => {
    const res = await fetch(`${api.url}/api/health`);
    expect(res.status).toBe(200);
    expect(refused).toBe(0);
  });

  it('api: a genre list answers 503 with Retry-After, not cached, and the log names the query', async () => {
    const res = await fetch(`${api.url}/api/books?category=Fiction&limit=12`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('60');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ message: 'This part of the shop is being prepared after an update. Please try again in a minute.', code: 'INDEX_NOT_READY' });
    expect(refused).toBeGreaterThan(0);
    const [entry] = await entries(api.log, 'Firestore index missing or building');
    expect(entry).toMatchObject({
      severity: 'ERROR',
      status: 503,
      method: 'GET',
      path: '/api/books',
      query: 'books where category EQUAL order by newestKey DESCENDING',
      firestore: BUILDING,
    });
  });

  it('pages: /books answers 503 with Retry-After (the page is not cached as an error), and logs the query', async () => {
    const res = await fetch(`${pages.url}/books?category=Fiction`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('60');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const logged = await entries(pages.log, 'Firestore index missing or building');
    expect(logged[0]).toMatchObject({ status: 503, path: '/books', firestore: BUILDING });
    expect(String(logged[0]!.query)).toMatch(/^books where category EQUAL/);
  });

  it('the same requests through the suite (Firestore answering) are 200: the 503 is the index, not the route', async () => {
    expect((await http('/api/books?category=Fiction&limit=12')).status).toBe(200);
  });
});
