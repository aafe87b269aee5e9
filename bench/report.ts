import { failures, HOME_LIST } from './api';
import type { RouteBytes } from './bytes';
import type { LighthouseResult } from './lighthouse';
import type { LoadResult } from './load';
import type { ScaleRow } from './scale';

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
  lighthouse: LighthouseResult[];
  /** The built function on functions-framework, one process (as Cloud Functions v2 serves it). */
  productionApi: LoadResult[];
  /** Through the Hosting emulator and the Functions emulator. */
  hostingApi: LoadResult[];
  scale: ScaleRow[];
}

export const BUDGETS = {
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

export interface Budget {
  what: string;
  budget: string;
  measured: string | number;
  met: boolean;
}

export const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.POSITIVE_INFINITY);
const x = (value: number) => `${value.toFixed(2)}x`;
const n = (value: number) => value.toLocaleString('en');
const yes = (met: boolean) => (met ? 'met' : '**not met**');

export function budgets(r: BenchResults): Budget[] {
  const out: Budget[] = [];
  const home = r.bytes.find((b) => b.route === '/');
  if (home) {
    out.push({ what: 'JS on first visit to / (KB, transferred)', budget: `<= ${BUDGETS.homeJsGzipKB}`, measured: kb(home.js), met: home.js / 1024 <= BUDGETS.homeJsGzipKB });
    out.push({ what: 'Total transfer on first visit to / (KB)', budget: `<= ${BUDGETS.homeTotalKB}`, measured: kb(home.total), met: home.total / 1024 <= BUDGETS.homeTotalKB });
  }
  if (r.lighthouse.length) {
    const mobile = Math.min(...r.lighthouse.filter((l) => l.preset === 'mobile').map((l) => l.performance));
    const min = (k: 'accessibility' | 'bestPractices' | 'seo') => Math.min(...r.lighthouse.map((l) => l[k]));
    const cls = Math.max(...r.lighthouse.map((l) => l.cls));
    out.push({ what: 'Lighthouse mobile Performance (min of pages)', budget: `>= ${BUDGETS.mobilePerformance}`, measured: mobile, met: mobile >= BUDGETS.mobilePerformance });
    out.push({ what: 'Lighthouse Accessibility (min)', budget: `= ${BUDGETS.accessibility}`, measured: min('accessibility'), met: min('accessibility') >= BUDGETS.accessibility });
    out.push({ what: 'Lighthouse Best Practices (min)', budget: `>= ${BUDGETS.bestPractices}`, measured: min('bestPractices'), met: min('bestPractices') >= BUDGETS.bestPractices });
    out.push({ what: 'Lighthouse SEO (min)', budget: `>= ${BUDGETS.seo}`, measured: min('seo'), met: min('seo') >= BUDGETS.seo });
    out.push({ what: 'CLS (worst run)', budget: `< ${BUDGETS.cls}`, measured: cls, met: cls < BUDGETS.cls });
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
  }
  return out;
}

function table(headers: string[], rows: (string | number)[][]): string {
  return [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

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
  const list = (k: keyof ScaleRow) => s.map((row) => n(row[k])).join(' / ');
  const sizes = s.map((row) => n(row.books)).join(' / ');
  const growth = ratio(last.homeListP50, first.homeListP50);
  return [
    `- **Home list** (\`GET ${HOME_LIST}\`): ${same(s.map((row) => row.homeListReads)) ? `${n(first.homeListReads)} document reads at every size` : `${list('homeListReads')} document reads`} and ${same(s.map((row) => row.homeApiBytes)) ? `${n(first.homeApiBytes)} bytes at every size` : `${list('homeApiBytes')} bytes`} (${sizes} books). Its p50 on functions-framework at ${n(last.books)} books is ${x(growth)} the p50 at ${n(first.books)} books: budget ${BUDGETS.scaleGrowth}x ${yes(growth <= BUDGETS.scaleGrowth)}. Through the Functions emulator: ${x(ratio(last.homeListEmulatorP50, first.homeListEmulatorP50))}.${directNote(first, last)}`,
    `- **Stats** (\`GET /api/admin\`, ${n(first.orders)} orders): ${list('adminReads')} document reads at ${sizes} books; p50 ${list('adminP50')} ms.`,
    `- **Full list** (\`GET /api/books\`, the spec's "every book"): ${list('fullListReads')} reads; it grows with the catalogue by design, and the home page never asks for it.`,
  ].join('\n');
}

export function renderMarkdown(r: BenchResults): string {
  const b = budgets(r);
  const prodConns = [...new Set(r.productionApi.map((a) => a.connections))].join(', ');
  const hostConns = [...new Set(r.hostingApi.map((a) => a.connections))].join(', ');
  const seconds = (rows: LoadResult[]) => [...new Set(rows.map((a) => a.seconds))].join('/');
  return `# Benchmarks

Produced by \`npm run bench${r.quick ? ' -- --quick' : ''}\` on ${r.date.slice(0, 10)} (${r.machine}).
Firestore: **${r.environment.firestore}**. Load generator, function and emulators all ran on this
one machine, sharing its cores: compare figures within a run rather than across runs.
Generated from \`bench/results.json\` by \`bench/report.ts\`; do not edit by hand.

## Budgets

${table(['What', 'Budget', 'Measured', 'Met'], b.map((x) => [x.what, x.budget, x.measured, x.met ? 'yes' : '**no**']))}

The deterministic budgets (first-load JavaScript of \`/\` from the build output, no dashboard code,
Firebase SDK, sweetalert2 or Swiper on storefront first loads) are also checked by \`npm test\`
(\`web/src/bundle-budget.test.ts\`); timings stay here.

## 1. Bytes per route (first visit, transferred)

${table(['Route', 'JS KB', 'CSS KB', 'Images KB', 'API KB', 'Fonts KB', 'Total KB', 'Requests'], r.bytes.map((x) => [x.route, kb(x.js), kb(x.css), kb(x.images), kb(x.apiJson), kb(x.fonts), kb(x.total), x.requests]))}

## 2. Lighthouse (median of runs; CLS is the worst run)

${r.lighthouse.length ? table(['Page', 'Preset', 'Runs', 'Performance', 'Accessibility', 'Best Practices', 'SEO', 'LCP ms', 'TBT ms', 'CLS'], r.lighthouse.map((l) => [l.page, l.preset, l.runs.length, l.performance, l.accessibility, l.bestPractices, l.seo, l.lcpMs, l.tbtMs, l.cls])) : '(skipped: `--quick`)'}

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

Latency at one connection on functions-framework against the ${r.environment.firestore}; document
reads are counted by the function in the Functions emulator (\`X-Firestore-Reads\`, as billed: one per
document returned, one for an empty query, one per 1,000 index entries for \`count()\`).
`;
}
