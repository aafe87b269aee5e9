import { failures, HOME_LIST } from './api';
import type { FirstVisit, RouteBytes } from './bytes';
import type { ImportTiming } from './import';
import { THROTTLING, type InteractiveSection } from './interactive';
import type { ColdStartSection } from './cold-start';
import { floorLcp, floorRatio, MOBILE_RUNS, NO_JAVASCRIPT, ORIGINAL_SKIPPED, type LighthouseResult, type LighthouseRun, type OriginalApp } from './lighthouse';
import type { LoadResult } from './load';
import type { DeskRow, EndpointCost, ScaleRow } from './scale';

// Turns bench/results.json into BENCHMARKS.md. Every figure and every verdict here is computed from
// the results: nothing measured is typed into this file.

export interface BenchResults {
  date: string;
  machine: string;
  /** What served what: the Firestore emulator, functions-framework, Node. */
  environment: { firestore: string; functionsFramework: string; node: string };
  /** Lighthouse skipped and shorter load runs (`npm run bench -- --quick`). */
  quick: boolean;
  bytes: RouteBytes[];
  /** A first visit to / with the service worker's precache counted (absent in older results). */
  firstVisit?: FirstVisit;
  lighthouse: LighthouseResult[];
  /** The same pages with JavaScript disabled: each page's LCP floor (absent in older results). */
  lighthouseFloors?: LighthouseResult[];
  /** The original app's built frontend in the same run (BOOKSTORE_ORIGINAL_DIST), or why not. */
  original?: OriginalApp;
  /** The built function on functions-framework, one process (as Cloud Functions v2 serves it). */
  productionApi: LoadResult[];
  /** Through the Hosting emulator and the Functions emulator. */
  hostingApi: LoadResult[];
  scale: ScaleRow[];
  /** The admin's order desk, first page, at 100 and 10,000 orders (absent in older results). */
  desk?: DeskRow[];
  /** The 10,000-row import (`npm run bench -- --import`). */
  importTiming?: ImportTiming;
  /** Time until Add to Cart works under mobile throttling, per page, with its floor (issue 38). */
  interactive?: InteractiveSection;
  /** Lighthouse mobile on the four pages with an 8x CPU slowdown (issue 38). */
  lighthouse8x?: LighthouseResult[];
  /** Each function's module load and first request, booted alone (issue 38). */
  coldStart?: ColdStartSection;
  /** Issue 38's "before": the same measurements of the code before its changes (`--baseline`). */
  baseline?: Baseline;
}

export interface Baseline {
  date: string;
  /** The commit measured. */
  commit: string;
  interactive?: InteractiveSection;
  lighthouse?: LighthouseResult[];
  lighthouse8x?: LighthouseResult[];
  coldStart?: ColdStartSection;
}

export const BUDGETS = {
  homeJsGzipKB: 120,
  homeTotalKB: 400,
  mobilePerformance: 98,
  /** Mobile LCP, median of the runs, each page. */
  lcpMs: 1500,
  tbtMs: 50,
  /** CLS, worst run (Lighthouse's figure to 3 decimals). */
  cls: 0,
  /** A page's LCP over its floor's (the page with JavaScript disabled). */
  floorRatio: 1.3,
  /** Issue 38: Add to Cart working within this on each page, and within floorRatio of its floor. */
  worksMs: 2500,
  /** Issue 60: a tap answered by the next paint within Interaction to Next Paint's 'good'. */
  answeredMs: 200,
  /** Issue 38: the home page's first book card drawn within this. */
  homeCardMs: 1500,
  accessibility: 100,
  bestPractices: 95,
  seo: 95,
  scaleGrowth: 1.5,
  adminReads: 30,
  deskReads: 30,
};

/** The customer's orders page must not download the catalogue: no request for the book list. */
export const ORDERS_ROUTE = '/orders';
/** The /orders visit's API requests and those that ask for the book list (undefined: not measured). */
function ordersVisit(bytes: RouteBytes[]): { api: string[]; catalogue: string[] } | undefined {
  const api = bytes.find((b) => b.route === ORDERS_ROUTE)?.api;
  return api && { api, catalogue: api.filter((a) => /^GET \/api\/books(\?|$)/.test(a)) };
}

/** Each page's bytes, reads and p50 at the smallest and the largest catalogue, and their ratios. */
export interface Flatness {
  name: string;
  /** The catalogue size the growth is measured from. */
  fromBooks: number;
  bytes: number;
  reads: number;
  p50: number;
  /** Bytes and reads within the budget. */
  met: boolean;
  p50Met: boolean;
}

/**
 * Each page of the largest catalogue against the same page of the smallest catalogue that has it
 * (a catalogue of 100 books has no 10th page of 24).
 */
export function flatness(scale: ScaleRow[]): Flatness[] {
  const last = scale[scale.length - 1];
  if (!last?.endpoints) return [];
  return last.endpoints.flatMap((b) => {
    const from = scale.find((s) => s !== last && s.endpoints?.some((e) => e.name === b.name));
    const a = from?.endpoints!.find((e) => e.name === b.name);
    if (!from || !a) return [];
    const bytes = ratio(b.bytes, a.bytes);
    const reads = ratio(b.reads, a.reads);
    const p50 = ratio(b.p50, a.p50);
    // The cost a request carries (bytes, reads) is the budget; p50 is reported beside it, because the
    // official emulator answers queries without indexes (its own time grows with the collection).
    return [{ name: a.name, fromBooks: from.books, bytes, reads, p50, met: Math.max(bytes, reads) <= BUDGETS.scaleGrowth, p50Met: p50 <= BUDGETS.scaleGrowth }];
  });
}

export interface Budget {
  what: string;
  budget: string;
  measured: string | number;
  met: boolean;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.POSITIVE_INFINITY);
const x = (value: number) => `${value.toFixed(2)}x`;
const n = (value: number) => value.toLocaleString('en');
const yes = (met: boolean) => (met ? 'met' : '**not met**');
/** A median that no run gave (null once read back from JSON) shows as '-'. */
const shown = (value: number | null) => (value !== null && Number.isFinite(value) ? value : '-');
/** Book pages by kind: the id changes with every seed. */
const pageName = (page: string) => (/^\/books\/./.test(page) ? 'a book page' : page);

export function budgets(r: BenchResults): Budget[] {
  const out: Budget[] = [];
  const home = r.bytes.find((b) => b.route === '/');
  if (home) {
    out.push({ what: 'JS on first visit to / (KB, transferred)', budget: `<= ${BUDGETS.homeJsGzipKB}`, measured: kb(home.js), met: home.js / 1024 <= BUDGETS.homeJsGzipKB });
    out.push({ what: 'Total transfer on first visit to / (KB)', budget: `<= ${BUDGETS.homeTotalKB}`, measured: kb(home.total), met: home.total / 1024 <= BUDGETS.homeTotalKB });
  }
  if (r.lighthouse.length) {
    const mobile = r.lighthouse.filter((l) => l.preset === 'mobile');
    const min = (k: 'accessibility' | 'bestPractices' | 'seo') => Math.min(...r.lighthouse.map((l) => l[k]));
    for (const l of mobile) {
      const floor = r.lighthouseFloors?.find((f) => f.page === l.page && f.preset === l.preset);
      const ratioToFloor = floorRatio(l, floor);
      const at = `${pageName(l.page)}, mobile, median of ${l.runs.length}`;
      out.push({ what: `Lighthouse Performance (${at})`, budget: `>= ${BUDGETS.mobilePerformance}`, measured: shown(l.performance), met: l.performance >= BUDGETS.mobilePerformance });
      out.push({ what: `LCP ms (${at})`, budget: `<= ${BUDGETS.lcpMs}`, measured: shown(l.lcpMs), met: l.lcpMs <= BUDGETS.lcpMs });
      out.push({ what: `TBT ms (${at})`, budget: `<= ${BUDGETS.tbtMs}`, measured: shown(l.tbtMs), met: l.tbtMs <= BUDGETS.tbtMs });
      out.push({ what: `CLS (${pageName(l.page)}, worst of ${l.runs.length} runs)`, budget: `= ${BUDGETS.cls}`, measured: l.cls, met: l.cls <= BUDGETS.cls });
      if (r.lighthouseFloors) {
        out.push({ what: `LCP / floor LCP (${pageName(l.page)}; floor: JavaScript disabled)`, budget: `<= ${BUDGETS.floorRatio}x`, measured: Number.isFinite(ratioToFloor) ? x(ratioToFloor) : 'not measured', met: ratioToFloor <= BUDGETS.floorRatio });
      }
    }
    out.push({ what: 'Lighthouse Accessibility (min)', budget: `= ${BUDGETS.accessibility}`, measured: min('accessibility'), met: min('accessibility') >= BUDGETS.accessibility });
    out.push({ what: 'Lighthouse Best Practices (min)', budget: `>= ${BUDGETS.bestPractices}`, measured: min('bestPractices'), met: min('bestPractices') >= BUDGETS.bestPractices });
    out.push({ what: 'Lighthouse SEO (min)', budget: `>= ${BUDGETS.seo}`, measured: min('seo'), met: min('seo') >= BUDGETS.seo });
  }
  for (const l of r.lighthouse8x ?? []) {
    const at = `${pageName(l.page)}, mobile, 8x CPU, median of ${l.runs.length}`;
    out.push({ what: `Lighthouse Performance (${at})`, budget: '= 100', measured: shown(l.performance), met: l.performance >= 100 });
    out.push({ what: `TBT ms (${at})`, budget: `< ${BUDGETS.tbtMs}`, measured: shown(l.tbtMs), met: l.tbtMs < BUDGETS.tbtMs });
    out.push({ what: `CLS (${pageName(l.page)}, 8x CPU, worst of ${l.runs.length} runs)`, budget: `= ${BUDGETS.cls}`, measured: l.cls, met: l.cls <= BUDGETS.cls });
  }
  for (const p of r.interactive?.pages ?? []) {
    const at = `${pageName(p.page)}, throttled, median of ${p.runs.length}`;
    const control = p.page === '/cart' ? 'its line\'s Remove' : 'Add to Cart';
    out.push({ what: `${control} works, ms (${at})`, budget: `<= ${BUDGETS.worksMs}`, measured: shown(p.worksMs), met: p.worksMs <= BUDGETS.worksMs });
    const toFloor = ratio(p.worksMs, p.floorMs);
    out.push({ what: `${control} works / floor (${pageName(p.page)}; floor: its HTML and JavaScript over the same link)`, budget: `<= ${BUDGETS.floorRatio}x`, measured: Number.isFinite(toFloor) ? x(toFloor) : '-', met: toFloor <= BUDGETS.floorRatio });
    if (p.page === '/') out.push({ what: `First book card drawn, ms (${at})`, budget: `<= ${BUDGETS.homeCardMs}`, measured: shown(p.cardMs), met: p.cardMs <= BUDGETS.homeCardMs });
    if (p.tapsLost !== undefined) out.push({ what: `Taps on Add to Cart the moment it is drawn that were lost (${pageName(p.page)})`, budget: '= 0', measured: `${p.tapsLost} of ${p.runs.length}`, met: p.tapsLost === 0 });
  }
  if (r.productionApi.length) {
    const failed = r.productionApi.reduce((sum, a) => sum + failures(a), 0);
    const empty = r.productionApi.filter((a) => a.requests === 0).length;
    out.push({ what: 'API on functions-framework: failed requests (errors, timeouts, non-2xx)', budget: '= 0', measured: failed, met: failed === 0 });
    out.push({ what: 'API on functions-framework: runs that completed no request', budget: '= 0', measured: empty, met: empty === 0 });
  }
  const first = r.scale[0];
  const last = r.scale[r.scale.length - 1];
  if (first && last && last !== first) {
    const growth = (k: 'homeApiBytes' | 'homeListP50') => ratio(last[k], first[k]);
    const adminReads = Math.max(...r.scale.map((s) => s.adminReads));
    out.push({ what: `Home API bytes growth ${n(first.books)} -> ${n(last.books)} books`, budget: `<= ${BUDGETS.scaleGrowth}x`, measured: x(growth('homeApiBytes')), met: growth('homeApiBytes') <= BUDGETS.scaleGrowth });
    out.push({ what: `Home list p50 growth ${n(first.books)} -> ${n(last.books)} books (functions-framework)`, budget: `<= ${BUDGETS.scaleGrowth}x`, measured: x(growth('homeListP50')), met: growth('homeListP50') <= BUDGETS.scaleGrowth });
    out.push({ what: 'GET /api/admin document reads (max)', budget: `<= ${BUDGETS.adminReads}`, measured: adminReads, met: adminReads <= BUDGETS.adminReads });
    for (const f of flatness(r.scale)) {
      out.push({ what: `${f.name}: bytes and reads growth ${n(f.fromBooks)} -> ${n(last.books)} books (largest)`, budget: `<= ${BUDGETS.scaleGrowth}x`, measured: x(Math.max(f.bytes, f.reads)), met: f.met });
      out.push({ what: `${f.name}: p50 growth ${n(f.fromBooks)} -> ${n(last.books)} books (emulator without indexes)`, budget: `<= ${BUDGETS.scaleGrowth}x`, measured: x(f.p50), met: f.p50Met });
    }
  }
  const deskFirst = r.desk?.[0];
  const deskLast = r.desk?.[r.desk.length - 1];
  if (deskFirst && deskLast && deskFirst !== deskLast) {
    const growth = ratio(deskLast.p50, deskFirst.p50);
    out.push({ what: `Order desk first page: document reads at ${n(deskLast.orders)} orders`, budget: `<= ${BUDGETS.deskReads}`, measured: deskLast.reads, met: deskLast.reads <= BUDGETS.deskReads });
    out.push({ what: `Order desk first page: p50 growth ${n(deskFirst.orders)} -> ${n(deskLast.orders)} orders (emulator without indexes)`, budget: `<= ${BUDGETS.scaleGrowth}x`, measured: x(growth), met: growth <= BUDGETS.scaleGrowth });
  }
  const orders = ordersVisit(r.bytes);
  if (orders || r.bytes.length) {
    out.push({ what: `${ORDERS_ROUTE} (signed in): requests for the book list (\`GET /api/books\`)`, budget: '= 0', measured: orders?.catalogue.length ?? 'not measured', met: orders?.catalogue.length === 0 });
  }
  return out;
}

function table(headers: string[], rows: (string | number)[][]): string {
  return [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

// The tables `npm run bench` also prints as it goes.
export const budgetsTable = (r: BenchResults) => table(['What', 'Budget', 'Measured', 'Met'], budgets(r).map((x) => [x.what, x.budget, x.measured, x.met ? 'yes' : '**no**']));
export const bytesTable = (bytes: RouteBytes[]) =>
  table(['Route', 'JS KB', 'CSS KB', 'Images KB', 'API KB', 'Fonts KB', 'Total KB', 'Requests'], bytes.map((x) => [x.route, kb(x.js), kb(x.css), kb(x.images), kb(x.apiJson), kb(x.fonts), kb(x.total), x.requests]));

function loadTable(rows: LoadResult[]): string {
  return table(
    ['Endpoint', 'Connections', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'First answer max ms', 'Answers', 'Failed', '5xx'],
    rows.map((a) => [a.name, a.connections, a.rps, a.p50, a.p95, a.p99, a.firstAnswerMax ?? '-', a.requests, failures(a), a.status5xx]),
  );
}

/** Why requests failed, from the first answers kept by the load runs. */
function failureNotes(rows: LoadResult[]): string {
  const failed = rows.filter((a) => failures(a) > 0 || a.requests === 0);
  if (!failed.length) return '';
  return `\n\n${failed.map((a) => `- ${a.name} at ${a.connections} connections: ${a.requests === 0 ? 'no answer within the run' : `${failures(a)} failed`}${a.samples.length ? ` (${a.samples.map((s) => `\`${s.replace(/[`|\n]/g, ' ')}\``).join(', ')})` : ''}`).join('\n')}`;
}

function apiNotes(r: BenchResults): string {
  const lines: string[] = [];
  const maxC = (rows: LoadResult[]) => Math.max(...rows.map((a) => a.connections));
  if (r.productionApi.length) {
    const total = r.productionApi.reduce((sum, a) => sum + a.requests, 0);
    const failed = r.productionApi.reduce((sum, a) => sum + failures(a), 0);
    lines.push(`- **functions-framework**: ${n(total)} answers over all runs, ${n(failed)} failed (${failed === 0 ? 'none' : 'see above; the bench exits with an error'}).`);
  }
  if (r.productionApi.length && r.hostingApi.length) {
    const top = maxC(r.hostingApi);
    for (const prod of r.productionApi.filter((a) => a.connections === top)) {
      const emu = r.hostingApi.find((a) => a.name === prod.name && a.connections === top);
      if (!emu) continue;
      lines.push(`- ${prod.name} at ${top} connections: ${prod.rps} req/s on functions-framework, ${emu.rps} req/s through the Functions emulator (${x(ratio(prod.rps, emu.rps))}).`);
    }
  }
  return lines.join('\n');
}

/** How much of the home list's added latency the emulator spends on the query itself. */
function directNote(first: ScaleRow, last: ScaleRow): string {
  if (first.homeQueryDirectP50 === undefined || last.homeQueryDirectP50 === undefined) return '';
  const added = last.homeListP50 - first.homeListP50;
  const direct = last.homeQueryDirectP50 - first.homeQueryDirectP50;
  const share = added > 0 ? Math.round((direct / added) * 100) : 0;
  return ` The same query sent straight to the emulator with firebase-admin (no function) takes ${first.homeQueryDirectP50} ms at ${n(first.books)} books and ${last.homeQueryDirectP50} ms at ${n(last.books)} (${x(ratio(last.homeQueryDirectP50, first.homeQueryDirectP50))})${added > 0 ? `: ${share}% of the ${added.toFixed(1)} ms the function's p50 gained is the emulator answering the query` : ''}.`;
}

function scaleNotes(s: ScaleRow[]): string {
  if (!s.length) return '';
  const first = s[0]!;
  const last = s[s.length - 1]!;
  const same = <T>(values: T[]) => values.every((v) => v === values[0]);
  const list = (k: Exclude<keyof ScaleRow, 'endpoints' | 'customerOrders'>) => s.map((row) => n(row[k])).join(' / ');
  const sizes = s.map((row) => n(row.books)).join(' / ');
  const growth = ratio(last.homeListP50, first.homeListP50);
  return [
    `- **Home list** (\`GET ${HOME_LIST}\`): ${same(s.map((row) => row.homeListReads)) ? `${n(first.homeListReads)} document reads at every size` : `${list('homeListReads')} document reads`} and ${same(s.map((row) => row.homeApiBytes)) ? `${n(first.homeApiBytes)} bytes at every size` : `${list('homeApiBytes')} bytes`} (${sizes} books). Its p50 on functions-framework at ${n(last.books)} books is ${x(growth)} the p50 at ${n(first.books)} books: budget ${BUDGETS.scaleGrowth}x ${yes(growth <= BUDGETS.scaleGrowth)}. Through the Functions emulator: ${x(ratio(last.homeListEmulatorP50, first.homeListEmulatorP50))}.${directNote(first, last)}`,
    `- **Stats** (\`GET /api/admin\`, ${n(first.orders)} orders, sharded counters): ${list('adminReads')} document reads at ${sizes} books; p50 ${list('adminP50')} ms.`,
    `- **Full list** (\`GET /api/books\`, the spec's "every book"): ${list('fullListReads')} reads; it grows with the catalogue by design, and the home page never asks for it.`,
  ].join('\n');
}

/** Bytes, reads and p50 of every page at every catalogue size, with the growth from the smallest to the largest. */
function pagesTable(scale: ScaleRow[]): string {
  const withEndpoints = scale.filter((s) => s.endpoints?.length);
  if (!withEndpoints.length) return '';
  const sizes = withEndpoints.map((s) => n(s.books));
  const flat = new Map(flatness(withEndpoints).map((f) => [f.name, f]));
  const names = withEndpoints[withEndpoints.length - 1]!.endpoints!.map((e) => e.name);
  const cell = (name: string, pick: (e: EndpointCost) => number | string) => withEndpoints.map((s) => {
    const e = s.endpoints!.find((x) => x.name === name);
    return e ? pick(e) : '-';
  }).join(' / ');
  const rows = names.map((name) => {
    const e = withEndpoints[withEndpoints.length - 1]!.endpoints!.find((x) => x.name === name)!;
    const f = flat.get(name);
    return [
      name,
      `\`${e.request.replace(/\|/g, '%7C')}\``,
      cell(name, (x) => n(x.bytes)),
      cell(name, (x) => x.reads),
      cell(name, (x) => x.p50),
      e.servedBy,
      f ? `${x(f.bytes)} / ${x(f.reads)} / ${x(f.p50)}${f.fromBooks !== withEndpoints[0]!.books ? ` (from ${n(f.fromBooks)})` : ''}` : '-',
      f ? `${yes(f.met)}${f.p50Met ? '' : ' (p50 not)'}` : '-',
    ];
  });
  return `### Pages at ${sizes.join(' / ')} books

Each figure is given at ${sizes.join(' / ')} books. Bytes and document reads: the median of three
answers through Hosting and the Functions emulator, after warm-up requests (the search's first
request after a reseed builds the index and is not counted). Growth is the figure at
${sizes[sizes.length - 1]} books over the figure at ${sizes[0]} (or, for a page a small catalogue does not have, at the
smallest that has it: "-" where a page does not exist); "Flat" is met when bytes and reads grow at most
${BUDGETS.scaleGrowth}x (what a request costs in production, where every query runs on an index). The p50 is
shown beside it: the official emulator answers a query by scanning the collection, so its own time grows with
the catalogue (see the home list's direct-query control above). The orders page is a signed-up customer's (email verified through the Auth emulator), who
owns ${n(withEndpoints[0]!.customerOrders ?? 0)} of the ${n(withEndpoints[0]!.orders)} seeded orders (the page shows the newest).

${table(['Page', 'Request', 'Bytes', 'Reads', 'p50 ms', 'p50 served by', 'Growth: bytes / reads / p50', 'Flat'], rows)}
`;
}

function deskSection(desk: DeskRow[] | undefined): string {
  if (!desk?.length) return '';
  const first = desk[0]!;
  const last = desk[desk.length - 1]!;
  const growth = ratio(last.p50, first.p50);
  return `### The admin's order desk (\`GET /api/admin/orders\`, first page)

Orders in today's shape (lines, events, mixed statuses) with the counters in the shards
\`stats/counters-*\`; ${n(first.orders)} orders seeded first and measured, then filled to ${n(last.orders)} and measured again.
p50 on functions-framework; reads through the Functions emulator.

${table(['Orders', 'Bytes', 'Reads', 'p50 ms', 'p99 ms', 'The query alone on the emulator, p50 ms'], desk.map((d) => [n(d.orders), n(d.bytes), d.reads, d.p50, d.p99, d.directQueryP50 ?? '-']))}

The last column sends the desk's query (the newest orders) straight to the emulator with firebase-admin:
the official emulator has no indexes and scans the collection, so its own time grows with the orders
while the reads and bytes stay flat.

At ${n(last.orders)} orders the first page reads ${last.reads} documents (budget <= ${BUDGETS.deskReads}: ${yes(last.reads <= BUDGETS.deskReads)}) and its p50 is ${x(growth)} the p50 at ${n(first.orders)} (budget <= ${BUDGETS.scaleGrowth}x: ${yes(growth <= BUDGETS.scaleGrowth)}).
`;
}

function importSection(t: ImportTiming | undefined): string {
  if (!t) return '(not run: `npm run bench -- --import` adds it; it takes several minutes on the emulator)';
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return `${n(t.rows)} rows as the admin's import page sends them: through Hosting to the function, 500 rows per
request, one request after another (\`bench/import.ts\`)${t.measuredAt ? `, measured ${t.measuredAt.slice(0, 16).replace('T', ' ')} UTC` : ''}. The official emulator
finds existing books by ISBN by scanning the collection, so each chunk is slower than the one before.

${table(['Pass', 'Time', 'Rows per second', 'Created'], [
  ['Dry run (nothing written)', s(t.dryRunMs), Math.round(t.rows / (t.dryRunMs / 1000)), '-'],
  ['Import', s(t.importMs), Math.round(t.rows / (t.importMs / 1000)), n(t.created)],
  ['The same file again (upsert by ISBN)', s(t.reimportMs), Math.round(t.rows / (t.reimportMs / 1000)), n(t.reimportCreated)],
])}`;
}

function ordersRouteNote(bytes: RouteBytes[]): string {
  const orders = ordersVisit(bytes);
  if (!orders) return '';
  return `\n\n\`${ORDERS_ROUTE}\` is visited signed in as the demo customer. Its API requests: ${orders.api.length ? orders.api.map((a) => `\`${a}\``).join(', ') : 'none'}; ${orders.catalogue.length ? `**${orders.catalogue.length} ask for the book list**` : 'none asks for the book list (the catalogue)'}.`;
}

function runCells(run: LighthouseRun): string {
  if (run.error && !Number.isFinite(run.lcpMs ?? Number.NaN)) return `no figures (${run.error})`;
  return `${run.performance} / ${shown(run.lcpMs)} / ${shown(run.tbtMs)} / ${shown(run.cls)}`;
}

/** Section 2; `npm run bench` prints it as soon as Lighthouse is done. */
export function lighthouseSection(r: Pick<BenchResults, 'lighthouse' | 'lighthouseFloors' | 'original'>): string {
  if (!r.lighthouse.length) return '## 2. Lighthouse\n\n(skipped: `--quick` or `--no-lighthouse`)';
  const floors = r.lighthouseFloors ?? [];
  const summary = table(
    ['Page', 'Preset', 'Runs', 'Performance', 'LCP ms', 'Floor LCP ms', 'LCP / floor', 'FCP ms', 'TBT ms', 'CLS (worst)', 'Accessibility', 'Best Practices', 'SEO'],
    r.lighthouse.map((l) => {
      const floor = floors.find((f) => f.page === l.page && f.preset === l.preset);
      const ratioToFloor = floorRatio(l, floor);
      return [l.page, l.preset, l.runs.length, shown(l.performance), shown(l.lcpMs), floor ? shown(floorLcp(floor)) : '-', Number.isFinite(ratioToFloor) ? x(ratioToFloor) : '-', shown(l.fcpMs ?? null), shown(l.tbtMs), l.cls, l.accessibility, l.bestPractices, l.seo];
    }),
  );
  const all = [...r.lighthouse, ...floors, ...(r.original?.lighthouse ?? []), ...(r.original?.floors ?? [])];
  const label = (l: LighthouseResult) => `${r.original?.lighthouse?.includes(l) || r.original?.floors?.includes(l) ? 'original ' : ''}${l.page}${l.javascript === false ? ' (no JS: floor)' : ''}`;
  const maxRuns = Math.max(...all.map((l) => l.runs.length));
  const runs = table(
    ['Page', 'Preset', ...Array.from({ length: maxRuns }, (_, i) => `Run ${i + 1}: perf / LCP / TBT / CLS`), 'LCP element (first run)'],
    all.map((l) => [label(l), l.preset, ...Array.from({ length: maxRuns }, (_, i) => (l.runs[i] ? runCells(l.runs[i]) : '-')), l.runs[0]?.lcpElement ? `\`${l.runs[0].lcpElement.replace(/[`|\n]/g, ' ')}\`` : '-']),
  );
  let original = `${r.original?.skipped ?? ORIGINAL_SKIPPED}.`;
  const theirs = r.original?.lighthouse?.[0];
  const ours = r.lighthouse.find((l) => l.page === theirs?.page && l.preset === theirs.preset);
  if (theirs && ours) {
    const theirFloor = r.original?.floors?.find((f) => f.page === theirs.page);
    const theirRatio = floorRatio(theirs, theirFloor);
    original = `The original app's built frontend (\`${r.original!.dist}\`, served by a static server, no API), \`${theirs.page}\`, same runs and throttling:

${table(['', 'Performance', 'LCP ms', 'TBT ms', 'CLS (worst)', 'LCP / floor'], [
  ['This shop', shown(ours.performance), shown(ours.lcpMs), shown(ours.tbtMs), ours.cls, x(floorRatio(ours, floors.find((f) => f.page === ours.page)))],
  ['Original', shown(theirs.performance), shown(theirs.lcpMs), shown(theirs.tbtMs), theirs.cls, Number.isFinite(theirRatio) ? x(theirRatio) : `- (${theirFloor?.error ?? 'no floor'})`],
  ['Original / this shop', '-', x(ratio(theirs.lcpMs, ours.lcpMs)), x(ratio(theirs.tbtMs, Math.max(ours.tbtMs, 1))), '-', '-'],
])}`;
  }
  return `## 2. Lighthouse (mobile, default throttling; median of runs, CLS the worst run)

Lighthouse ${MOBILE_RUNS} runs a page on this machine (\`bench/lighthouse.ts\`). The **floor** is the same page
loaded with JavaScript disabled (Lighthouse's \`${NO_JAVASCRIPT}\`: every script request fails; Chromium's
\`--blink-settings=scriptEnabled=false\` stops Lighthouse itself), same throttling, as many runs: the
page's HTML and CSS alone. "Floor LCP" is the floor's fastest run, the best that page can paint
without JavaScript (the inline start script still runs there, and in some runs its failed requests
are counted into the paint); "LCP / floor" is the median LCP over it.

${summary}

Every run (Performance / LCP ms / TBT ms / CLS):

${runs}

${original}`;
}

const msCell = (v: number | null | undefined) => (v === null || v === undefined ? 'never' : Number.isFinite(v) ? v : '-');

/** One measurement of the time until a control works: medians per page, and every run. */
function interactiveTables(section: InteractiveSection): string {
  const summary = table(
    ['Page', 'First paint ms', 'LCP ms', 'First card drawn ms', 'Add to Cart works (app started) ms', 'Floor ms', 'Works / floor', 'Tap at draw: in the cart at ms', 'Tap at draw: answered in ms', 'Taps lost'],
    section.pages.map((p) => [
      pageName(p.page), shown(p.fcpMs), shown(p.lcpMs), shown(p.cardMs), shown(p.worksMs), shown(p.floorMs), x(ratio(p.worksMs, p.floorMs)),
      p.tapsLost === undefined ? 'n/a' : Number.isFinite(p.tapEffectMs ?? Number.NaN) ? p.tapEffectMs! : '-',
      // Older results (before issue 60) did not time the answer.
      p.tapsLost === undefined || p.answeredMs === undefined ? 'n/a' : Number.isFinite(p.answeredMs) ? p.answeredMs : '-',
      p.tapsLost === undefined ? 'n/a' : `${p.tapsLost} of ${p.runs.length}`,
    ]),
  );
  const runs = table(
    ['Page', 'Runs: paint / card / works / tap in cart / answered (ms)', 'Floor runs (ms)'],
    section.pages.map((p) => [pageName(p.page), p.runs.map((r) => `${msCell(r.fcpMs)} / ${msCell(r.cardMs)} / ${msCell(r.worksMs)} / ${r.tapEffectMs === undefined ? 'n/a' : r.tapEffectMs === null ? 'lost' : r.tapEffectMs} / ${r.answeredMs === undefined ? 'n/a' : msCell(r.answeredMs)}`).join('; '), p.floorRuns.join(' / ')]),
  );
  return `Chromium ${section.chromium}, ${section.date.slice(0, 16).replace('T', ' ')} UTC, ${section.runs} runs a page; load average (1 min) ${section.load[0]} at the start, ${section.load[1]} at the end.

${summary}

${runs}`;
}

/** Lighthouse at 4x and 8x CPU, compactly: medians, CLS worst, every run's TBT. */
function lighthouseCompact(four: LighthouseResult[] | undefined, eight: LighthouseResult[] | undefined): string {
  const rows = [...(four ?? []).filter((l) => l.javascript !== false).map((l) => ({ l, cpu: 4 })), ...(eight ?? []).map((l) => ({ l, cpu: l.cpuSlowdown ?? 8 }))];
  if (!rows.length) return '(not measured)';
  const version = [...new Set(rows.flatMap(({ l }) => l.runs.map((run) => run.chromium).filter(Boolean)))].join(', ') || 'not recorded';
  return `Chromium ${version}.

${table(
    ['Page', 'CPU', 'Performance', 'LCP ms', 'TBT ms', 'CLS (worst)', 'Every run: perf / TBT ms'],
    rows.map(({ l, cpu }) => [pageName(l.page), `${cpu}x`, shown(l.performance), shown(l.lcpMs), shown(l.tbtMs), l.cls, l.runs.map((run) => `${run.performance} / ${shown(run.tbtMs)}`).join('; ')]),
  )}`;
}

function coldStartTable(section: ColdStartSection): string {
  return `${section.note}

${table(
    ['Function', 'Code loaded (KB)', 'Module load ms', 'Module load CPU ms', 'Start to listening ms', 'First request ms', 'First request', 'RSS after it (MiB)'],
    section.functions.map((f) => [f.name, n(Math.round(f.codeBytes / 1024)), f.moduleLoadMs, f.moduleCpuMs ?? '-', f.listeningMs, f.firstRequestMs, `\`${f.request}\` -> ${f.status}`, f.rssMb]),
  )}`;
}

/** Around section 0 in BENCHMARKS.md: `--interactive-only` replaces what is between them, keeping the rest. */
export const ISSUE38_MARKS = { start: '<!-- issue-38:start -->', end: '<!-- issue-38:end -->' };

/** Issue 38: the time until a control works, Lighthouse at 4x and 8x, cold starts; before and after. */
export function issue38Section(r: BenchResults): string {
  const b = r.baseline;
  if (!r.interactive && !b) return '';
  return `${ISSUE38_MARKS.start}\n${issue38Body(r, b)}${ISSUE38_MARKS.end}\n`;
}

/** Issue 38's targets against this run's figures. */
function issue38Targets(r: BenchResults): Budget[] {
  const out: Budget[] = [];
  for (const p of r.interactive?.pages ?? []) {
    const control = p.page === '/cart' ? "its line's Remove" : 'Add to Cart';
    const toFloor = ratio(p.worksMs, p.floorMs);
    out.push({ what: `${pageName(p.page)}: ${control} works (ms, median of ${p.runs.length})`, budget: `<= ${BUDGETS.worksMs}`, measured: shown(p.worksMs), met: p.worksMs <= BUDGETS.worksMs });
    out.push({ what: `${pageName(p.page)}: works / its floor`, budget: `<= ${BUDGETS.floorRatio}x`, measured: Number.isFinite(toFloor) ? x(toFloor) : '-', met: toFloor <= BUDGETS.floorRatio });
    if (p.page === '/') out.push({ what: '/: first book card drawn (ms)', budget: `<= ${BUDGETS.homeCardMs}`, measured: shown(p.cardMs), met: p.cardMs <= BUDGETS.homeCardMs });
    if (p.tapsLost !== undefined) out.push({ what: `${pageName(p.page)}: taps at draw lost`, budget: '= 0', measured: `${p.tapsLost} of ${p.runs.length}`, met: p.tapsLost === 0 });
    if (p.answeredMs !== undefined) out.push({ what: `${pageName(p.page)}: a tap at draw answered (tap to the next paint showing the count, ms; issue 60)`, budget: `<= ${BUDGETS.answeredMs}`, measured: shown(p.answeredMs), met: p.answeredMs <= BUDGETS.answeredMs });
  }
  const lighthouse = [...r.lighthouse.filter((l) => l.javascript !== false).map((l) => ({ l, cpu: 4 })), ...(r.lighthouse8x ?? []).map((l) => ({ l, cpu: l.cpuSlowdown ?? 8 }))];
  for (const { l, cpu } of lighthouse) {
    const at = `${pageName(l.page)}: Lighthouse mobile at ${cpu}x CPU`;
    out.push({ what: `${at}, Performance (median)`, budget: '= 100', measured: shown(l.performance), met: l.performance >= 100 });
    out.push({ what: `${at}, TBT ms (median)`, budget: `< ${BUDGETS.tbtMs}`, measured: shown(l.tbtMs), met: l.tbtMs < BUDGETS.tbtMs });
    out.push({ what: `${at}, CLS (worst run)`, budget: '= 0', measured: l.cls, met: l.cls <= 0 });
  }
  if (r.firstVisit) out.push({ what: 'First visit to / with the service worker (KB)', budget: '<= 250', measured: kb(r.firstVisit.total), met: r.firstVisit.total / 1024 <= 250 });
  return out;
}

function issue38Body(r: BenchResults, b: Baseline | undefined): string {
  const before = (what: string, body: string | undefined) => (b && body ? `**Before** (commit \`${b.commit}\`, ${b.date.slice(0, 10)}), ${what}:\n\n${body}\n\n` : '');
  const throttling = `${THROTTLING.cpuSlowdown}x CPU, ${THROTTLING.latencyMs} ms round trip, ${((THROTTLING.downloadBytesPerSecond * 8) / 1024 / 1024).toFixed(1)} Mbit/s down, ${Math.round((THROTTLING.uploadBytesPerSecond * 8) / 1024)} kbit/s up`;
  const targets = issue38Targets(r);
  return `## 0. As fast to use as to paint (issue 38)

${targets.length ? `Targets, against the latest figures below:\n\n${table(['What', 'Target', 'Measured', 'Met'], targets.map((t) => [t.what, t.budget, t.measured, t.met ? 'yes' : '**no**']))}\n\n` : ''}### Time until Add to Cart works, under mobile throttling

Lighthouse's mobile throttling applied in Chromium itself (${throttling}; \`bench/interactive.ts\`), a
phone's viewport (412 x 823, touch), no service worker, a fresh context per run, median of the runs.
Timed from the navigation's start by a probe in the page every 50 ms: the first paint
(first-contentful-paint), the LCP, the first book card's Add to Cart drawn, and the moment it
**works** (enabled, outside any disabled fieldset, and React owns it: a tap has its effect at once).
"Tap at draw": the probe clicks Add to Cart the moment it is drawn, and this is when the cart shows
the book ("lost" when it never does); "answered" is from that tap to the first frame painted after
the header's Cart link says 'Cart, 1 item' (issue 60: Interaction to Next Paint's measure, good
within ${BUDGETS.answeredMs} ms; the start script answers before the app has started). On /cart the control is the cart line's Remove (the page has
no Add to Cart; the cart holds one book). The **floor** of a page is its HTML and the JavaScript it
needs (the entry, its imports, the route's chunk) over the same link with nothing waiting between
them: the same document with all of those scripts preloaded in its head, nothing run, timed to the
last byte of the last one. Budgets: works within ${BUDGETS.worksMs} ms and ${BUDGETS.floorRatio}x its floor; the home
page's first card within ${BUDGETS.homeCardMs} ms.

${before('the same measurement', b?.interactive && interactiveTables(b.interactive))}${r.interactive ? `**After**:\n\n${interactiveTables(r.interactive)}` : ''}

### Lighthouse mobile at 4x and 8x CPU slowdown

Lighthouse's simulated throttling, its default 4x CPU slowdown and 8x (\`--throttling.cpuSlowdownMultiplier=8\`),
the four pages, median of the runs (CLS the worst run). Full 4x detail with the floors: section 2.

${before('Lighthouse', b && (b.lighthouse || b.lighthouse8x) ? lighthouseCompact(b.lighthouse, b.lighthouse8x) : undefined)}**After**:

${lighthouseCompact(r.lighthouse, r.lighthouse8x)}

### Cold starts per function

${before('one bundle for every function', b?.coldStart && coldStartTable(b.coldStart))}${r.coldStart ? `**After**:\n\n${coldStartTable(r.coldStart)}` : '(not measured in this run)'}
`;
}

/** The first visit to / with the worker's precache (issue 23: at most 250 KB, no dashboard code). */
function firstVisitLine(v: FirstVisit | undefined): string {
  if (!v) return 'First visit to / with the service worker\'s precache: not measured in this run.';
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  return `First visit to / with the service worker's precache counted (Chromium, empty cache, until the worker controls the page and the network is idle): **${kb(v.total)} KB** in ${v.requests} requests, of which the worker's ${kb(v.workerBytes)} KB in ${v.workerRequests} (budget 250 KB, held by \`web/e2e/first-visit.spec.ts\`).`;
}

export function renderMarkdown(r: BenchResults): string {
  const prodConns = [...new Set(r.productionApi.map((a) => a.connections))].join(', ');
  const hostConns = [...new Set(r.hostingApi.map((a) => a.connections))].join(', ');
  const seconds = (rows: LoadResult[]) => [...new Set(rows.map((a) => a.seconds))].join('/');
  return `# Benchmarks

Produced by \`npm run bench${r.quick ? ' -- --quick' : ''}\` on ${r.date.slice(0, 10)} (${r.machine}).
Firestore: **${r.environment.firestore}**. Load generator, function and emulators all ran on this
one machine, sharing its cores: compare figures within a run rather than across runs.
Generated from \`bench/results.json\` by \`bench/report.ts\`; do not edit by hand.

## Budgets

${budgetsTable(r)}

${issue38Section(r)}

The deterministic budgets (first-load JavaScript of \`/\` from the build output, no dashboard code,
Firebase SDK, sweetalert2 or Swiper on storefront first loads) are also checked by \`npm test\`
(\`web/src/bundle-budget.test.ts\`); timings stay here.

## 1. Bytes per route (first visit, transferred)

${bytesTable(r.bytes)}${ordersRouteNote(r.bytes)}

${firstVisitLine(r.firstVisit)}

${lighthouseSection(r)}

## 3. API as production serves it (functions-framework ${r.environment.functionsFramework}, one process)

The built function (\`functions/lib/index.js\`, export \`api\`) on \`@google-cloud/functions-framework\`,
as Cloud Functions v2 runs it: one Node process (${r.environment.node}) serving concurrent requests,
against the ${r.environment.firestore.replace(/ \(.*$/, '')} and the Auth emulator. autocannon on loopback,
${seconds(r.productionApi)} s per row after a warm-up, at ${prodConns || '-'} connections. Orders rotate over
signed-in customers with verified emails and books stocked for the run, each with a fresh
\`Idempotency-Key\`; the stats use an admin token. "Failed" counts connection errors, timeouts and
non-2xx answers; any makes \`npm run bench\` exit with an error. The percentiles leave out each
connection's first answer: autocannon opens every connection at once and starts that answer's clock
before the TCP connection exists, so it measures a burst of connection set-ups on the shared cores
(Cloud Run's front end keeps its connections to an instance open). The slowest of those first answers
is the "First answer max" column; all answers count in req/s.

${r.productionApi.length ? loadTable(r.productionApi) : '(not measured)'}${failureNotes(r.productionApi)}

## 4. API through the Hosting and Functions emulators (for comparison only)

The same requests through the Hosting emulator and the Functions emulator, ${seconds(r.hostingApi)} s per row, at
${hostConns || '-'} connections. The Functions emulator runs one request per worker process and starts
another Node process for each concurrent request, so these figures describe the emulator, not
production.

${r.hostingApi.length ? loadTable(r.hostingApi) : '(not measured)'}${failureNotes(r.hostingApi)}

${apiNotes(r)}

## 5. Scale

${r.scale.length ? table(['Books', 'Orders', 'Home API bytes', 'Home list reads', 'Home list p50 ms', 'Home list p99 ms', 'Home list p50 ms (Functions emulator)', 'Query alone p50 ms', 'Stats reads', 'Stats p50 ms', 'Stats p99 ms', 'Full list reads'], r.scale.map((s) => [n(s.books), n(s.orders), s.homeApiBytes, s.homeListReads, s.homeListP50, s.homeListP99, s.homeListEmulatorP50, s.homeQueryDirectP50 ?? '-', s.adminReads, s.adminP50, s.adminP99, s.fullListReads])) : '(skipped: measured against a running shop)'}

${scaleNotes(r.scale)}

${pagesTable(r.scale)}
${deskSection(r.desk)}

Latency at one connection on functions-framework against the ${r.environment.firestore}; document
reads are counted by the function in the Functions emulator (\`X-Firestore-Reads\`, as billed: one per
document returned, one for an empty query, one per 1,000 index entries for \`count()\`).

## 6. Catalogue import

${importSection(r.importTiming)}
`;
}
