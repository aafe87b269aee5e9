import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, type Socket } from 'node:net';
import { join, relative } from 'node:path';
import { load } from '../../bench/load';
import { buildSteps, emulatorTraces, PROD_OUT_DIR } from './deploy';
import { adminDb } from './admin-sdk';
import { OWASP_PARAMS } from '../../functions/src/lib/passwords';
import { heapLimitMb, PRODUCTION_NODE_OPTIONS } from '../../functions/src/lib/heap';
import { SEARCH_SCHEMA } from '../../functions/src/books/search-index';
import { FieldValue, Timestamp } from 'firebase-admin/firestore';
import { shopDay } from '@bookstore/contract';
import Stripe from 'stripe';
import { DEMO_ADMIN, EMULATOR_ENV, HOST, INBOX_URL, LOCAL_SMTP_URI, PORTS, PROJECT_ID, ROOT } from './env';
import { freePort } from './ports';
import { orderBody, signUpCustomer } from './fixtures';
import type { SmokeResult } from './smoke';
import { rehearseTwoReleases } from './two-releases';
import { run, startServing, type WatchedProcess } from './watched-process';

// The production rehearsal (`npm run rehearse`, and a layer of `npm test`): build exactly what
// `npm run deploy` uploads, then boot each exported function alone, the way Cloud Run boots it:
// its own process under @google-cloud/functions-framework, K_SERVICE=<name>, NODE_ENV=production,
// a heap limit from its declared memory (functions/src/lib/heap.ts, as production's NODE_OPTIONS), and only the secrets it declares plus the codebase's
// params (firebase-tools gives those to every function). Firestore, Auth and Storage are the
// running suite's emulators, standing in for Google's services. The Functions emulator cannot show
// any of this: it hands every local secret to every function and runs them in one shared setup.

const REHEARSAL_DIR = join(ROOT, 'artifacts', 'rehearsal');
/** The deploy source as `firebase deploy` uploads it (firebase.json's functions source minus its ignore list). */
export const STAGED = join(REHEARSAL_DIR, 'functions');
/** A made-up project for the production web build: not the demo one, so no emulator settings. */
const REHEARSAL_PROJECT = 'bookstore-rehearsal';
const WEB_CONFIG = {
  VITE_FIREBASE_API_KEY: 'AIzaRehearsalPlaceholderKey',
  VITE_FIREBASE_AUTH_DOMAIN: `${REHEARSAL_PROJECT}.firebaseapp.com`,
  VITE_FIREBASE_PROJECT_ID: REHEARSAL_PROJECT,
  VITE_FIREBASE_STORAGE_BUCKET: `${REHEARSAL_PROJECT}.firebasestorage.app`,
  VITE_FIREBASE_APP_ID: '1:0:web:rehearsal',
  VITE_AUTH_EMULATOR_URL: '', // wins over any local .env file: a production build never has one
};
/**
 * Secrets that must reach a real service, not random bytes: sendMail's SMTP server is the suite's
 * developer's inbox (scripts/lib/dev-inbox.ts), standing in for the shop's provider.
 */
const SECRET_VALUES: Record<string, string> = { SMTP_URI: LOCAL_SMTP_URI };
const LOAD_SECONDS = 4;
const LOAD_CONNECTIONS = 10;

/** One function as the manifest (firebase-functions' wire format, what firebase-tools reads) declares it. */
interface Endpoint {
  entryPoint: string;
  availableMemoryMb?: number;
  secretEnvironmentVariables?: { key: string }[];
  environmentVariables?: Record<string, string>;
  httpsTrigger?: unknown;
  /** A scheduled function: on Cloud Run an HTTP service that Cloud Scheduler POSTs to. */
  scheduleTrigger?: unknown;
  /** An event function (sendMail: a Firestore document created): Eventarc POSTs it CloudEvents. */
  eventTrigger?: { eventType: string; eventFilters?: Record<string, string>; eventFilterPathPatterns?: Record<string, string> };
}
interface Param {
  name: string;
  type: string;
  default?: unknown;
}
export interface Manifest {
  endpoints: Record<string, Endpoint>;
  params?: Param[];
}

/** firebase.json's `functions[0].ignore` patterns, as globs over path segments ("node_modules", "*.log"). */
function ignored(path: string, patterns: string[]): boolean {
  const segments = path.split('/');
  return patterns.some((p) => {
    const re = new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
    return p.includes('/') ? re.test(path) : segments.some((s) => re.test(s));
  });
}

/** Copies the functions source as `firebase deploy` would upload it. */
function stage(): string[] {
  const config = JSON.parse(readFileSync(join(ROOT, 'firebase.json'), 'utf8')) as { functions: { source: string; ignore?: string[] }[] };
  const { source, ignore = [] } = config.functions[0]!;
  const from = join(ROOT, source);
  rmSync(REHEARSAL_DIR, { recursive: true, force: true });
  mkdirSync(STAGED, { recursive: true });
  const copied: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, name.name);
      const rel = relative(from, path);
      if (ignored(rel, ignore)) continue;
      if (name.isDirectory()) walk(path);
      else {
        mkdirSync(join(STAGED, relative(from, dir)), { recursive: true });
        cpSync(path, join(STAGED, rel));
        copied.push(rel);
      }
    }
  };
  walk(from);
  return copied;
}

/** Runs one of the deploy's own build steps (scripts/lib/deploy.ts buildSteps) with the throwaway web config. */
async function deployStep(index: number, log: (line: string) => void, capture: boolean): Promise<void> {
  const step = buildSteps()[index]!;
  log(`Rehearsal: ${step.label}`);
  const { code, stdout, stderr } = await run(step.cmd, step.args, { env: { ...process.env, ...WEB_CONFIG }, capture });
  if (capture && `${stdout}${stderr}`.trim()) log(`${stdout}${stderr}`.trimEnd());
  if (code !== 0) throw new Error(`Rehearsal: ${step.label} failed (exit ${code})`);
}

/**
 * The deploy's production web build (web/dist-prod) with a throwaway web config, refused if it
 * carries emulator traces, as the deploy refuses it. It touches nothing the emulators serve, so
 * `npm test` runs it beside the tests; the smoke check serves the same build (smoke-ci.ts).
 * `capture`: its output goes to `log` when it ends instead of straight to the terminal.
 */
export async function buildProductionWeb(log: (line: string) => void, capture = false): Promise<void> {
  await deployStep(0, log, capture);
  const traces = emulatorTraces(join(ROOT, 'web', PROD_OUT_DIR));
  if (traces.length > 0) throw new Error(`Rehearsal: the production build carries emulator settings:\n  ${traces.join('\n  ')}`);
}

/**
 * The deploy's function bundle (with web/dist-prod's asset manifest: build it first), staged in
 * artifacts/rehearsal/functions as `firebase deploy` uploads it. The bundle is built where the
 * deploy builds it, functions/lib; the emulator build that was there is put back afterwards.
 */
export async function stageDeploySource(log: (line: string) => void): Promise<void> {
  const lib = join(ROOT, 'functions', 'lib');
  const aside = join(ROOT, 'artifacts', 'functions-lib-emulator'); // not under REHEARSAL_DIR: stage() empties it
  rmSync(aside, { recursive: true, force: true });
  if (existsSync(lib)) cpSync(lib, aside, { recursive: true });
  try {
    await deployStep(1, log, false);
    const files = stage();
    log(`Rehearsal: staged the deploy source (${files.length} files: ${files.filter((f) => !f.startsWith('lib/web-') && !f.endsWith('.map')).join(', ')})`);
  } finally {
    if (existsSync(aside)) {
      rmSync(lib, { recursive: true, force: true });
      cpSync(aside, lib, { recursive: true });
      rmSync(aside, { recursive: true, force: true });
    }
  }
}

/** Both: the production web build, then the staged function bundle. */
export async function buildDeploySource(log: (line: string) => void): Promise<void> {
  await buildProductionWeb(log);
  await stageDeploySource(log);
}

/** Where package `name` is installed for code in `dir` (node's resolution; the packages' exports maps hide their package.json). */
function packageDir(dir: string, name: string): string {
  const entry = createRequire(join(dir, 'package.json')).resolve(name);
  return entry.slice(0, entry.lastIndexOf(`/node_modules/${name}/`) + `/node_modules/${name}`.length);
}

/** The manifest firebase-tools reads at deploy: firebase-functions' own loader over the staged source. */
export function readManifest(dir = STAGED): Manifest {
  const bin = join(packageDir(dir, 'firebase-functions'), 'lib', 'bin', 'firebase-functions.js');
  const out = join(REHEARSAL_DIR, 'manifest.json'); // not functions.json: node would resolve --source=functions to it
  mkdirSync(REHEARSAL_DIR, { recursive: true }); // a fresh clone's bench reads it before any rehearsal made the folder
  // As firebase-tools discovers triggers: FUNCTIONS_CONTROL_API, the project, nothing secret.
  const loaded = spawnSync(process.execPath, [bin], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, FUNCTIONS_CONTROL_API: 'true', FUNCTIONS_MANIFEST_OUTPUT_PATH: out, GCLOUD_PROJECT: PROJECT_ID, METADATA_SERVER_DETECTION: 'none' },
    encoding: 'utf8',
  });
  if (loaded.status !== 0) throw new Error(`Reading the functions' manifest failed:\n${loaded.stderr}`);
  return JSON.parse(readFileSync(out, 'utf8')) as Manifest;
}

/**
 * What Cloud Run gives one function: its own secrets, the codebase's params (their defaults; the
 * rehearsal invents no value), the variables firebase-tools sets for every function, the emulators.
 */
export function functionEnv(name: string, endpoint: Endpoint, manifest: Manifest, port: number): Record<string, string> {
  const params: Record<string, string> = {};
  for (const p of manifest.params ?? []) {
    if (p.type === 'secret') continue; // secrets go only to the functions that declare them
    if (p.default === undefined) throw new Error(`Param ${p.name} has no default: give the rehearsal a value for it`);
    params[p.name] = String(p.default);
  }
  const secrets = Object.fromEntries((endpoint.secretEnvironmentVariables ?? []).map(({ key }) => [key, secretValue(key)]));
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    PORT: String(port),
    K_SERVICE: name,
    K_REVISION: `${name}-00001-rehearsal`,
    K_CONFIGURATION: name,
    FUNCTION_TARGET: endpoint.entryPoint,
    FUNCTION_SIGNATURE_TYPE: signatureType(endpoint),
    GCLOUD_PROJECT: PROJECT_ID,
    FIREBASE_CONFIG: JSON.stringify({ projectId: PROJECT_ID, storageBucket: EMULATOR_ENV.STORAGE_BUCKET }),
    FIRESTORE_EMULATOR_HOST: EMULATOR_ENV.FIRESTORE_EMULATOR_HOST,
    FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_ENV.FIREBASE_AUTH_EMULATOR_HOST,
    FIREBASE_STORAGE_EMULATOR_HOST: EMULATOR_ENV.FIREBASE_STORAGE_EMULATOR_HOST,
    STORAGE_EMULATOR_HOST: EMULATOR_ENV.STORAGE_EMULATOR_HOST,
    // Stripe's host: the suite's stand-in for it, as the emulators stand in for Google's services.
    STRIPE_API_BASE: EMULATOR_ENV.STRIPE_API_BASE,
    METADATA_SERVER_DETECTION: 'none', // no metadata server on this machine
    ...(endpoint.environmentVariables ?? {}),
    ...params,
    ...secrets,
  };
}

/** How functions-framework serves the function: plain HTTP, or CloudEvents for an event function. */
const signatureType = (endpoint: Endpoint) => (endpoint.eventTrigger ? 'cloudevent' : 'http');

/** A random secret in the shape its consumer checks: Stripe's keys look like Stripe's (issue 35); SMTP_URI is this slot's inbox. */
function secretValue(key: string): string {
  if (SECRET_VALUES[key]) return SECRET_VALUES[key];
  const random = randomBytes(32).toString('hex');
  if (key === 'STRIPE_SECRET_KEY') return `sk_test_rehearsal${random}`;
  if (key === 'STRIPE_WEBHOOK_SECRET') return `whsec_rehearsal${random}`;
  return random;
}

/** RSS now and at its peak (MiB) of the functions-framework process under the watchdog `p`. */
function memory(p: WatchedProcess): { rss: number; peak: number } {
  const watchdog = p.child.pid!;
  const child = readFileSync(`/proc/${watchdog}/task/${watchdog}/children`, 'utf8').trim().split(/\s+/)[0];
  const status = readFileSync(`/proc/${child}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

interface Booted {
  url: string;
  process: WatchedProcess;
  /** From spawning the process to its first answer: the cold start before any request's own work. */
  bootMs: number;
  /** The environment it was given (its own secrets among them). */
  env: Record<string, string>;
}

async function boot(name: string, endpoint: Endpoint, manifest: Manifest): Promise<Booted> {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const memoryMb = endpoint.availableMemoryMb ?? 256;
  // The function's own functions-framework (the bundle's dependency), as Cloud Run's buildpack starts it.
  const framework = join(packageDir(STAGED, '@google-cloud/functions-framework'), 'build', 'src', 'main.js');
  const t0 = performance.now();
  const env = functionEnv(name, endpoint, manifest, port);
  const proc = await startServing(
    `${name} (functions-framework --target=${name})`,
    process.execPath,
    [`--max-old-space-size=${heapLimitMb(memoryMb)}`, framework, `--target=${endpoint.entryPoint}`, `--signature-type=${signatureType(endpoint)}`, `--source=${STAGED}`, `--port=${port}`],
    { env, logFile: join(REHEARSAL_DIR, `${name}.log`) },
    async () => {
      // Any answer: it listens. An event function is only connected to: a request without a
      // CloudEvent would just be refused (and logged) by functions-framework.
      if (endpoint.eventTrigger) await new Promise<void>((resolve, reject) => connect(port, HOST).once('connect', function (this: Socket) { this.end(); resolve(); }).once('error', reject));
      else await fetch(`${url}/`);
      return true;
    },
    60_000,
  );
  return { url, process: proc, bootMs: Math.round(performance.now() - t0), env };
}

type Check = (base: string, env: Record<string, string>) => Promise<string>;

/** The routes each function must answer in the rehearsal (a function without an entry fails). */
function routeChecks(bookId: string, release: string): Record<string, [string, Check][]> {
  const expect = (ok: boolean, detail: string) => {
    if (!ok) throw new Error(detail);
    return detail;
  };
  /** A page of the catalogue, the books on sale first (the suite's tests sell some out). */
  const firstBook = async (base: string) => {
    const res = await fetch(`${base}/api/books?limit=12`);
    const books = (await res.json()) as { _id: string; title: string; newPrice: number; stock?: number }[];
    expect(res.status === 200 && Array.isArray(books) && books.length > 0, `GET /api/books -> ${res.status}, ${JSON.stringify(books).slice(0, 120)}`);
    return [...books].sort((a, b) => Number((b.stock ?? 1) > 0) - Number((a.stock ?? 1) > 0));
  };
  return {
    api: [
      ['health', async (base) => {
        const res = await fetch(`${base}/api/health`);
        return expect(res.status === 200, `GET /api/health -> ${res.status} ${await res.text()}`);
      }],
      ['catalogue', async (base) => `GET /api/books -> 200, ${(await firstBook(base)).length} books`],
      ['an order as a signed-in customer', async (base) => {
        const books = (await firstBook(base)).slice(0, 1);
        const customer = await signUpCustomer('rehearsal');
        const res = await fetch(`${base}/api/orders`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${customer.token}`, 'Idempotency-Key': `rehearsal-${randomBytes(6).toString('hex')}` },
          body: JSON.stringify(orderBody(customer.email, books)),
        });
        const body = (await res.json()) as { _id?: string; message?: string };
        return expect(res.status === 201 && !!body._id, `POST /api/orders -> ${res.status} ${body._id ?? body.message}`);
      }],
      ['a refused order, logged with its code', async (base) => {
        const books = (await firstBook(base)).slice(0, 1);
        const customer = await signUpCustomer('rehearsal');
        const stale = { ...orderBody(customer.email, books), totalPrice: '0.01' }; // a cart with an old price
        const res = await fetch(`${base}/api/orders`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${customer.token}`, 'Idempotency-Key': `rehearsal-${randomBytes(6).toString('hex')}` },
          body: JSON.stringify(stale),
        });
        const body = (await res.json()) as { code?: string };
        // Cloud Logging reads a JSON line on stdout as a structured entry (jsonPayload).
        // The line reaches the log file through a pipe, maybe after the answer: wait for it (up to 5 s).
        const find = () => readFileSync(join(REHEARSAL_DIR, 'api.log'), 'utf8').split('\n').find((line) => line.includes('"Order refused"'));
        let entry = find();
        for (let i = 0; !entry && i < 50; i++) entry = await new Promise<string | undefined>((resolve) => setTimeout(() => resolve(find()), 100));
        const logged = entry ? (JSON.parse(entry) as { severity?: string; code?: string }) : null;
        return expect(res.status === 409 && body.code === 'PRICE_CHANGED' && logged?.code === 'PRICE_CHANGED' && logged.severity === 'WARNING',
          `POST /api/orders (stale total) -> ${res.status} ${body.code}; log: ${entry ?? 'no "Order refused" entry'}`);
      }],
      // Issue 35: a card order opens a Checkout session at Stripe (the suite's stand-in), and a webhook
      // signed with the function's own STRIPE_WEBHOOK_SECRET is verified on the raw bytes that
      // functions-framework keeps, then applied; the same bytes re-serialised are refused.
      ['a card order, and a signed Stripe webhook (raw body intact)', async (base, env) => {
        const books = (await firstBook(base)).slice(0, 1);
        const customer = await signUpCustomer('rehearsal');
        const res = await fetch(`${base}/api/orders`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${customer.token}`, 'Idempotency-Key': `rehearsal-${randomBytes(6).toString('hex')}` },
          body: JSON.stringify({ ...orderBody(customer.email, books), payment: { method: 'card' } }),
        });
        const order = (await res.json()) as { _id?: string; checkoutUrl?: string; payment?: { sessionId?: string }; message?: string };
        expect(res.status === 201 && !!order.checkoutUrl && !!order.payment?.sessionId, `POST /api/orders (card) -> ${res.status} ${order.checkoutUrl ?? order.message}`);
        const stripe = new Stripe(env.STRIPE_SECRET_KEY!, { apiVersion: '2026-10-28.endive', host: HOST, port: PORTS.stripe, protocol: 'http' });
        const session = await stripe.checkout.sessions.retrieve(order.payment!.sessionId!);
        const payload = JSON.stringify({
          id: `evt_rehearsal_${randomBytes(8).toString('hex')}`, object: 'event', api_version: '2026-10-28.endive', created: Math.floor(Date.now() / 1000), livemode: false, pending_webhooks: 1,
          request: { id: null, idempotency_key: null }, type: 'checkout.session.completed',
          data: { object: { ...session, status: 'complete', payment_status: 'paid' } },
        });
        const post = (body: string, header: string) => fetch(`${base}/api/stripe/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header }, body });
        const header = stripe.webhooks.generateTestHeaderString({ payload, secret: env.STRIPE_WEBHOOK_SECRET! });
        const reformatted = await post(JSON.stringify(JSON.parse(payload), null, 2), header);
        const signed = await post(payload, header);
        const answer = (await signed.json()) as { result?: string; message?: string };
        const stored = (await adminDb().collection('orders').doc(order._id!).get()).data() as { payment?: { status?: string } } | undefined;
        return expect(reformatted.status === 400 && signed.status === 200 && answer.result === 'applied' && stored?.payment?.status === 'paid',
          `session ${session.id} at ${EMULATOR_ENV.STRIPE_API_BASE}; webhook: re-serialised bytes -> ${reformatted.status}, signed bytes -> ${signed.status} ${answer.result ?? answer.message}; order payment ${stored?.payment?.status}`);
      }],
      // At production's cost: the tests before left the owner a cheap hash (npm test's own), which
      // this function redoes at OWASP's at the first sign-in; the second verifies that one.
      ['admin login, twice, the second at production cost', async (base) => {
        const signIn = async () => {
          const res = await fetch(`${base}/api/auth/admin`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(DEMO_ADMIN) });
          const body = (await res.json()) as { token?: string; message?: string };
          return `${res.status}${body.token ? ', a token' : ` ${body.message}`}`;
        };
        const first = await signIn();
        const hash = String((await adminDb().collection('admins').doc(DEMO_ADMIN.username).get()).get('passwordHash') ?? '');
        const second = await signIn();
        const cost = `scrypt$${OWASP_PARAMS.N}$${OWASP_PARAMS.r}$${OWASP_PARAMS.p}$`;
        return expect(first === '200, a token' && hash.startsWith(cost) && second === '200, a token',
          `POST /api/auth/admin -> ${first}; stored hash ${hash.split('$').slice(0, 4).join('$')} (production: ${cost.slice(0, -1)}); again -> ${second}`);
      }],
    ],
    // The catalogue's search (issue 38: a function sized for its index). Its first request loads or
    // builds the index of the suite's catalogue.
    search: [
      ['a search', async (base) => {
        const res = await fetch(`${base}/api/books/search?q=the`);
        const body = (await res.json()) as { books?: unknown[]; total?: number; message?: string };
        return expect(res.status === 200 && Array.isArray(body.books) && typeof body.total === 'number', `GET /api/books/search?q=the -> ${res.status}, ${body.total ?? body.message} matches`);
      }],
      ['suggestions', async (base) => {
        const res = await fetch(`${base}/api/books/suggest?q=the`);
        const body = (await res.json()) as { suggestions?: unknown[] };
        return expect(res.status === 200 && Array.isArray(body.suggestions), `GET /api/books/suggest?q=the -> ${res.status}, ${body.suggestions?.length ?? 'no'} suggestions`);
      }],
      ["the admin's book list refuses an anonymous caller", async (base) => {
        const res = await fetch(`${base}/api/admin/books?q=the`);
        return expect(res.status === 401, `GET /api/admin/books?q=the (no token) -> ${res.status}`);
      }],
    ],
    // The search index's builder (issue 58, decision 044): Eventarc POSTs a "document written"
    // CloudEvent for meta/catalog; the builder reads the version itself, builds and publishes it.
    buildSearchIndex: [
      ['a "meta/catalog written" CloudEvent builds and publishes the newest version', async (base) => {
        // The suite's own builder (Functions emulator) must not build it first.
        await setEmulatorTriggers(false);
        try {
          const catalog = adminDb().collection('meta').doc('catalog');
          await catalog.set({ version: FieldValue.increment(1) }, { merge: true });
          const version = ((await catalog.get()).get('version') as number) ?? 0;
          const status = (await postFirestoreEvent(base, randomBytes(8).toString('hex'), 'catalog', { version }, { collection: 'meta', type: 'written' })).status;
          const published = (await adminDb().collection('meta').doc(`searchIndex-${SEARCH_SCHEMA}`).get()).data() as { version?: number; books?: number } | undefined;
          return expect(status >= 200 && status < 300 && published?.version === version,
            `POST / (ce-type google.cloud.firestore.document.v1.written, ce-document meta/catalog) -> ${status}; published snapshot: version ${published?.version} of ${version}, ${published?.books} books`);
        } finally {
          await setEmulatorTriggers(true);
        }
      }],
    ],
    // The pickup holds' release (issue 27): Cloud Scheduler POSTs to the service with its job headers;
    // firebase-functions answers 200 once the job ran, 500 if it threw. Twice: the job is idempotent.
    releaseHolds: [
      ["the scheduler's call, twice", async (base) => {
        const call = () => fetch(`${base}/`, {
          method: 'POST',
          headers: { 'X-CloudScheduler-JobName': 'firebase-schedule-releaseHolds-us-central1', 'X-CloudScheduler-ScheduleTime': new Date().toISOString(), 'Content-Type': 'application/json' },
          body: '{}',
        });
        // Each run logs one structured entry; the boot's readiness probe (any request) ran it once already.
        const find = () => readFileSync(join(REHEARSAL_DIR, 'releaseHolds.log'), 'utf8').split('\n').filter((line) => line.includes('"Pickup holds released"'));
        const before = find().length;
        const statuses = [(await call()).status, (await call()).status];
        let runs = find();
        for (let i = 0; runs.length < before + 2 && i < 50; i++) runs = await new Promise<string[]>((resolve) => setTimeout(() => resolve(find()), 100));
        return expect(statuses.every((st) => st === 200) && runs.length >= before + 2, `POST / (X-CloudScheduler-JobName) x2 -> ${statuses.join(', ')}; ${runs.length - before} more "Pickup holds released" log entries${runs.at(-1) ? `, the last: ${runs.at(-1)}` : ''}`);
      }],
    ],
    // The shop's mail (decision 037): Eventarc POSTs a CloudEvent per mail document created, in
    // binary mode with the document as protobuf, at least once. Twice here: one message arrives.
    sendMail: [
      ['a Firestore "document created" CloudEvent for a mail, delivered twice', async (base) => {
        const id = `rehearsal-${randomBytes(6).toString('hex')}`;
        const to = `${id}@example.com`;
        const subject = `Rehearsal mail ${id}`;
        const mail = { to, message: { subject, text: 'Sent by sendMail alone under functions-framework.', html: '<p>Sent by sendMail alone.</p>' }, delivery: { state: 'PENDING', attempts: 0 } };
        // The suite's own sendMail (Functions emulator) must not race this one for the document.
        await setEmulatorTriggers(false);
        try {
          await adminDb().collection('mail').doc(id).create(mail);
          const eventId = randomBytes(8).toString('hex');
          const statuses = [(await postFirestoreEvent(base, eventId, id, mail)).status, (await postFirestoreEvent(base, eventId, id, mail)).status];
          const record = (await adminDb().collection('mail').doc(id).get()).data()?.delivery as { state?: string; attempts?: number; error?: string } | undefined;
          const received = (await (await fetch(`${INBOX_URL}/messages.json?to=${encodeURIComponent(to)}`)).json()) as { subject: string }[];
          return expect(statuses.every((st) => st >= 200 && st < 300) && record?.state === 'SUCCESS' && record.attempts === 1 && received.length === 1 && received[0]!.subject === subject,
            `POST / (ce-type google.cloud.firestore.document.v1.created, ce-document mail/${id}, protobuf) x2 -> ${statuses.join(', ')}; delivery ${record?.state} after ${record?.attempts} tries${record?.error ? ` (${record.error})` : ''}; the SMTP server got ${received.length} message(s) to ${to}${received[0] ? `: "${received[0].subject}"` : ''}`);
        } finally {
          await setEmulatorTriggers(true);
        }
      }],
    ],
    // The mail sweeper (issue 58): Cloud Scheduler POSTs every minute; a mail due for another try
    // (RETRY, its time past) is sent by this run alone, once, and recorded SUCCESS.
    sweepMail: [
      ["the scheduler's call sends a mail due for another try, once", async (base) => {
        const id = `rehearsal-sweep-${randomBytes(6).toString('hex')}`;
        const to = `${id}@example.com`;
        const subject = `Rehearsal retry ${id}`;
        const call = () => fetch(`${base}/`, {
          method: 'POST',
          headers: { 'X-CloudScheduler-JobName': 'firebase-schedule-sweepMail-us-central1', 'X-CloudScheduler-ScheduleTime': new Date().toISOString(), 'Content-Type': 'application/json' },
          body: '{}',
        });
        // The suite's own sendMail (Functions emulator) sweeps too after each mail: off meanwhile.
        await setEmulatorTriggers(false);
        try {
          await adminDb().collection('mail').doc(id).create({
            to, message: { subject, text: 'Sent by sweepMail alone under functions-framework.', html: '' },
            delivery: { state: 'RETRY', attempts: 1, error: '421 4.7.0 Try again later', nextAttemptAt: Timestamp.fromMillis(Date.now() - 1000), leaseExpireTime: null },
          });
          const statuses = [(await call()).status, (await call()).status];
          const record = (await adminDb().collection('mail').doc(id).get()).data()?.delivery as { state?: string; attempts?: number; error?: string } | undefined;
          const received = (await (await fetch(`${INBOX_URL}/messages.json?to=${encodeURIComponent(to)}`)).json()) as { subject: string }[];
          return expect(statuses.every((st) => st === 200) && record?.state === 'SUCCESS' && record.attempts === 2 && received.length === 1,
            `POST / (X-CloudScheduler-JobName) x2 -> ${statuses.join(', ')}; mail/${id} (RETRY, due) -> ${record?.state} after ${record?.attempts} tries${record?.error ? ` (${record.error})` : ''}; the SMTP server got ${received.length} message(s) to ${to}`);
        } finally {
          await setEmulatorTriggers(true);
        }
      }],
    ],
    // The audit chain's daily anchor (issue 55): Cloud Scheduler POSTs once a day; twice here, the
    // day's mail is queued once and each run logs the head it anchored.
    anchorAudit: [
      ["the scheduler's call, twice: the day's anchor mailed once", async (base) => {
        const call = () => fetch(`${base}/`, {
          method: 'POST',
          headers: { 'X-CloudScheduler-JobName': 'firebase-schedule-anchorAudit-us-central1', 'X-CloudScheduler-ScheduleTime': new Date().toISOString(), 'Content-Type': 'application/json' },
          body: '{}',
        });
        const find = () => readFileSync(join(REHEARSAL_DIR, 'anchorAudit.log'), 'utf8').split('\n').filter((line) => line.includes('"Audit chain anchored"'));
        const before = find().length;
        const statuses = [(await call()).status, (await call()).status];
        let runs = find();
        for (let i = 0; runs.length < before + 2 && i < 50; i++) runs = await new Promise<string[]>((resolve) => setTimeout(() => resolve(find()), 100));
        const mail = (await adminDb().collection('mail').doc(`audit-anchor-${shopDay(new Date())}`).get()).data() as { to?: string; message?: { subject?: string } } | undefined;
        return expect(statuses.every((st) => st === 200) && runs.length >= before + 2 && !!mail?.message?.subject?.startsWith('Audit log anchor'),
          `POST / (X-CloudScheduler-JobName) x2 -> ${statuses.join(', ')}; ${runs.length - before} more "Audit chain anchored" log entries; the day's anchor mail ${mail ? `to ${mail.to}: "${mail.message?.subject}"` : 'MISSING'}`);
      }],
    ],
    pages: [
      ['a book page', async (base) => {
        const res = await fetch(`${base}/books/${bookId}`);
        const html = await res.text();
        const served = res.headers.get('x-release');
        return expect(res.status === 200 && /<html/i.test(html) && served === release, `GET /books/${bookId} -> ${res.status}, ${html.length} bytes, X-Release ${served} (Hosting upload: ${release})`);
      }],
      ['/books', async (base) => {
        const res = await fetch(`${base}/books`);
        const html = await res.text();
        return expect(res.status === 200 && /<html/i.test(html), `GET /books -> ${res.status}, ${html.length} bytes`);
      }],
      ['a sitemap', async (base) => {
        const res = await fetch(`${base}/sitemap.xml`);
        const xml = await res.text();
        return expect(res.status === 200 && /<(sitemapindex|urlset)/.test(xml), `GET /sitemap.xml -> ${res.status}, ${xml.length} bytes`);
      }],
    ],
  };
}

/** The Functions emulator's background triggers off or on (its hub's switch; on reloads them). */
async function setEmulatorTriggers(on: boolean): Promise<void> {
  const res = await fetch(`http://${HOST}:${PORTS.hub}/functions/${on ? 'enable' : 'disable'}BackgroundTriggers`, { method: 'PUT' });
  if (!res.ok) throw new Error(`Turning the emulator's triggers ${on ? 'on' : 'off'}: ${res.status} ${await res.text()}`);
}

type ProtoValue = { stringValue: string } | { integerValue: number } | { mapValue: { fields: Record<string, ProtoValue> } };

/** A plain object as Firestore's protobuf fields (strings, whole numbers, maps: what a mail holds). */
function protoFields(value: Record<string, unknown>): Record<string, ProtoValue> {
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, typeof v === 'string' ? { stringValue: v } : typeof v === 'number' ? { integerValue: v } : { mapValue: { fields: protoFields(v as Record<string, unknown>) } }]));
}

/**
 * What Eventarc POSTs to the service for a created (or written) Firestore document: a binary-mode CloudEvent
 * (ce-* headers) whose body is DocumentEventData as protobuf, encoded with the protos that the
 * deploy bundle's firebase-functions decodes it with.
 */
async function postFirestoreEvent(base: string, eventId: string, id: string, doc: Record<string, unknown>, { collection = 'mail', type = 'created' } = {}): Promise<Response> {
  const protos = createRequire(join(packageDir(STAGED, 'firebase-functions'), 'package.json'))('./protos/compiledFirestore') as {
    google: { events: { cloud: { firestore: { v1: { DocumentEventData: { fromObject(o: unknown): unknown; encode(m: unknown): { finish(): Uint8Array } } } } } } };
  };
  const { DocumentEventData } = protos.google.events.cloud.firestore.v1;
  const now = { seconds: Math.floor(Date.now() / 1000), nanos: 0 };
  const name = `projects/${PROJECT_ID}/databases/(default)/documents/${collection}/${id}`;
  const body = new Uint8Array(DocumentEventData.encode(DocumentEventData.fromObject({ value: { name, fields: protoFields(doc), createTime: now, updateTime: now } })).finish());
  return fetch(`${base}/`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/protobuf',
      'ce-specversion': '1.0',
      'ce-id': eventId, // a redelivery carries the same id
      'ce-type': `google.cloud.firestore.document.v1.${type}`,
      'ce-source': `//firestore.googleapis.com/projects/${PROJECT_ID}/databases/(default)`,
      'ce-subject': `documents/${collection}/${id}`,
      'ce-time': new Date().toISOString(),
      'ce-dataschema': 'https://github.com/googleapis/google-cloudevents/blob/main/proto/google/events/cloud/firestore/v1/data.proto',
      'ce-location': 'us-central1',
      'ce-project': PROJECT_ID,
      'ce-database': '(default)',
      'ce-namespace': '(default)',
      'ce-document': `${collection}/${id}`,
    },
    body,
  });
}

/** The versions the rehearsal runs (node resolving from the staged source) against the ones `npm ci` installs there. */
function lockedTreeChecks(): SmokeResult[] {
  const results: SmokeResult[] = [];
  const lockPath = join(STAGED, 'package-lock.json');
  if (!existsSync(lockPath)) return [{ name: 'deploy source has a lockfile', status: 'fail', detail: 'no package-lock.json in the deploy source: Cloud Build would run npm install and resolve versions again' }];
  const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as { packages: Record<string, { version?: string }> };
  const pkg = JSON.parse(readFileSync(join(STAGED, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const loose = Object.entries(pkg.dependencies).filter(([, spec]) => !/^\d+\.\d+\.\d+$/.test(spec));
  results.push({ name: 'deploy source pins every dependency', status: loose.length === 0 ? 'pass' : 'fail',
    detail: loose.length === 0 ? `${Object.keys(pkg.dependencies).length} exact versions, @google-cloud/functions-framework ${pkg.dependencies['@google-cloud/functions-framework'] ?? 'MISSING'}` : `not exact: ${loose.map(([n, v]) => `${n}@${v}`).join(', ')}` });
  const differ: string[] = [];
  let compared = 0;
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path.startsWith('node_modules/') || path.includes('/node_modules/', 'node_modules/'.length - 1)) continue; // top level
    const name = path.slice('node_modules/'.length);
    try {
      const installed = (JSON.parse(readFileSync(join(packageDir(STAGED, name), 'package.json'), 'utf8')) as { version: string }).version;
      compared += 1;
      if (installed !== entry.version) differ.push(`${name} ${installed} here, ${entry.version} locked`);
    } catch {
      /* optional or not resolvable by its main (types-only): not loaded by the function */
    }
  }
  results.push({ name: 'the rehearsal runs the locked tree', status: differ.length === 0 ? 'pass' : 'fail',
    detail: differ.length === 0 ? `${compared} top-level packages of the deploy's package-lock.json (${Object.keys(lock.packages).length - 1} in all) are the versions loaded here` : differ.join('; ') });
  const web = JSON.parse(readFileSync(join(ROOT, 'web', PROD_OUT_DIR, 'release.json'), 'utf8')) as { release: string };
  const bundled = existsSync(join(STAGED, 'lib', 'web-release.json')) ? (JSON.parse(readFileSync(join(STAGED, 'lib', 'web-release.json'), 'utf8')) as { release: string }).release : 'none';
  results.push({ name: "the function renders for the Hosting upload's build", status: bundled === web.release ? 'pass' : 'fail', detail: `web/${PROD_OUT_DIR}/release.json ${web.release}, the bundle's ${bundled}` });
  return results;
}

/** The route each function is loaded on (GET, a few seconds, loopback). */
const loadPath = (name: string, bookId: string) => (name === 'pages' ? `/books/${bookId}` : name === 'search' ? '/api/books/search?q=the' : '/api/books?limit=12');

/**
 * Boots every function of the staged deploy source alone, checks its routes, loads it briefly and
 * reads its memory. Needs the suite's emulators running (seeded: books, the demo admin).
 */
export async function rehearse(log: (line: string) => void): Promise<SmokeResult[]> {
  const results: SmokeResult[] = [];
  const record = (name: string, ok: boolean, detail: string) => results.push({ name, status: ok ? 'pass' : 'fail', detail });
  let manifest: Manifest;
  try {
    manifest = readManifest();
  } catch (error) {
    return [{ name: 'manifest', status: 'fail', detail: (error as Error).message }];
  }
  const bookId = (await adminDb().collection('books').limit(1).get()).docs[0]?.id ?? 'no-book-seeded';
  const release = (JSON.parse(readFileSync(join(ROOT, 'web', PROD_OUT_DIR, 'release.json'), 'utf8')) as { release: string }).release;
  const checks = routeChecks(bookId, release);
  results.push(...lockedTreeChecks());
  for (const [name, endpoint] of Object.entries(manifest.endpoints)) {
    const memoryMb = endpoint.availableMemoryMb ?? 256;
    const declared = (endpoint.secretEnvironmentVariables ?? []).map((s) => s.key);
    log(`Rehearsal: ${name}: ${memoryMb} MiB, secrets [${declared.join(', ')}]`);
    let booted: Booted;
    try {
      booted = await boot(name, endpoint, manifest);
    } catch (error) {
      record(`${name} starts alone`, false, (error as Error).message.trim().split('\n').slice(-12).join('\n      '));
      continue;
    }
    try {
      record(`${name} starts alone`, true, `K_SERVICE=${name}, NODE_ENV=production, --max-old-space-size=${heapLimitMb(memoryMb)} (${PRODUCTION_NODE_OPTIONS} of ${memoryMb} MiB, as production), secrets: ${declared.join(', ') || 'none'}; first answer ${booted.bootMs} ms after the process started (the cold start minInstances would hide, decision 034)`);
      const mine = checks[name];
      if (!mine) record(`${name} routes`, false, 'the rehearsal has no route checks for this function: add them to scripts/lib/rehearsal.ts');
      for (const [index, [what, check]] of (mine ?? []).entries()) {
        const t0 = performance.now();
        try {
          const detail = await check(booted.url, booted.env);
          record(`${name}: ${what}`, true, index === 0 ? `${detail} (the instance's first request: ${Math.round(performance.now() - t0)} ms)` : detail);
        } catch (error) {
          record(`${name}: ${what}`, false, (error as Error).message);
        }
      }
      if (endpoint.scheduleTrigger || endpoint.eventTrigger) {
        // Called by Cloud Scheduler or Eventarc, never by the public: no load, its memory after the runs.
        const { rss, peak } = memory(booted.process);
        record(`${name} stays within ${memoryMb} MiB`, peak <= memoryMb, `${endpoint.eventTrigger ? 'event-driven' : 'scheduled'} (no public traffic): RSS ${rss} MiB after the runs, peak ${peak} MiB of ${memoryMb}`);
        continue;
      }
      const before = memory(booted.process);
      const loaded = await load({ name, url: `${booted.url}${loadPath(name, bookId)}` }, LOAD_CONNECTIONS, LOAD_SECONDS);
      const after = memory(booted.process);
      const within = after.peak <= memoryMb && loaded.status5xx === 0 && loaded.errors === 0;
      record(`${name} under load stays within ${memoryMb} MiB`, within,
        `GET ${loadPath(name, bookId)} ${LOAD_SECONDS} s x ${LOAD_CONNECTIONS} connections: ${loaded.requests} answers (${Math.round(loaded.rps)}/s, p99 ${loaded.p99} ms, ${loaded.non2xx} non-2xx, ${loaded.errors} errors); RSS ${before.rss} MiB before, ${after.rss} MiB after, peak ${after.peak} MiB of ${memoryMb}`);
    } finally {
      await booted.process.stop();
    }
  }
  results.push(...(await rehearseTwoReleases(bookId, STAGED, REHEARSAL_DIR)));
  return results;
}
