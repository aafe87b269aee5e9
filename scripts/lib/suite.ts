import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { EmulatorBackend } from './backend';
import { writeEmulatorConfig } from './emulator-config';
import { EMULATOR_ENV, HOST, PORTS, PROJECT_ID, ROOT, SHOP_URL, useEmulatorEnv } from './env';
import { findCloudSdkJar, startCloudSdkFirestore } from './firestore-cloud-sdk';
import { startFirestoreStandIn } from './firestore-stand-in';
import { assertPortsFree, waitFor } from './ports';
import { migrateOrders } from './migrate-orders';
import { seedIfEmpty } from './seed';
import { startStorageReplacement } from './storage-replacement';
import { startWatched, type WatchedProcess } from './watched-process';

export const SAVE_INTERVAL_MS = Number(process.env.BOOKSTORE_SAVE_INTERVAL_MS ?? 10_000);

/**
 * Which Firestore runs: firebase-tools' own (Java 21+ and its downloaded jars), else the official
 * emulator jar from the Cloud SDK started by us (Java 17 is enough), else the npm stand-in.
 */
export type FirestoreKind = 'firebase-tools' | 'cloud-sdk' | 'stand-in';

export interface SuiteOptions {
  /** Where data is imported from and saved to; null for a throwaway suite. */
  stateDir: string | null;
  log?: (line: string) => void;
  /** Print the emulators' own output instead of keeping it in a log file. */
  verbose?: boolean;
}

export interface Suite {
  firestore: FirestoreKind;
  seeded: boolean;
  save(): Promise<void>;
  stop(): Promise<void>;
}

function javaMajor(): number {
  const out = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const match = /version "(\d+)/.exec(`${out.stderr}${out.stdout}`);
  return match ? Number(match[1]) : 0;
}

function firebaseToolsHasJars(): boolean {
  const dir = process.env.FIREBASE_EMULATORS_PATH ?? join(homedir(), '.cache', 'firebase', 'emulators');
  const jars = existsSync(dir) ? readdirSync(dir) : [];
  return ['cloud-firestore-emulator', 'cloud-storage-rules-runtime'].every((name) => jars.some((f) => f.startsWith(name)));
}

export function chooseFirestore(): FirestoreKind {
  const forced = process.env.BOOKSTORE_FIRESTORE;
  if (forced === 'firebase-tools' || forced === 'cloud-sdk' || forced === 'stand-in') return forced;
  const java = javaMajor();
  if (java >= 21 && firebaseToolsHasJars()) return 'firebase-tools';
  if (java >= 11 && findCloudSdkJar()) return 'cloud-sdk';
  return 'stand-in';
}

/** A random HS256 key for admin tokens, kept in the ignored functions/.secret.local. */
function ensureJwtSecret(): string {
  const file = `${ROOT}functions/.secret.local`;
  const existing = existsSync(file) ? /ADMIN_JWT_SECRET=(\S+)/.exec(readFileSync(file, 'utf8'))?.[1] : undefined;
  const secret = existing ?? randomBytes(32).toString('hex');
  if (!existing) writeFileSync(file, `ADMIN_JWT_SECRET=${secret}\n`, { mode: 0o600 });
  return secret;
}

/** Asks the firebase CLI's hub to export what it runs (Auth; Firestore and Storage too with firebase-tools'). */
async function hubExport(path: string): Promise<void> {
  const res = await fetch(`http://${HOST}:${PORTS.hub}/_admin/export`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ path, initiatedBy: 'launcher' }),
  });
  if (!res.ok) throw new Error(`Emulator export failed: ${res.status} ${await res.text()}`);
}

export async function startSuite(options: SuiteOptions): Promise<Suite> {
  const log = options.log ?? ((line: string) => console.log(line));
  await assertPortsFree();
  useEmulatorEnv();
  const secret = ensureJwtSecret();
  const kind = chooseFirestore();
  const state = options.stateDir;
  if (state) mkdirSync(state, { recursive: true });
  const logFile = state && !options.verbose ? join(state, 'emulators.log') : null;
  const hubDir = state && join(state, kind === 'firebase-tools' ? 'official-export' : 'auth-export');

  const backends: EmulatorBackend[] = []; // the services we run ourselves, beside the firebase CLI
  let cli: WatchedProcess | undefined;
  let timer: NodeJS.Timeout | undefined;
  const stopAll = async () => {
    if (timer) clearInterval(timer);
    await cli?.stop();
    for (const backend of backends) await backend.stop().catch(() => {});
  };

  try {
    if (kind === 'firebase-tools') {
      log("Firestore: official, firebase-tools' own emulator (Java 21+ and its jars found)");
      log("Storage:   firebase-tools' own emulator");
    } else {
      if (kind === 'stand-in') log('Firestore: no Java or official emulator jar found here, so the npm stand-in runs instead.');
      const firestore = kind === 'cloud-sdk' ? await startCloudSdkFirestore(findCloudSdkJar()!, state, logFile) : await startFirestoreStandIn(state);
      backends.push(firestore);
      log(`Firestore: ${firestore.label}, on ${HOST}:${PORTS.firestore}`);
      const storage = await startStorageReplacement(state);
      backends.push(storage);
      log(`Storage:   ${storage.label}`);
    }

    const only = kind === 'firebase-tools' ? 'auth,functions,hosting,firestore,storage' : 'auth,functions,hosting';
    // --config: firebase.json plus the Auth emulator in the CSP (scripts/lib/emulator-config.ts).
    const args = ['emulators:start', '--only', only, '--project', PROJECT_ID, '--config', writeEmulatorConfig()];
    if (hubDir && existsSync(join(hubDir, 'firebase-export-metadata.json'))) args.push('--import', hubDir);
    cli = startWatched(process.execPath, [`${ROOT}node_modules/firebase-tools/lib/bin/firebase.js`, ...args], {
      env: { ...process.env, ...EMULATOR_ENV, ADMIN_JWT_SECRET: secret, FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' },
      logFile,
      echo: options.verbose,
    });
    const started = cli;
    await waitFor(async () => {
      if (started.exited()) throw new Error('exited');
      return (await fetch(`${SHOP_URL}/api/health`)).ok;
    }, 'the emulator suite (Hosting -> /api function)', 180_000).catch((error) => {
      throw new Error(started.exited() ? `The emulator suite exited during start:\n${started.tail()}` : String(error));
    });
    log(`Auth, Functions, Hosting: firebase-tools emulators${logFile ? ` (log: ${logFile})` : ''}`);

    const migrated = await migrateOrders(); // once, on local data from before order snapshots and stock
    if (!migrated.alreadyDone && migrated.orders + migrated.books > 0) {
      log(`Migrated old local data: ${migrated.orders} orders given their lines, ${migrated.books} books given stock.`);
    }
    const seeded = await seedIfEmpty();
    const save = async () => {
      if (!state) return;
      for (const backend of backends) await backend.save();
      if (hubDir && !started.exited()) await hubExport(hubDir);
    };
    if (state) {
      await save();
      timer = setInterval(() => save().catch((e) => log(`Periodic save failed: ${e}`)), SAVE_INTERVAL_MS);
    }
    return {
      firestore: kind,
      seeded,
      save,
      async stop() {
        if (timer) clearInterval(timer);
        await save().catch((e) => log(`Final save failed: ${e}`));
        await stopAll();
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
