import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from './lib/env';
import { assertPortsFree, waitFor } from './lib/ports';

// `npm run test:rounds -- 20`: issue 37's twenty runs of the browser suite in parallel mode. Each
// round is `npm test -- e2e` on a fresh emulator suite with the parallel files only (no serial
// files, no lint beside: a little less load than CI), and the run stops at the first failed round.
// Not `BOOKSTORE_E2E_REPEAT=20` in one suite: one emulator keeps the listeners of closed pages and
// scans collections to match each write against them, and after about an hour of rounds its live
// updates came later than a test waits (the lead, docs/testing.md "What grows in one emulator").

const rounds = Number(process.argv[2] ?? 20);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: npm run test:rounds -- <rounds, e.g. 20>');
  process.exit(2);
}

interface Round { passed: number; failed: number; seconds: number }
const failedRound = (r: Round) => r.failed > 0 || r.passed === 0;
let current: ChildProcess | undefined;

/** One `npm test -- e2e` of the parallel files, its output shown as it runs; its counts from its last line. */
function round(n: number): Promise<Round> {
  const started = Date.now();
  return new Promise((resolve) => {
    let tail = '';
    const child = spawn(process.execPath, [`${ROOT}scripts/bootstrap.mjs`, 'test', 'e2e'], {
      cwd: ROOT,
      env: { ...process.env, BOOKSTORE_E2E_SERIAL: '0', BOOKSTORE_LINT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    current = child;
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString()).slice(-2000);
    });
    child.on('close', (code) => {
      current = undefined;
      const counts = [...tail.matchAll(/^tests: (\d+) passed, (\d+) failed/gm)].pop();
      const passed = Number(counts?.[1] ?? 0);
      // A round that printed no counts (its suite did not start) or exited non-zero failed.
      const failed = Number(counts?.[2] ?? 0) || (code === 0 ? 0 : 1);
      console.log(`\nround ${n}/${rounds}: ${passed} passed, ${failed} failed`);
      resolve({ passed, failed, seconds: (Date.now() - started) / 1000 });
    });
  });
}

// Stopping the rounds stops the round under way (its launcher then stops its emulators).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (current) current.once('close', () => process.exit(1)).kill(signal);
    else process.exit(1);
  });
}

async function main() {
  await assertPortsFree(); // the shop already running: say so now, not after a minute's wait
  const done: Round[] = [];
  while (done.length < rounds) {
    // The last round's emulators stop after its launcher exits (scripts/lib/watchdog.ts: up to 15 s).
    if (done.length > 0) await waitFor(() => assertPortsFree().then(() => true), "the last round's emulators to free their ports", 60_000);
    const r = await round(done.length + 1);
    done.push(r);
    if (failedRound(r)) break;
  }
  const sum = (key: keyof Round) => done.reduce((total, r) => total + r[key], 0);
  const clean = done.findIndex(failedRound);
  console.log(`\nrounds: ${done.length} of ${rounds} run, ${clean === -1 ? done.length : clean} clean in a row; ` +
    `tests: ${sum('passed')} passed, ${sum('failed')} failed; ${(sum('seconds') / 60).toFixed(1)} min`);
  process.exit(clean === -1 && done.length === rounds ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
