import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { apiSpecs, failures, measureApi, type ApiFixtures } from '../bench/api';
import { measureFirstVisit, measureRouteBytes } from '../bench/bytes';
import { describeFirestore } from '../bench/environment';
import { stockedBooks, verifiedShopper } from '../bench/fixtures';
import { startFunctionServer, type FunctionServer } from '../bench/function-server';
import { MOBILE_RUNS, ORIGINAL_SKIPPED, runLighthouse, type OriginalApp } from '../bench/lighthouse';
import { serveStatic } from '../bench/static-server';
import { measureImport, type ImportTiming } from '../bench/import';
import { budgetsTable, bytesTable, ISSUE38_MARKS, issue38Section, lighthouseSection, renderMarkdown, type BenchResults } from '../bench/report';
import { measureScale, type DeskRow } from '../bench/scale';
import { measureColdStarts } from '../bench/cold-start';
import { measureInteractive, type CartBook } from '../bench/interactive';
import { execFileSync } from 'node:child_process';
import { build } from './lib/build';
import { DEMO_CUSTOMER, ROOT, SHOP_URL } from './lib/env';
import { adminLogin } from './lib/fixtures';
import { assertPortsFree } from './lib/ports';
import { chooseFirestore, startSuite, type Suite } from './lib/suite';

// `npm run bench`: boots a throwaway suite (or measures the running shop, skipping the parts that
// write), prints every figure, and writes bench/results.json and BENCHMARKS.md. `--quick` skips
// Lighthouse and shortens the load runs; `--no-lighthouse` skips only Lighthouse; `--import` adds the 10,000-row catalogue import (several
// minutes on the emulator); `--report-only` re-renders BENCHMARKS.md from results.json;
// `--lighthouse-only` runs just Lighthouse (pages, floors, the original app) and merges it into
// the existing results.json, every other section kept. `--interactive-only` (issue 38) measures the
// time until Add to Cart works on the four pages under mobile throttling, Lighthouse at 4x and 8x CPU
// and each function's cold start, merged into results.json (`--no-interactive`, `--no-lighthouse`,
// `--no-cold-start` leave parts out); with `--baseline` those figures are kept as the "before" of
// issue 38 instead (BOOKSTORE_BENCH_COMMIT names the commit when the copy measured is not a checkout).

const RESULTS = `${ROOT}bench/results.json`;

/** The search sections bench/search.ts --cold-start and --memory write (their own runs, not in results.json): the rest of the file. */
const SEARCH_SECTION = /\n## 7\. Search index at cold start[\s\S]*$/;

/** The flash-sale section bench/flash-sale.ts writes (issue 40; its own run). */
const FLASH_SALE_SECTION = /\n## 8\. Flash sale on one discount code[\s\S]*?<!-- flash-sale:end -->\n?/;

/** The receiving section bench/receiving.ts writes (issue 56; its own run). */
const RECEIVING_SECTION = /\n## 9\. Receiving a delivery[\s\S]*?<!-- receiving:end -->\n?/;

/** BENCHMARKS.md from results.json, keeping the search cold-start, flash-sale and receiving sections separate runs wrote. */
function writeReport(results: BenchResults): void {
  const file = `${ROOT}BENCHMARKS.md`;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const kept = (SEARCH_SECTION.exec(text)?.[0] ?? '') + (FLASH_SALE_SECTION.exec(text)?.[0] ?? '') + (RECEIVING_SECTION.exec(text)?.[0] ?? '');
  writeFileSync(file, `${renderMarkdown(results).trimEnd()}\n${kept}`);
}

/** Section 0 (issue 38) of BENCHMARKS.md replaced from `results`, after the budgets when the file has none yet. */
function spliceIssue38(results: BenchResults): void {
  const file = `${ROOT}BENCHMARKS.md`;
  const text = readFileSync(file, 'utf8');
  const section = issue38Section(results);
  const { start, end } = ISSUE38_MARKS;
  const at = text.indexOf(start);
  const next = at >= 0 ? `${text.slice(0, at)}${section}${text.slice(text.indexOf(end) + end.length + 1)}` : text.replace(/\n## 1\. /, `\n${section}\n## 1. `);
  writeFileSync(file, next);
}

/** Prints the budgets, then writes results.json and BENCHMARKS.md. */
function write(results: BenchResults): void {
  phase('Budgets');
  console.log(budgetsTable(results));
  writeFileSync(RESULTS, JSON.stringify(results, null, 2));
  writeReport(results);
  console.log('\nWrote bench/results.json and BENCHMARKS.md');
}

/** The last run's results, if there is one (a damaged file throws rather than being overwritten). */
function previousResults(): BenchResults | undefined {
  return existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as BenchResults) : undefined;
}

const started = Date.now();
const phase = (title: string) => console.log(`\n[${Math.round((Date.now() - started) / 1000)} s] ${title}`);
const machine = () => `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
/** A throwaway suite, built and seeded; none when the shop is already running (its ports are taken). */
async function throwawaySuite(running: boolean, what: string): Promise<Suite | undefined> {
  if (running) return undefined;
  await build();
  phase(`Starting a throwaway emulator suite for ${what}...`);
  return startSuite({ stateDir: null, log: (l) => console.log(`  ${l}`) });
}
/** The first books of the catalogue: the book page measured, the book ordered in the load runs. */
const firstBookId = async () => ((await (await fetch(`${SHOP_URL}/api/books?limit=16`)).json()) as { _id: string }[])[0]!._id;
const LIGHTHOUSE_PAGES = (bookPage: string) => ['/', bookPage, '/books', '/cart'];

type LighthouseSection = Required<Pick<BenchResults, 'lighthouse' | 'lighthouseFloors' | 'original'>>;

/**
 * Lighthouse mobile (default throttling), MOBILE_RUNS runs a page; the floors: the same pages with
 * JavaScript disabled, as many runs; the original app's `/` the same way when BOOKSTORE_ORIGINAL_DIST
 * names its built dist/ folder. Nothing else should run meanwhile (the score moves with the CPU).
 */
async function measureLighthouse(bookPage: string): Promise<LighthouseSection> {
  const log = (line: string) => console.log(line);
  const pages = LIGHTHOUSE_PAGES(bookPage);
  const lighthouse = await runLighthouse(SHOP_URL, pages, { times: MOBILE_RUNS, log });
  const lighthouseFloors = await runLighthouse(SHOP_URL, pages, { times: MOBILE_RUNS, javascript: false, log });
  let original: OriginalApp = { skipped: ORIGINAL_SKIPPED };
  const dist = process.env.BOOKSTORE_ORIGINAL_DIST;
  if (dist) {
    const server = await serveStatic(dist);
    try {
      original = {
        dist,
        lighthouse: await runLighthouse(server.url, ['/'], { times: MOBILE_RUNS, log }),
        floors: await runLighthouse(server.url, ['/'], { times: MOBILE_RUNS, javascript: false, log }),
      };
    } finally {
      await server.stop();
    }
  }
  console.log(lighthouseSection({ lighthouse, lighthouseFloors, original }));
  return { lighthouse, lighthouseFloors, original };
}

/** `--lighthouse-only`: Lighthouse alone, merged into results.json (every other section kept). */
async function lighthouseOnly(running: boolean): Promise<void> {
  const suite = await throwawaySuite(running, 'Lighthouse');
  try {
    phase(`Lighthouse mobile, ${MOBILE_RUNS} runs a page, then the floors (JavaScript disabled), then a first visit with the worker`);
    const section = await measureLighthouse(`/books/${await firstBookId()}`);
    const firstVisit = await measureFirstVisit(SHOP_URL);
    console.log(`  first visit to / with the worker: ${(firstVisit.total / 1024).toFixed(1)} KB in ${firstVisit.requests} requests`);
    const before: Partial<BenchResults> = previousResults() ?? {};
    const results: BenchResults = {
      date: new Date().toISOString(), machine: machine(), quick: false, bytes: [], productionApi: [], hostingApi: [], scale: [],
      environment: { firestore: describeFirestore(suite?.firestore ?? chooseFirestore()), functionsFramework: '-', node: process.version },
      ...before,
      ...section,
      firstVisit,
    };
    write(results);
  } finally {
    await suite?.stop();
  }
}
/** A book for /cart's runs, as the cart keeps it (the API's answer). */
const cartBook = async (id: string) => (await (await fetch(`${SHOP_URL}/api/books/${id}`)).json()) as CartBook;

/**
 * `--interactive-only`: issue 38's measurements (time until Add to Cart works per page, Lighthouse
 * at 4x and 8x CPU on the four pages, each function's cold start), merged into results.json; with
 * `--baseline` they are stored as its "before" (the commit measured is named).
 */
async function interactiveOnly(running: boolean): Promise<void> {
  const baseline = process.argv.includes('--baseline');
  const withLighthouse = !process.argv.includes('--no-lighthouse');
  const withColdStart = !process.argv.includes('--no-cold-start') && !running;
  const suite = await throwawaySuite(running, 'issue 38\'s measurements');
  try {
    const bookId = await firstBookId();
    const pages = LIGHTHOUSE_PAGES(`/books/${bookId}`);
    const log = (line: string) => console.log(line);
    // A copy outside git (an export of an older commit, measured as the "before") names its commit itself.
    const commit = process.env.BOOKSTORE_BENCH_COMMIT ?? execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    let interactive: BenchResults['interactive'];
    let lighthouse: BenchResults['lighthouse'] | undefined;
    let lighthouseFloors: BenchResults['lighthouseFloors'];
    let lighthouse8x: BenchResults['lighthouse8x'];
    /** Merges what is measured so far into results.json (as the baseline with --baseline): a later failure keeps it. */
    const save = (coldStart?: BenchResults['coldStart']) => {
      const results: BenchResults = {
        date: new Date().toISOString(), machine: machine(), quick: false, bytes: [], lighthouse: [], productionApi: [], hostingApi: [], scale: [],
        environment: { firestore: describeFirestore(suite?.firestore ?? chooseFirestore()), functionsFramework: '-', node: process.version },
        ...previousResults(),
      };
      if (baseline) {
        results.baseline = { ...results.baseline, date: new Date().toISOString(), commit, ...(interactive ? { interactive } : {}), ...(lighthouse ? { lighthouse, lighthouse8x } : {}), ...(coldStart ? { coldStart } : {}) };
      } else {
        if (interactive) results.interactive = interactive;
        if (lighthouse) Object.assign(results, { lighthouse, lighthouseFloors, lighthouse8x });
        if (coldStart) results.coldStart = coldStart;
      }
      // Section 0 alone: the rest of BENCHMARKS.md is the last full run's (its figures are not in results.json here).
      writeFileSync(RESULTS, JSON.stringify(results, null, 2));
      spliceIssue38(results);
      console.log('\nWrote bench/results.json and section 0 of BENCHMARKS.md');
    };
    if (!process.argv.includes('--no-interactive')) {
      phase('Time until Add to Cart works, under mobile throttling');
      interactive = await measureInteractive(SHOP_URL, pages, { cartBook: await cartBook(bookId), log });
      save();
    }
    if (withLighthouse) {
      phase(`Lighthouse mobile, ${MOBILE_RUNS} runs a page, at 4x (with the floors) and 8x CPU`);
      lighthouse = await runLighthouse(SHOP_URL, pages, { times: MOBILE_RUNS, log });
      if (!baseline) lighthouseFloors = await runLighthouse(SHOP_URL, pages, { times: MOBILE_RUNS, javascript: false, log });
      lighthouse8x = await runLighthouse(SHOP_URL, pages, { times: MOBILE_RUNS, cpuSlowdown: 8, log });
      save();
    }
    if (withColdStart) {
      phase('Cold starts: each function booted alone under functions-framework');
      save(await measureColdStarts(bookId, `Commit \`${commit}\`, ${machine()}; each function booted alone under functions-framework as the rehearsal boots it, median of 5 boots.`, log));
    }
  } finally {
    await suite?.stop();
  }
}

async function main() {
  if (process.argv.includes('--report-only')) {
    const results = previousResults();
    if (!results) throw new Error('No bench/results.json to render: run `npm run bench` first');
    writeReport(results);
    return;
  }
  const quick = process.argv.includes('--quick');
  const withImport = process.argv.includes('--import');
  const withLighthouse = !quick && !process.argv.includes('--no-lighthouse');
  const seconds = quick ? 2 : 5;
  const running = await assertPortsFree().then(() => false, () => true);
  if (process.argv.includes('--lighthouse-only')) return lighthouseOnly(running);
  if (process.argv.includes('--interactive-only')) return interactiveOnly(running);
  if (running) console.log('Measuring the running shop (orders and the scale test are skipped: they write data).');
  const suite = await throwawaySuite(running, 'the benchmark');
  let fn: FunctionServer | undefined;
  try {
    const firestore = describeFirestore(suite?.firestore ?? chooseFirestore());
    console.log(`Firestore: ${firestore}`);
    const admin = await adminLogin(SHOP_URL);
    const bookId = await firstBookId();
    const bookPage = `/books/${bookId}`;

    phase('1. Bytes per route (first visit, Chromium, transferred)');
    const bytes = await measureRouteBytes(SHOP_URL, ['/', bookPage, '/cart', '/checkout', '/orders', '/dashboard'], admin, DEMO_CUSTOMER);
    console.log(bytesTable(bytes));
    const firstVisit = await measureFirstVisit(SHOP_URL);
    console.log(`  first visit to / with the worker: ${(firstVisit.total / 1024).toFixed(1)} KB in ${firstVisit.requests} requests`);

    phase(withLighthouse ? `2. Lighthouse mobile (median of ${MOBILE_RUNS} runs), the floors (JavaScript disabled) and the original app` : '2. Lighthouse: skipped (--quick or --no-lighthouse)');
    const lighthouseSection: LighthouseSection = withLighthouse ? await measureLighthouse(bookPage) : { lighthouse: [], lighthouseFloors: [], original: { skipped: 'not run (--quick or --no-lighthouse)' } };

    phase('2b. Time until Add to Cart works under mobile throttling (issue 38)');
    const interactive = await measureInteractive(SHOP_URL, LIGHTHOUSE_PAGES(bookPage), { cartBook: await cartBook(bookId), log: (l) => console.log(l) });
    const lighthouse8x = withLighthouse ? await runLighthouse(SHOP_URL, LIGHTHOUSE_PAGES(bookPage), { times: MOBILE_RUNS, cpuSlowdown: 8, log: (l) => console.log(l) }) : undefined;

    const fixtures: ApiFixtures = { admin, bookId };
    if (!running) {
      const shoppers = [];
      for (let i = 0; i < 5; i++) shoppers.push(await verifiedShopper(`shopper${i}`));
      fixtures.orders = { shoppers, books: await stockedBooks(300) };
    }

    phase('3. API on functions-framework (one process, as production serves the function)');
    fn = await startFunctionServer(`${ROOT}bench/function-server.log`);
    const productionApi = await measureApi(fn.url, apiSpecs(fn.url, fixtures), [1, 20, 100], seconds, 1);

    let coldStart: BenchResults['coldStart'];
    if (!running) {
      phase('3b. Cold starts: each function booted alone under functions-framework (issue 38)');
      coldStart = await measureColdStarts(bookId, `${machine()}; each function booted alone under functions-framework as the rehearsal boots it, median of 5 boots.`, (l) => console.log(l));
    }

    phase('4. API through the Hosting and Functions emulators');
    const hostingSpecs = [{ name: 'GET /index.html', url: `${SHOP_URL}/` }, ...apiSpecs(SHOP_URL, fixtures)];
    // The Functions emulator starts one worker process per concurrent request: the warm-up pays for them.
    const hostingApi = await measureApi(SHOP_URL, hostingSpecs, [1, 20], seconds, 2);

    let scale: BenchResults['scale'] = [];
    let desk: DeskRow[] = [];
    if (!running) {
      // All three sizes even with --quick: the flatness budgets compare 100 with 10,000 books.
      phase('5. Scale (the desk at 100 and 10,000 orders; reseeded: 100, 1,000, 10,000 books)');
      ({ rows: scale, desk } = await measureScale({ production: fn.url, emulator: SHOP_URL }, admin, [100, 1000, 10000], quick ? 2 : 4, (l) => console.log(`[${Math.round((Date.now() - started) / 1000)} s]${l}`)));
    }

    let importTiming: ImportTiming | undefined;
    if (!running && withImport) {
      phase('6. Import of 10,000 rows through Hosting (dry run, import, the same file again)');
      importTiming = { ...(await measureImport(10_000, SHOP_URL, (l) => console.log(l))), measuredAt: new Date().toISOString() };
      console.log(`  import: dry run ${importTiming.dryRunMs} ms, import ${importTiming.importMs} ms (${importTiming.created} created), again ${importTiming.reimportMs} ms (${importTiming.reimportCreated} created)`);
    } else {
      phase('6. Import of 10,000 rows: skipped (add --import); the last measured figures are kept');
      importTiming = previousResults()?.importTiming;
    }

    const results: BenchResults = {
      date: new Date().toISOString(), machine: machine(), quick, bytes, firstVisit, ...lighthouseSection, productionApi, hostingApi, scale, desk, importTiming,
      interactive, lighthouse8x, coldStart, baseline: previousResults()?.baseline,
      environment: { firestore, functionsFramework: fn.version, node: process.version },
    };
    write(results);

    const failed = productionApi.filter((a) => failures(a) > 0 || a.requests === 0);
    if (failed.length) {
      throw new Error(
        `The API on functions-framework failed requests:\n${failed.map((a) => `  ${a.name} x${a.connections}: ${failures(a)} failed of ${a.requests} (${a.samples.join(' | ') || 'no answer'})`).join('\n')}\n(see bench/function-server.log)`,
      );
    }
  } finally {
    await fn?.stop();
    await suite?.stop();
  }
}

main().catch((error) => {
  console.error(`\nBENCH FAILED: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
