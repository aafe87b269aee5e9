import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { BackendContext, EmulatorBackend } from './backend';
import { writeEmulatorConfig } from './emulator-config';
import { startDevInbox } from './dev-inbox';
import { readSecret, withSecrets } from './secret-file';
import { EMULATOR_ENV, HOST, LOCAL_SMTP_URI, PORTS, PROJECT_ID, ROOT, SHOP_URL, STRIPE_WEBHOOK_URL } from './env';
import { startStripeStandIn } from './stripe-stand-in/server';
import { findCloudSdkJar, startCloudSdkFirestore } from './firestore-cloud-sdk';
import { startFirestoreStandIn } from './firestore-stand-in';
import { migrateOrders } from './migrate-orders';
import { describeUpgrade, migratePlaces } from './migrate-places';
import { assertPortsFree } from './ports';
import { seedIfEmpty } from './seed';
import { startStorageReplacement } from './storage-replacement';
import { startServing } from './watched-process';

const AUTH_EMULATOR_LAZY = join(ROOT, 'scripts', 'lib', 'auth-emulator-lazy.cjs');
const KEEP_ALIVE = join(ROOT, 'scripts', 'lib', 'keep-alive.cjs');

export const SAVE_INTERVAL_MS = Number(process.env.BOOKSTORE_SAVE_INTERVAL_MS ?? 10_000);

/**
 * Which Firestore runs: firebase-tools' own (Java 21+ and its downloaded jars), else the official
 * emulator jar from the Cloud SDK started by us (Java 17 is enough), else the npm stand-in.
 */
export type FirestoreKind = 'firebase-tools' | 'cloud-sdk' | 'stand-in';

/** `java -version`'s version string ('17.0.12'), or '' without Java. */
export function javaVersion(): string {
  const out = spawnSync('java', ['-version'], { encoding: 'utf8' });
  return /version "([^"]+)"/.exec(`${out.stderr}${out.stdout}`)?.[1] ?? '';
}

/** The emulator jars firebase-tools has downloaded. */
export function firebaseToolsJars(): string[] {
  const dir = process.env.FIREBASE_EMULATORS_PATH ?? join(homedir(), '.cache', 'firebase', 'emulators');
  return existsSync(dir) ? readdirSync(dir) : [];
}

export function chooseFirestore(): FirestoreKind {
  const forced = process.env.BOOKSTORE_FIRESTORE;
  if (forced === 'firebase-tools' || forced === 'cloud-sdk' || forced === 'stand-in') return forced;
  const java = parseInt(javaVersion(), 10) || 0;
  const jars = firebaseToolsJars();
  if (java >= 21 && ['cloud-firestore-emulator', 'cloud-storage-rules-runtime'].every((name) => jars.some((f) => f.startsWith(name)))) return 'firebase-tools';
  if (java >= 11 && findCloudSdkJar()) return 'cloud-sdk';
  return 'stand-in';
}

export interface SuiteOptions {
  /** Where data is imported from and saved to; null for a throwaway suite. */
  stateDir: string | null;
  log?: (line: string) => void;
  /** Print the emulators' own output instead of keeping it in a log file. */
  verbose?: boolean;
  /**
   * Work the firebase CLI's emulators need done first (the launcher's build: the Functions emulator
   * loads functions/lib, Hosting serves web/dist). Firestore and Storage start meanwhile, so a first
   * start's JVM boot overlaps the build instead of following it.
   */
  before?: Promise<void>;
  /** Where the emulators' output goes (default: <stateDir>/emulators.log, or memory for a throwaway suite). */
  logFile?: string;
}

export interface Suite {
  firestore: FirestoreKind;
  seeded: boolean;
  save(): Promise<void>;
  stop(): Promise<void>;
}

// The firebase CLI's emulators: Auth, Functions, Hosting (and Firestore and Storage too where
// firebase-tools runs its own). Its hub exports what it runs; `--import` loads it back.

/**
 * The function's local secrets, kept in the ignored functions/.secret.local, which the Functions
 * emulator reads and gives each function only the secrets it declares (as Cloud Run does). Each is
 * made once, at random: the HS256 key for admin tokens, and a Stripe test key and webhook signing
 * secret that only the local stand-in for Stripe knows (scripts/lib/stripe-stand-in). A file from
 * before issue 35 gets the Stripe lines added; what it holds is never changed, except SMTP_URI,
 * which is always this port slot's inbox (dev-inbox.ts): without it the emulator would ask Secret
 * Manager (unreachable offline), and a stale one would send this slot's mail to another's inbox.
 */
export function localSecrets(): { ADMIN_JWT_SECRET: string; STRIPE_SECRET_KEY: string; STRIPE_WEBHOOK_SECRET: string; SMTP_URI: string } {
  const file = `${ROOT}functions/.secret.local`;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const wanted = {
    ADMIN_JWT_SECRET: readSecret(text, 'ADMIN_JWT_SECRET') ?? randomBytes(32).toString('hex'),
    STRIPE_SECRET_KEY: readSecret(text, 'STRIPE_SECRET_KEY') ?? `sk_test_local${randomBytes(16).toString('hex')}`,
    STRIPE_WEBHOOK_SECRET: readSecret(text, 'STRIPE_WEBHOOK_SECRET') ?? `whsec_local${randomBytes(16).toString('hex')}`,
    SMTP_URI: LOCAL_SMTP_URI,
  };
  const rewritten = withSecrets(text, wanted);
  if (rewritten !== null) writeFileSync(file, rewritten, { mode: 0o600 });
  return wanted;
}

/** The HS256 key for admin tokens (localSecrets). */
export const jwtSecret = (): string => localSecrets().ADMIN_JWT_SECRET;

async function startFirebaseCli(ctx: BackendContext, kind: FirestoreKind): Promise<EmulatorBackend> {
  const hubDir = ctx.stateDir && join(ctx.stateDir, kind === 'firebase-tools' ? 'official-export' : 'auth-export');
  const only = kind === 'firebase-tools' ? 'auth,functions,hosting,firestore,storage' : 'auth,functions,hosting';
  // --config: firebase.json plus the Auth emulator in the CSP (scripts/lib/emulator-config.ts).
  const args = ['emulators:start', '--only', only, '--project', PROJECT_ID, '--config', writeEmulatorConfig()];
  if (hubDir && existsSync(join(hubDir, 'firebase-export-metadata.json'))) args.push('--import', hubDir);
  // The official Firestore we run ourselves joins the CLI's registry, so its Functions emulator
  // registers the Firestore triggers with it (firebase-cli-firestore.cjs, decision 037).
  const triggers = kind === 'cloud-sdk' ? { node: ['--require', `${ROOT}scripts/lib/firebase-cli-firestore.cjs`], env: { BOOKSTORE_FIRESTORE_FOR_TRIGGERS: `${HOST}:${PORTS.firestore}` } } : { node: [], env: {} };
  const cli = await startServing(
    'the emulator suite (Hosting -> /api function)',
    process.execPath,
    // The Auth emulator compiles its schemas when first used, not all at start (auth-emulator-lazy.cjs);
    // idle keep-alive connections stay open 65 s, not 5 (keep-alive.cjs).
    ['--require', AUTH_EMULATOR_LAZY, '--require', KEEP_ALIVE, ...triggers.node, `${ROOT}node_modules/firebase-tools/lib/bin/firebase.js`, ...args],
    { env: { ...process.env, ...EMULATOR_ENV, ...triggers.env, ...localSecrets(), FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' }, logFile: ctx.logFile, echo: ctx.verbose },
    async () => (await fetch(`${SHOP_URL}/api/health`)).ok,
    180_000,
  );
  return {
    label: `Auth, Functions, Hosting${kind === 'firebase-tools' ? ', Firestore, Storage' : ''}: firebase-tools emulators${ctx.logFile ? ` (log: ${ctx.logFile})` : ''}`,
    async save() {
      if (!hubDir || cli.exited()) return;
      const res = await fetch(`http://${HOST}:${PORTS.hub}/_admin/export`, {
        // Only what the CLI itself runs: Firestore and Storage, when ours, save themselves.
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ path: hubDir, initiatedBy: 'launcher', ...(kind === 'firebase-tools' ? {} : { targets: ['auth'] }) }),
      });
      if (!res.ok) throw new Error(`Emulator export failed: ${res.status} ${await res.text()}`);
    },
    stop: () => cli.stop(),
  };
}

/**
 * The backends for a Firestore kind: ours, then the firebase CLI that needs them (started together,
 * stopped in reverse); the firebase CLI once `before` is done (it serves the build).
 */
function backendsFor(kind: FirestoreKind, before: Promise<void>): ((ctx: BackendContext) => Promise<EmulatorBackend>)[] {
  const cli = async (ctx: BackendContext) => {
    await before;
    return startFirebaseCli(ctx, kind);
  };
  // The stand-in for Stripe first: the function calls it from its first card order.
  if (kind === 'firebase-tools') return [startStripe, startDevInbox, cli];
  return [startStripe, kind === 'cloud-sdk' ? startCloudSdkFirestore : startFirestoreStandIn, startStorageReplacement, startDevInbox, cli];
}

/** Our stand-in for Stripe, in this process, delivering events to the shop's webhook through Hosting. */
async function startStripe(): Promise<EmulatorBackend> {
  const standIn = await startStripeStandIn({
    port: PORTS.stripe,
    webhookUrl: STRIPE_WEBHOOK_URL,
    webhookSecret: localSecrets().STRIPE_WEBHOOK_SECRET,
    log: (line) => console.log(`  stripe stand-in: ${line}`),
  });
  return {
    label: `Stripe: our stand-in at ${standIn.url} (webhooks to ${STRIPE_WEBHOOK_URL}; state in memory)`,
    save: async () => {},
    stop: () => standIn.close(),
  };
}

/**
 * The whole emulator suite, seeded: each backend started in turn, data saved every
 * SAVE_INTERVAL_MS and on stop (decision 012), everything stopped if any part fails to start.
 */
export async function startSuite(options: SuiteOptions): Promise<Suite> {
  const log = options.log ?? ((line: string) => console.log(line));
  const before = options.before ?? Promise.resolve();
  before.catch(() => {}); // awaited below; a failure meanwhile is not unhandled
  await assertPortsFree();
  Object.assign(process.env, EMULATOR_ENV); // firebase-admin here (seed, migration) and every child
  // The Stripe test secrets too: the tests sign events and the function verifies them with the same one.
  const { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET } = localSecrets();
  Object.assign(process.env, { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET });
  const kind = chooseFirestore();
  const { stateDir } = options;
  if (stateDir) mkdirSync(stateDir, { recursive: true });
  const ctx: BackendContext = { stateDir, logFile: options.logFile ?? (stateDir && !options.verbose ? join(stateDir, 'emulators.log') : null), verbose: !!options.verbose };
  if (kind === 'stand-in') log('Firestore: no Java or official emulator jar found here, so the npm stand-in runs instead (it fires no triggers: mail stays queued, unsent).');

  const running: EmulatorBackend[] = [];
  let timer: NodeJS.Timeout | undefined;
  const save = async () => {
    for (const backend of running) await backend.save();
  };
  const stopAll = async () => {
    clearInterval(timer);
    for (const backend of [...running].reverse()) await backend.stop().catch(() => {});
  };
  try {
    // All at once (the firebase CLI needs the others only once it serves: its readiness check asks
    // /api/health, which reads Firestore); a Java and a Node start-up overlap instead of adding up.
    const started = await Promise.allSettled(backendsFor(kind, before).map((start) => start(ctx)));
    for (const result of started) {
      if (result.status === 'fulfilled') running.push(result.value);
    }
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    for (const backend of running) log(backend.label);
    const migrated = await migrateOrders(); // once, on local data from before order snapshots and stock
    if (!migrated.alreadyDone && migrated.orders + migrated.books > 0) {
      log(`Migrated old local data: ${migrated.orders} orders given their lines, ${migrated.books} books given stock.`);
    }
    const seeded = await seedIfEmpty();
    const places = await migratePlaces(); // once, on local settings saved before places were codes (issue 36)
    if (!places.alreadyCodes) for (const line of describeUpgrade(places)) log(line);
    if (stateDir) {
      await save();
      timer = setInterval(() => save().catch((e) => log(`Periodic save failed: ${e}`)), SAVE_INTERVAL_MS);
    }
    return {
      firestore: kind,
      seeded,
      save,
      async stop() {
        clearInterval(timer);
        await save().catch((e) => log(`Final save failed: ${e}`));
        await stopAll();
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
