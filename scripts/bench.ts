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
import { budgetsTable, bytesTable, lighthouseSection, renderMarkdown, type BenchResults } from '../bench/report';
import { measureScale, type DeskRow } from '../bench/scale';
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
// the existing results.json, every other section kept.

const RESULTS = `${ROOT}bench/results.json`;

/** The search cold-start section bench/search.ts --cold-start writes (its own run, not in results.json). */
const SEARCH_SECTION = /\n## 7\. Search index at cold start[\s\S]*?<!-- search-cold-start:end -->\n?/;

/** The flash-sale section bench/flash-sale.ts writes (issue 40; its own run). */
const FLASH_SALE_SECTION = /\n## 8\. Flash sale on one discount code[\s\S]*?<!-- flash-sale:end -->\n?/;

/** BENCHMARKS.md from results.json, keeping the search cold-start and flash-sale sections separate runs wrote. */
function writeReport(results: BenchResults): void {
  const file = `${ROOT}BENCHMARKS.md`;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const kept = (SEARCH_SECTION.exec(text)?.[0] ?? '') + (FLASH_SALE_SECTION.exec(text)?.[0] ?? '');
  writeFileSync(file, `${renderMarkdown(results).trimEnd()}\n${kept}`);
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

    const fixtures: ApiFixtures = { admin, bookId };
    if (!running) {
      const shoppers = [];
      for (let i = 0; i < 5; i++) shoppers.push(await verifiedShopper(`shopper${i}`));
      fixtures.orders = { shoppers, books: await stockedBooks(300) };
    }

    phase('3. API on functions-framework (one process, as production serves the function)');
    fn = await startFunctionServer(`${ROOT}bench/function-server.log`);
    const productionApi = await measureApi(fn.url, apiSpecs(fn.url, fixtures), [1, 20, 100], seconds, 1);

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
