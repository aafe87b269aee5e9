import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { EMULATOR_ENV, HOST, PORTS, PROJECT_ID, ROOT, SHOP_URL, useEmulatorEnv } from './env';
import { restoreFirestore, saveSnapshot, snapshotFirestore, startFirestoreReplacement } from './firestore-replacement';
import { assertPortsFree, waitFor } from './ports';
import { seedIfEmpty } from './seed';
import { startStorageReplacement, type StorageReplacement } from './storage-replacement';

export const SAVE_INTERVAL_MS = Number(process.env.BOOKSTORE_SAVE_INTERVAL_MS ?? 10_000);

export type Backend = 'official' | 'replacement';

export interface SuiteOptions {
  /** Where data is imported from and saved to; null for a throwaway suite. */
  stateDir: string | null;
  log?: (line: string) => void;
  /** Print the emulators' own output (firebase CLI) instead of keeping it in a log file. */
  verbose?: boolean;
}

export interface Suite {
  backend: Backend;
  seeded: boolean;
  save(): Promise<void>;
  stop(): Promise<void>;
}

function javaMajor(): number {
  const out = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const match = /version "(\d+)/.exec(`${out.stderr}${out.stdout}`);
  return match ? Number(match[1]) : 0;
}

/** The official Firestore and Storage emulators need Java 21+ and their jars, which cannot be downloaded here. */
export function chooseBackend(): Backend {
  const forced = process.env.BOOKSTORE_EMULATORS;
  if (forced === 'official' || forced === 'replacement') return forced;
  const dir = process.env.FIREBASE_EMULATORS_PATH ?? join(homedir(), '.cache', 'firebase', 'emulators');
  const jars = existsSync(dir) ? readdirSync(dir) : [];
  const hasJars =
    jars.some((f) => f.startsWith('cloud-firestore-emulator')) && jars.some((f) => f.startsWith('cloud-storage-rules-runtime'));
  return hasJars && javaMajor() >= 21 ? 'official' : 'replacement';
}

/** A random HS256 key for admin tokens, kept in the ignored functions/.secret.local. */
function ensureJwtSecret(): string {
  const file = `${ROOT}functions/.secret.local`;
  const existing = existsSync(file) ? /ADMIN_JWT_SECRET=(\S+)/.exec(readFileSync(file, 'utf8'))?.[1] : undefined;
  const secret = existing ?? randomBytes(32).toString('hex');
  if (!existing) writeFileSync(file, `ADMIN_JWT_SECRET=${secret}\n`, { mode: 0o600 });
  return secret;
}

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
  const backend = chooseBackend();
  const state = options.stateDir;
  if (state) mkdirSync(state, { recursive: true });
  const authDir = state && join(state, backend === 'official' ? 'official-export' : 'auth-export');

  let firestore: Awaited<ReturnType<typeof startFirestoreReplacement>> | undefined;
  let storage: StorageReplacement | undefined;
  let cli: ChildProcess | undefined;
  let timer: NodeJS.Timeout | undefined;
  let lastFirestore = '';
  const stopAll = async () => {
    if (timer) clearInterval(timer);
    if (cli && cli.exitCode === null) {
      const exited = new Promise((resolve) => cli!.once('exit', resolve));
      cli.kill('SIGTERM');
      const forced = setTimeout(() => cli!.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(forced);
    }
    await storage?.stop().catch(() => {});
    firestore?.stop();
  };

  try {
    if (backend === 'replacement') {
      firestore = await startFirestoreReplacement();
      storage = await startStorageReplacement(state && join(state, 'storage'));
      const restored = state ? await restoreFirestore(join(state, 'firestore.json')) : 0;
      log(`Firestore: @firestore-emulator/server on ${HOST}:${PORTS.firestore} (${restored} documents restored)`);
      log(`Storage:   firebase-tools Storage emulator without rules runtime on ${HOST}:${PORTS.storage}`);
    } else {
      log('Firestore and Storage: official emulators (Java and jars found)');
    }

    const only = backend === 'official' ? 'auth,functions,hosting,firestore,storage' : 'auth,functions,hosting';
    const args = ['emulators:start', '--only', only, '--project', PROJECT_ID];
    if (authDir && existsSync(join(authDir, 'firebase-export-metadata.json'))) args.push('--import', authDir);
    const logFile = state ? join(state, 'emulators.log') : null;
    // Through the watchdog: the emulators stop with us even if we are killed with SIGKILL.
    const watchdog = [`--import`, 'tsx', `${ROOT}scripts/lib/watchdog.ts`, `${ROOT}node_modules/firebase-tools/lib/bin/firebase.js`];
    cli = spawn(process.execPath, [...watchdog, ...args], {
      cwd: ROOT,
      detached: true, // survives a kill -9 of our process group long enough to stop the emulators
      env: { ...process.env, ...EMULATOR_ENV, ADMIN_JWT_SECRET: secret, FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output.push(text);
      if (output.length > 400) output.shift();
      if (options.verbose) process.stdout.write(text);
      if (logFile) writeFileSync(logFile, text, { flag: 'a' });
    };
    cli.stdout!.on('data', onData);
    cli.stderr!.on('data', onData);
    let exited = false;
    cli.once('exit', () => (exited = true));
    await waitFor(async () => {
      if (exited) throw new Error(`The emulator suite exited during start:\n${output.join('').slice(-4000)}`);
      const res = await fetch(`${SHOP_URL}/api/health`);
      return res.ok;
    }, 'the emulator suite (Hosting -> /api function)', 180_000).catch((error) => {
      if (exited) throw new Error(`The emulator suite exited during start:\n${output.join('').slice(-4000)}`);
      throw error;
    });
    if (exited) throw new Error(`The emulator suite exited during start:\n${output.join('').slice(-4000)}`);
    log(`Auth, Functions, Hosting: firebase-tools emulators${logFile ? ` (log: ${logFile})` : ''}`);

    const seeded = await seedIfEmpty();

    const save = async () => {
      if (!state) return;
      if (firestore) {
        const json = snapshotFirestore(firestore);
        if (json !== lastFirestore) {
          saveSnapshot(join(state, 'firestore.json'), json);
          lastFirestore = json;
        }
      }
      await storage?.save(join(state, 'storage'));
      if (authDir && !exited) await hubExport(authDir);
    };
    if (state) {
      await save();
      timer = setInterval(() => save().catch((e) => log(`Periodic save failed: ${e}`)), SAVE_INTERVAL_MS);
    }
    return {
      backend,
      seeded,
      save,
      async stop() {
        await save().catch((e) => log(`Final save failed: ${e}`));
        await stopAll();
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
