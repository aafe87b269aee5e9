// Search index cost at 100 and 10,000 books, in-process (no emulator): build time, heap held by
// the index, and the p50 of typical shopper queries. Run: npx tsx bench/search.ts [--json]
import { performance } from 'node:perf_hooks';
import { generatedBooks, KNOWN_BOOKS } from '../functions/src/books/catalog-fixtures';
import { buildIndex, searchBooks } from '../functions/src/books/search-index';

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
