import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from './lib/build';
import { EMULATOR_ENV, ROOT, SHOP_URL } from './lib/env';
import { findCloudSdkJar } from './lib/firestore-cloud-sdk';
import { assertPortsFree } from './lib/ports';
import { smokeProductionBuild } from './lib/smoke-ci';
import { startSuite, type Suite } from './lib/suite';

// `npm test`: lint, unit tests, then a fresh, seeded, throwaway emulator suite, API tests
// over HTTP and Playwright in Chromium; the suite is torn down whatever happens.

interface Tally { passed: number; failed: number; skipped: number }
const total: Tally = { passed: 0, failed: 0, skipped: 0 };
// `npm test -- api orders hostile`: layers (unit, inproc, api, e2e, smoke) and, after them, file name filters.
const LAYERS = ['unit', 'inproc', 'api', 'e2e', 'smoke'];
const args = process.argv.slice(2);
const only = args.filter((a) => LAYERS.includes(a));
// BOOKSTORE_TEST_FILTER=hostile,admin does the same through the environment.
const filters = [...args.filter((a) => !LAYERS.includes(a)), ...(process.env.BOOKSTORE_TEST_FILTER?.split(',').filter(Boolean) ?? [])];
const wants = (name: string) => only.length === 0 || only.includes(name);

// Every query the function runs is logged here (functions/src/lib/queries.ts) for the index check.
const QUERY_LOG = join(ROOT, 'artifacts', 'firestore-queries.jsonl');

/** Runs a command without blocking this process: it hosts the Storage emulator (and the stand-in, if any). */
let firestoreKind = '';
function run(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const env = { ...process.env, ...EMULATOR_ENV, BOOKSTORE_FIRESTORE_KIND: firestoreKind, BOOKSTORE_QUERY_LOG: QUERY_LOG };
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit', env });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

async function vitest(project: string): Promise<void> {
  const out = join(ROOT, 'artifacts', `vitest-${project}.json`);
  rmSync(out, { force: true });
  const files = project === 'indexes' ? [] : filters;
  await run(['node_modules/vitest/vitest.mjs', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile=${out}`, ...files]);
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
  await run(['node_modules/@playwright/test/cli.js', 'test', ...filters]);
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

/** `npm run smoke` against the Hosting emulator serving a production build (scripts/lib/smoke-ci.ts). */
async function smoke(): Promise<void> {
  for (const r of await smokeProductionBuild(SHOP_URL)) {
    console.log(`  smoke ${r.status === 'pass' ? 'ok  ' : r.status === 'fail' ? 'FAIL' : 'skip'} ${r.name}: ${r.detail}`);
    total[r.status === 'pass' ? 'passed' : r.status === 'fail' ? 'failed' : 'skipped'] += 1;
  }
}

/** ESLint over the whole tree (types, hooks, module boundaries): one check, counted like a test. */
async function lint(): Promise<void> {
  console.log('Linting (npm run lint)...');
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['node_modules/eslint/bin/eslint.js', '.'], { cwd: ROOT, stdio: 'inherit' });
    child.on('exit', (exitCode) => resolve(exitCode ?? 1));
  });
  if (code === 0) total.passed += 1;
  else {
    total.failed += 1;
    console.error('lint failed: the findings are above (npm run lint)');
  }
}

async function main() {
  // A run narrowed to some files is a quick check of those files; every whole-layer run lints.
  if (filters.length === 0) await lint();
  const chromium = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (wants('e2e') && !existsSync(chromium)) {
    throw new Error(`Chromium not found at ${chromium}. Install it with: sudo apt-get install -y chromium (or set CHROME_PATH).`);
  }
  await assertPortsFree();
  await build();
  if (wants('unit')) await vitest('unit');
  if (!['inproc', 'api', 'e2e', 'smoke'].some(wants)) return;
  let suite: Suite | undefined;
  const stop = async () => {
    await suite?.stop();
    suite = undefined;
  };
  process.on('SIGINT', () => void stop().then(() => process.exit(130)));
  process.on('SIGTERM', () => void stop().then(() => process.exit(143)));
  try {
    console.log('Starting a fresh emulator suite for the tests...');
    mkdirSync(dirname(QUERY_LOG), { recursive: true });
    rmSync(QUERY_LOG, { force: true });
    process.env.BOOKSTORE_QUERY_LOG = QUERY_LOG; // the function inherits it through the emulators
    suite = await startSuite({ stateDir: null, log: (line) => console.log(`  ${line}`) });
    firestoreKind = suite.firestore;
    if (suite.firestore === 'stand-in' && findCloudSdkJar()) {
      // Where the official emulator exists, tests on the stand-in would prove nothing about rules or production.
      throw new Error(`The official Firestore emulator is installed (${findCloudSdkJar()}) but the npm stand-in ran: unset BOOKSTORE_FIRESTORE.`);
    }
    if (wants('inproc')) {
      // The handlers in this process (functions/test/inproc-setup.ts), on the emulators just started.
      const started = Date.now();
      await vitest('inproc');
      console.log(`  inproc: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    if (wants('api')) await vitest('api');
    if (wants('e2e')) await playwright();
    if (only.includes('smoke') || (wants('smoke') && filters.length === 0)) await smoke();
    if (filters.length === 0) await vitest('indexes'); // a partial run may not exercise every query
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
