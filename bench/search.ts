// Search index cost at 100 and 10,000 books, in-process (no emulator): build time, heap held by
// the index, and the p50 of typical shopper queries. Run: npx tsx bench/search.ts [--json]
// `--cold-start` instead measures an instance's cold start at 100, 10,000 and 100,000 books, before
// (read the catalogue, build) and after (load the stored snapshot, decision 018), and writes that
// table into BENCHMARKS.md. Run it with node --expose-gc for exact heap figures:
//   node --expose-gc --import tsx bench/search.ts --cold-start
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { generatedBooks, KNOWN_BOOKS } from '../functions/src/books/catalog-fixtures';
import { buildIndex, loadIndex, searchBooks, serializeIndex } from '../functions/src/books/search-index';
import { heapLimitMb } from '../functions/src/lib/heap';

// Selective queries (a title with typos, a prefix, accents, an author), and one broad word.
const QUERIES = ['harri poter', 'dune mess', 'cafe eclair', 'rowling', 'the quiet ledgr', 'lantern'];
const ROUNDS = 200;

function heapUsed(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

function measure(size: number) {
  const rows = [...generatedBooks(size - KNOWN_BOOKS.length), ...KNOWN_BOOKS];
  const before = heapUsed();
  const started = performance.now();
  const index = buildIndex(rows);
  const buildMs = performance.now() - started;
  const heapMb = (heapUsed() - before) / 1e6;
  const p50: Record<string, number> = {};
  for (const q of QUERIES) {
    for (let i = 0; i < 20; i++) searchBooks(index, q); // warm up
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t = performance.now();
      searchBooks(index, q).slice(0, 24);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    p50[q] = times[Math.floor(times.length / 2)]!;
  }
  return { size, buildMs, heapMb, p50, matches: Object.fromEntries(QUERIES.map((q) => [q, searchBooks(index, q).length])) };
}

/**
 * One instance's cold start at `size` books. Firestore reads follow from catalog-index.ts: before,
 * the version and every book; after, the version alone (the snapshot is a Storage download).
 */
function coldStart(size: number) {
  const rows = [...generatedBooks(size - KNOWN_BOOKS.length), ...KNOWN_BOOKS];
  let t = performance.now();
  const built = buildIndex(rows);
  const buildMs = performance.now() - t;
  const snapshot = serializeIndex(built);
  const rawBytes = JSON.stringify(built.index).length;
  const before = heapUsed();
  t = performance.now();
  const loaded = loadIndex(snapshot)!; // this build's own shape
  const loadMs = performance.now() - t;
  const heapMb = (heapUsed() - before) / 1e6;
  const firstQueryMs = (() => {
    const q = performance.now();
    searchBooks(loaded, 'harri poter');
    return performance.now() - q;
  })();
  return { size, readsBefore: size + 1, readsAfter: 1, buildMs, loadMs, firstQueryMs, rawBytes, gzBytes: snapshot.length, heapMb, keep: loaded.size };
}

const MARK = { start: '<!-- search-cold-start:start -->', end: '<!-- search-cold-start:end -->' };

const MEMORY_MARK = { start: '<!-- search-memory:start -->', end: '<!-- search-memory:end -->' };
const MEMORY_BOOKS = 100_000;
/** The functions a 100,000-book search could run in, with the memory index.ts declares for them. */
const FUNCTIONS = [
  { name: 'api', memoryMb: 256 },
  { name: 'search', memoryMb: 2048 },
];

/** In a child (`--build-index`): builds and serialises the index from the rows, as the lease holder does. */
if (process.argv.includes('--build-index')) {
  const t = performance.now();
  const rows = [...generatedBooks(MEMORY_BOOKS - KNOWN_BOOKS.length), ...KNOWN_BOOKS];
  const snapshot = serializeIndex(buildIndex(rows));
  console.log(JSON.stringify({ buildMs: performance.now() - t, bytes: snapshot.length, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

/** In a child (`--load-snapshot <file>`): loads the snapshot, searches, prints its figures as JSON. */
if (process.argv.includes('--load-snapshot')) {
  const file = process.argv[process.argv.indexOf('--load-snapshot') + 1]!;
  const t = performance.now();
  const index = loadIndex(readFileSync(file));
  if (!index) throw new Error(`${file} was stored in another shape than this code's (SEARCH_SCHEMA): run --memory again`);
  const loadMs = performance.now() - t;
  const q = performance.now();
  const hits = searchBooks(index, 'harri poter').length;
  const searchMs = performance.now() - q;
  console.log(JSON.stringify({ loadMs, searchMs, hits, heapMb: process.memoryUsage().heapUsed / 2 ** 20, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

if (process.argv.includes('--memory')) {
  const dir = fileURLToPath(new URL('../artifacts/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = `${dir}search-${MEMORY_BOOKS}.json.gz`;
  writeFileSync(file, serializeIndex(buildIndex([...generatedBooks(MEMORY_BOOKS - KNOWN_BOOKS.length), ...KNOWN_BOOKS])));
  const rows = FUNCTIONS.map(({ name, memoryMb }) => {
    const child = spawnSync(process.execPath, [`--max-old-space-size=${heapLimitMb(memoryMb)}`, '--import', 'tsx', fileURLToPath(import.meta.url), '--load-snapshot', file], { encoding: 'utf8', maxBuffer: 1 << 20 });
    const out = child.status === 0 ? (JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { loadMs: number; searchMs: number; hits: number; heapMb: number; peakRssMb: number }) : null;
    const why = out ? '' : /heap out of memory|Allocation failed/i.test(child.stderr) ? 'ran out of memory' : `failed (${child.status}): ${child.stderr.slice(-200)}`;
    const built = spawnSync(process.execPath, [`--max-old-space-size=${heapLimitMb(memoryMb)}`, '--import', 'tsx', fileURLToPath(import.meta.url), '--build-index'], { encoding: 'utf8', maxBuffer: 1 << 20 });
    const build = built.status === 0 ? (JSON.parse(built.stdout.trim().split('\n').at(-1)!) as { buildMs: number; peakRssMb: number }) : null;
    const buildWhy = build ? '' : /heap out of memory|Allocation failed/i.test(built.stderr) ? 'ran out of memory' : `failed (${built.status})`;
    console.log(`  ${name} (${memoryMb} MiB): ${out ? `loaded in ${out.loadMs.toFixed(0)} ms, heap ${out.heapMb.toFixed(0)} MiB, peak RSS ${out.peakRssMb.toFixed(0)} MiB, a search ${out.searchMs.toFixed(1)} ms` : why}; build: ${build ? `${build.buildMs.toFixed(0)} ms, peak RSS ${build.peakRssMb.toFixed(0)} MiB` : buildWhy}`);
    return `| \`${name}\` | ${memoryMb} MiB (heap ${heapLimitMb(memoryMb)} MiB) | ${out ? `yes, in ${out.loadMs.toFixed(0)} ms` : `**no**: ${why}`} | ${out ? `${out.heapMb.toFixed(0)} MiB` : '-'} | ${out ? `${out.peakRssMb.toFixed(0)} MiB` : '-'} | ${out ? `${out.searchMs.toFixed(1)} ms (${out.hits} matches)` : '-'} | ${build ? `yes, in ${(build.buildMs / 1000).toFixed(1)} s, peak RSS ${build.peakRssMb.toFixed(0)} MiB` : `**no**: ${buildWhy}`} |`;
  });
  const table = [
    `| Function | Memory (heap limit) | Loads the ${MEMORY_BOOKS.toLocaleString('en-US')}-book snapshot | Heap after loading | Peak RSS | First search ("harri poter") | Builds it from the rows (\`buildSearchIndex\` has the same memory) |`,
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  const bench = new URL('../BENCHMARKS.md', import.meta.url);
  const text = readFileSync(bench, 'utf8');
  const section = `${MEMORY_MARK.start}\n### Search at ${MEMORY_BOOKS.toLocaleString('en-US')} books within a function's memory (issue 38)\n\nThe stored snapshot of a ${MEMORY_BOOKS.toLocaleString('en-US')}-book index (generated books, as above) loaded in a process with each function's heap limit (\`node --max-old-space-size\`, 75% of its memory as production's NODE_OPTIONS gives it, functions/src/lib/heap.ts), then one search (\`node --import tsx bench/search.ts --memory\`, ${new Date().toISOString().slice(0, 10)}). Search, suggestions and the admin's search are the \`search\` function's; \`api\` never loads the index.\n\n${table}\n${MEMORY_MARK.end}`;
  writeFileSync(bench, text.includes(MEMORY_MARK.start) ? text.replace(new RegExp(`${MEMORY_MARK.start}[\\s\\S]*${MEMORY_MARK.end}`), section) : `${text.trimEnd()}\n\n${section}\n`);
  process.exit(0);
}

if (process.argv.includes('--cold-start')) {
  const rows = [100, 10_000, 100_000].map(coldStart);
  const n = (x: number) => x.toLocaleString('en-US');
  const table = [
    '| Books | Firestore reads before | after | Build from rows (before) | Load snapshot (after) | First search after load | Snapshot raw / gzip | Heap of the loaded index |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${n(r.size)} | ${n(r.readsBefore)} | ${r.readsAfter} | ${r.buildMs.toFixed(0)} ms | ${r.loadMs.toFixed(0)} ms | ${r.firstQueryMs.toFixed(1)} ms | ${(r.rawBytes / 1e6).toFixed(2)} MB / ${(r.gzBytes / 1e6).toFixed(2)} MB | ${(globalThis as { gc?: unknown }).gc ? `${r.heapMb.toFixed(0)} MB` : 'run with --expose-gc'} |`),
  ].join('\n');
  console.log(table);
  const file = new URL('../BENCHMARKS.md', import.meta.url);
  const text = readFileSync(file, 'utf8');
  const section = `${MARK.start}\n${table}\n\n(\`node --expose-gc --import tsx bench/search.ts --cold-start\`, ${new Date().toISOString().slice(0, 10)}, in-process over generated books; 'before' also paid the Firestore reads' own time, which grows with the catalogue, and is not in its build column.)\n${MARK.end}`;
  writeFileSync(file, text.includes(MARK.start) ? text.replace(new RegExp(`${MARK.start}[\\s\\S]*${MARK.end}`), section) : `${text.trimEnd()}\n\n## 7. Search index at cold start (issue 22)\n\n${section}\n`);
  process.exit(0);
}

const small = measure(100);
const large = measure(10_000);
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ small, large }, null, 2));
} else {
  console.log(`index build: ${small.buildMs.toFixed(1)} ms at 100 books, ${large.buildMs.toFixed(0)} ms at 10,000 (heap ${large.heapMb.toFixed(1)} MB${(globalThis as { gc?: unknown }).gc ? '' : ', run with node --expose-gc for an exact figure'})`);
  console.log('query p50 (ms)      100 books   10,000 books   ratio   matches at 10,000');
  for (const q of QUERIES) {
    const a = small.p50[q]!;
    const b = large.p50[q]!;
    console.log(`${q.padEnd(18)} ${a.toFixed(3).padStart(10)} ${b.toFixed(3).padStart(14)} ${(b / a).toFixed(1).padStart(7)}x ${String(large.matches[q]).padStart(8)}`);
  }
}
