// Search index cost at 100 and 10,000 books, in-process (no emulator): build time, heap held by
// the index, and the p50 of typical shopper queries. Run: npx tsx bench/search.ts [--json]
// `--cold-start` instead measures an instance's cold start at 100, 10,000 and 100,000 books, before
// (read the catalogue, build) and after (load the stored snapshot, decision 018), and writes that
// table into BENCHMARKS.md. Run it with node --expose-gc for exact heap figures:
//   node --expose-gc --import tsx bench/search.ts --cold-start
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { generatedBooks, KNOWN_BOOKS } from '../functions/src/books/catalog-fixtures';
import { buildIndex, loadIndex, searchBooks, serializeIndex } from '../functions/src/books/search-index';

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
