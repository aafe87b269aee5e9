import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from './lib/build';
import { EMULATOR_ENV, ROOT } from './lib/env';
import { assertPortsFree } from './lib/ports';
import { startSuite, type Suite } from './lib/suite';

// `npm test`: unit tests, then a fresh, seeded, throwaway emulator suite, API tests
// over HTTP and Playwright in Chromium; the suite is torn down whatever happens.

interface Tally { passed: number; failed: number; skipped: number }
const total: Tally = { passed: 0, failed: 0, skipped: 0 };
const only = process.argv.slice(2);
const wants = (name: string) => only.length === 0 || only.includes(name);

/** Runs a command without blocking this process: it hosts the Firestore and Storage replacements. */
let backend = '';
function run(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const env = { ...process.env, ...EMULATOR_ENV, BOOKSTORE_BACKEND: backend };
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit', env });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

// BOOKSTORE_TEST_FILTER=catalog,books runs only the test files whose path contains one of these (vitest and Playwright).
const fileFilter = (process.env.BOOKSTORE_TEST_FILTER ?? '').split(',').filter(Boolean);

async function vitest(project: string): Promise<void> {
  const out = join(ROOT, 'artifacts', `vitest-${project}.json`);
  rmSync(out, { force: true });
  await run(['node_modules/vitest/vitest.mjs', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile=${out}`, ...fileFilter]);
  if (!existsSync(out)) {
    total.failed += 1;
    console.error(`vitest ${project} produced no report`);
    return;
  }
  const r = JSON.parse(readFileSync(out, 'utf8'));
  total.passed += r.numPassedTests;
  total.failed += r.numFailedTests + (r.numFailedTestSuites ?? 0);
  total.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
}

async function playwright(): Promise<void> {
  const out = join(ROOT, 'artifacts', 'playwright-results.json');
  rmSync(out, { force: true });
  await run(['node_modules/@playwright/test/cli.js', 'test', ...fileFilter]);
  if (!existsSync(out)) {
    total.failed += 1;
    console.error('Playwright produced no report');
    return;
  }
  const s = JSON.parse(readFileSync(out, 'utf8')).stats;
  total.passed += s.expected + s.flaky;
  total.failed += s.unexpected;
  total.skipped += s.skipped;
}

async function main() {
  const chromium = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (wants('e2e') && !existsSync(chromium)) {
    throw new Error(`Chromium not found at ${chromium}. Install it with: sudo apt-get install -y chromium (or set CHROME_PATH).`);
  }
  await assertPortsFree();
  await build();
  if (wants('unit')) await vitest('unit');
  if (!wants('api') && !wants('e2e')) return;
  let suite: Suite | undefined;
  const stop = async () => {
    await suite?.stop();
    suite = undefined;
  };
  process.on('SIGINT', () => void stop().then(() => process.exit(130)));
  process.on('SIGTERM', () => void stop().then(() => process.exit(143)));
  try {
    console.log('Starting a fresh emulator suite for the tests...');
    suite = await startSuite({ stateDir: null, log: (line) => console.log(`  ${line}`) });
    backend = suite.backend;
    if (wants('api')) await vitest('api');
    if (wants('e2e')) await playwright();
  } finally {
    await stop();
  }
}

main()
  .catch((error) => {
    console.error(`\n${error instanceof Error ? error.message : error}`);
    total.failed += 1;
  })
  .finally(() => {
    console.log(`\ntests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
    process.exit(total.failed > 0 ? 1 : 0);
  });
