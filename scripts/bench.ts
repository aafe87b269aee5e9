import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { measureRouteBytes, type RouteBytes } from '../bench/bytes';
import { runLighthouse, type LighthouseResult } from '../bench/lighthouse';
import { load, type LoadResult } from '../bench/load';
import { kb, renderMarkdown } from '../bench/report';
import { measureScale, type ScaleRow } from '../bench/scale';
import { build } from './lib/build';
import { DEMO_ADMIN, ROOT, SHOP_URL } from './lib/env';
import { assertPortsFree } from './lib/ports';
import { startSuite, type Suite } from './lib/suite';
import { verifiedCustomer } from './lib/test-customer';

// `npm run bench`: boots a throwaway suite (or measures the running shop, skipping the parts that
// write), prints every figure, and writes bench/results.json and BENCHMARKS.md.

const BUDGETS = {
  homeJsGzipKB: 150,
  homeTotalKB: 400,
  mobilePerformance: 95,
  accessibility: 100,
  bestPractices: 95,
  seo: 95,
  cls: 0.02,
  scaleGrowth: 1.5,
  adminReads: 30,
};

async function json(path: string, init: RequestInit = {}) {
  const res = await fetch(`${SHOP_URL}${path}`, init);
  return res.json();
}

async function main() {
  if (process.argv.includes('--report-only')) {
    // Re-renders BENCHMARKS.md from the last bench/results.json without measuring again.
    writeFileSync(`${ROOT}BENCHMARKS.md`, renderMarkdown(JSON.parse(readFileSync(`${ROOT}bench/results.json`, 'utf8'))));
    return;
  }
  const quick = process.argv.includes('--quick');
  let suite: Suite | undefined;
  let running = false;
  try {
    await assertPortsFree();
  } catch {
    running = true;
  }
  if (!running) {
    await build();
    console.log('Starting a throwaway emulator suite for the benchmark...');
    suite = await startSuite({ stateDir: null, log: (l) => console.log(`  ${l}`) });
  } else {
    console.log('Measuring the running shop (the scale and order-writing parts are skipped: they write data).');
  }
  try {
    const admin = (await json('/api/auth/admin', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(DEMO_ADMIN) })).token as string;
    const books = (await json('/api/books?limit=16')) as { _id: string; newPrice: number }[];
    const bookPage = `/books/${books[0]!._id}`;

    console.log('\n1. Bytes per route (first visit, Chromium, transferred)');
    const bytes: RouteBytes[] = await measureRouteBytes(SHOP_URL, ['/', bookPage, '/cart', '/checkout', '/dashboard'], admin);
    console.table(bytes.map((r) => ({ route: r.route, 'JS KB': kb(r.js), 'CSS KB': kb(r.css), 'images KB': kb(r.images), 'API KB': kb(r.apiJson), 'fonts KB': kb(r.fonts), 'total KB': kb(r.total), requests: r.requests })));

    console.log('\n2. Lighthouse (median of 3 runs)');
    const lighthouse: LighthouseResult[] = await runLighthouse(SHOP_URL, ['/', bookPage, '/cart'], quick ? 1 : 3);
    console.table(lighthouse.map((r) => ({ page: r.page, preset: r.preset, perf: r.performance, a11y: r.accessibility, bp: r.bestPractices, seo: r.seo, 'LCP ms': r.lcpMs, 'TBT ms': r.tbtMs, 'CLS (worst)': r.cls })));

    console.log('\n3. API latency and throughput (autocannon through Hosting)');
    const auth = { Authorization: `Bearer ${admin}` };
    // Room for every order the load test places (the shop's usual limit is 10 open orders).
    const shopper = running ? null : await verifiedCustomer('bench', 1_000_000);
    const order = shopper && {
      name: 'Bench', email: shopper.email, phone: '5550000000',
      address: { street: '1 Main', city: 'X', country: 'Y', state: 'Z', zipcode: '1' },
      productIDs: [books[1]!._id], totalPrice: books[1]!.newPrice.toFixed(2),
    };
    const specs = [
      { name: 'GET /index.html', url: `${SHOP_URL}/` },
      { name: 'GET /api/books', url: `${SHOP_URL}/api/books` },
      { name: 'GET /api/books/:id', url: `${SHOP_URL}/api/books/${books[0]!._id}` },
      { name: 'GET /api/admin', url: `${SHOP_URL}/api/admin`, headers: auth },
      ...(order
        ? [{ name: 'POST /api/orders', url: `${SHOP_URL}/api/orders`, method: 'POST' as const, uniqueKeys: true, body: JSON.stringify(order), headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${shopper!.token}` } }]
        : []),
    ];
    const api: (LoadResult & { p50Ratio: number; p99Ratio: number; rpsRatio: number })[] = [];
    for (const connections of [1, 20]) {
      // The Functions emulator runs one request per worker process and starts workers on demand:
      // warm up a pool of 20 first, so the figures are about the code, not process start-up.
      if (connections === 20) for (const spec of specs.slice(1, 3)) await load(spec, 20, 5);
      const rows = [];
      for (const spec of specs) rows.push(await load(spec, connections, quick ? 2 : 5));
      const base = rows[0]!;
      for (const r of rows) {
        api.push({ ...r, p50Ratio: Number((r.p50 / (base.p50 || 1)).toFixed(1)), p99Ratio: Number((r.p99 / (base.p99 || 1)).toFixed(1)), rpsRatio: Number((r.rps / (base.rps || 1)).toFixed(2)) });
      }
    }
    console.table(api.map((r) => ({ endpoint: r.name, conns: r.connections, 'req/s': r.rps, 'p50 ms': r.p50, 'p95 ms': r.p95, 'p99 ms': r.p99, errors: r.errors + r.non2xx, '5xx': r.status5xx, 'p50 x index': r.p50Ratio, 'req/s x index': r.rpsRatio })));

    let scale: ScaleRow[] = [];
    if (!running) {
      console.log('\n4. Scale (reseeded: 100, 1,000, 10,000 books; 10,000 orders)');
      scale = await measureScale(SHOP_URL, admin, quick ? [100, 1000] : [100, 1000, 10000]);
      console.table(scale.map((r) => ({ books: r.books, 'home API bytes': r.homeApiBytes, 'home list p50 ms': r.homeListP50, 'home list p99 ms': r.homeListP99, 'home list reads': r.homeListReads, 'admin p50 ms': r.adminP50, 'admin reads': r.adminReads, 'full list reads': r.fullListReads })));
    }

    const home = bytes.find((r) => r.route === '/')!;
    const mobile = lighthouse.filter((r) => r.preset === 'mobile');
    const first = scale[0];
    const last = scale[scale.length - 1];
    const budgets = [
      ['JS on first visit to / (KB, transferred)', `<= ${BUDGETS.homeJsGzipKB}`, kb(home.js), home.js / 1024 <= BUDGETS.homeJsGzipKB],
      ['Total transfer on first visit to / (KB)', `<= ${BUDGETS.homeTotalKB}`, kb(home.total), home.total / 1024 <= BUDGETS.homeTotalKB],
      ['Lighthouse mobile Performance (min of pages)', `>= ${BUDGETS.mobilePerformance}`, Math.min(...mobile.map((r) => r.performance)), Math.min(...mobile.map((r) => r.performance)) >= BUDGETS.mobilePerformance],
      ['Lighthouse Accessibility (min)', `= ${BUDGETS.accessibility}`, Math.min(...lighthouse.map((r) => r.accessibility)), Math.min(...lighthouse.map((r) => r.accessibility)) >= BUDGETS.accessibility],
      ['Lighthouse Best Practices (min)', `>= ${BUDGETS.bestPractices}`, Math.min(...lighthouse.map((r) => r.bestPractices)), Math.min(...lighthouse.map((r) => r.bestPractices)) >= BUDGETS.bestPractices],
      ['Lighthouse SEO (min)', `>= ${BUDGETS.seo}`, Math.min(...lighthouse.map((r) => r.seo)), Math.min(...lighthouse.map((r) => r.seo)) >= BUDGETS.seo],
      ['CLS (worst run)', `< ${BUDGETS.cls}`, Math.max(...lighthouse.map((r) => r.cls)), Math.max(...lighthouse.map((r) => r.cls)) < BUDGETS.cls],
      ...(first && last
        ? [
            ['Home API bytes growth 100 -> max books', `<= ${BUDGETS.scaleGrowth}x`, `${(last.homeApiBytes / first.homeApiBytes).toFixed(2)}x`, last.homeApiBytes / first.homeApiBytes <= BUDGETS.scaleGrowth],
            ['Home list p50 growth 100 -> max books', `<= ${BUDGETS.scaleGrowth}x`, `${(last.homeListP50 / first.homeListP50).toFixed(2)}x`, last.homeListP50 / first.homeListP50 <= BUDGETS.scaleGrowth],
            ['GET /api/admin document reads (max)', `<= ${BUDGETS.adminReads}`, Math.max(...scale.map((r) => r.adminReads)), Math.max(...scale.map((r) => r.adminReads)) <= BUDGETS.adminReads],
          ]
        : []),
    ] as [string, string, string | number, boolean][];
    console.log('\nBudgets');
    console.table(budgets.map(([what, budget, value, met]) => ({ what, budget, value, met: met ? 'yes' : 'NO' })));

    const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
    const results = { date: new Date().toISOString(), machine, bytes, lighthouse, api, scale, budgets };
    writeFileSync(`${ROOT}bench/results.json`, JSON.stringify(results, null, 2));
    writeFileSync(`${ROOT}BENCHMARKS.md`, renderMarkdown(results));
    console.log('\nWrote bench/results.json and BENCHMARKS.md');
  } finally {
    await suite?.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
