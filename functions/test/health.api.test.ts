import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { EMULATOR_ENV, HOST, ROOT } from '../../scripts/lib/env';
import { startServing, type WatchedProcess } from '../../scripts/lib/watched-process';
import { http } from './helpers';

// /api/health reads Firestore once under a deadline (functions/src/lib/health.ts). With the suite's
// Firestore it answers 200 after one read; with Firestore unreachable, the built function (served by
// functions-framework, as in production, on its own port) answers 503 with Retry-After at its deadline
// (2.5 s: bounded here at 10 s, a busy machine's slack; without one it took the client's minute and more),
// whether connections are refused at once or accepted and never answered (a black hole, the slow case).

const FRAMEWORK = `${ROOT}node_modules/@google-cloud/functions-framework/build/src/main.js`;
const started: WatchedProcess[] = [];
const servers: Server[] = [];
const sockets: Socket[] = [];

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  servers.push(server);
  return (server.address() as { port: number }).port;
}

/** A free port with nothing listening on it (connections refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A port that accepts connections and never answers a byte. */
async function blackHole(): Promise<number> {
  return listen(createServer((socket) => sockets.push(socket)));
}

/** The built api function under functions-framework with Firestore at `firestoreHost`. */
async function apiWithFirestoreAt(firestoreHost: string): Promise<string> {
  const port = await closedPort();
  const url = `http://${HOST}:${port}`;
  const { FUNCTIONS_EMULATOR: _e, K_SERVICE: _k, FIREBASE_CONFIG: _c, ...env } = process.env;
  started.push(
    await startServing('functions-framework (api, Firestore unreachable)', process.execPath,
      [FRAMEWORK, '--target=api', '--signature-type=http', `--source=${ROOT}functions`, `--port=${port}`],
      { env: { ...env, ...EMULATOR_ENV, FIRESTORE_EMULATOR_HOST: firestoreHost, ADMIN_JWT_SECRET: randomBytes(32).toString('hex'), NODE_ENV: 'production' } },
      async () => (await fetch(`${url}/api/no-such-route`)).status === 404, // serving, without touching Firestore
      60_000),
  );
  return url;
}

async function timedHealth(url: string) {
  const t0 = performance.now();
  const res = await fetch(`${url}/api/health`);
  const body = (await res.json()) as { ok?: boolean; message?: string };
  return { res, body, ms: Math.round(performance.now() - t0) };
}

afterAll(async () => {
  // The functions first: until they exit, their Firestore client keeps opening connections to the
  // black hole, and a server closes only once every connection it accepted has (destroying them
  // before the stop left the late ones open, and the hook hung until its timeout).
  await Promise.all(started.map((p) => p.stop()));
  sockets.forEach((s) => s.destroy());
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('/api/health', () => {
  it('answers 200 after one Firestore read when Firestore answers', async () => {
    const res = await http('/api/health');
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it.each([
    ['refuses connections', closedPort],
    ['accepts connections and never answers', blackHole],
  ])('answers 503 with Retry-After at its deadline when Firestore %s', async (what, firestore) => {
    const url = await apiWithFirestoreAt(`${HOST}:${await firestore()}`);
    const { res, body, ms } = await timedHealth(url); // the instance's first Firestore call: the cold case
    console.log(`health with Firestore that ${what}: ${res.status} in ${ms} ms (Retry-After: ${res.headers.get('retry-after')})`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(body).toEqual({ ok: false, message: 'The shop cannot reach its database right now. Please try again shortly.' });
    expect(ms).toBeLessThan(10_000);
  });
});
