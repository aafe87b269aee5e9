import { validOrder } from '../functions/test/helpers';
import type { Shopper, StockedBook } from './fixtures';
import { load, type LoadResult, type LoadSpec } from './load';

// The API endpoints under load: the home page's book list, one book, an order and the dashboard's
// stats. The same specs run against functions-framework (as production serves the function) and
// through the Hosting and Functions emulators.

/** What the home page asks for (HOME_LIST_LIMIT in web/src/features/catalog/components/top-sellers.tsx). */
export const HOME_LIST = '/api/books?limit=16';

export interface ApiFixtures {
  admin: string;
  bookId: string;
  /** Absent when measuring a running shop: orders would write to its data. */
  orders?: { shoppers: Shopper[]; books: StockedBook[] };
}

export function apiSpecs(base: string, f: ApiFixtures): LoadSpec[] {
  const run = `${process.pid}-${Date.now()}`;
  const specs: LoadSpec[] = [
    { name: 'GET /api/books?limit=16', url: `${base}${HOME_LIST}` },
    { name: 'GET /api/books/:id', url: `${base}/api/books/${f.bookId}` },
  ];
  const orders = f.orders;
  if (orders) {
    specs.push({
      name: 'POST /api/orders',
      url: `${base}/api/orders`,
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      // Each order: the next shopper, the next book, a fresh Idempotency-Key.
      vary: (n) => {
        const shopper = orders.shoppers[n % orders.shoppers.length]!;
        return {
          headers: { Authorization: `Bearer ${shopper.token}`, 'Idempotency-Key': `bench-${run}-${n}` },
          body: JSON.stringify(validOrder(shopper.email, [orders.books[n % orders.books.length]!])),
        };
      },
    });
  }
  // One admin reads the dashboard: a hundred at once is not a case the shop has.
  specs.push({ name: 'GET /api/admin', url: `${base}/api/admin`, headers: { Authorization: `Bearer ${f.admin}` }, maxConnections: 20 });
  return specs;
}

/**
 * Waits until `url` answers fast again: requests a run abandoned at its end (and worker processes the
 * Functions emulator started for it) must not slow the next run down.
 */
async function settle(url: string, log: (line: string) => void): Promise<void> {
  const deadline = Date.now() + 60_000;
  let fast = 0;
  while (fast < 3 && Date.now() < deadline) {
    const start = performance.now();
    const ok = await fetch(url).then((r) => r.ok, () => false);
    fast = ok && performance.now() - start < 250 ? fast + 1 : 0;
    if (fast === 0) await new Promise((r) => setTimeout(r, 250));
  }
  if (fast < 3) log(`  (${url} still slow after 60 s; measuring anyway)`);
}

/** Every spec at every concurrency, each row after an unrecorded warm-up at its own concurrency. */
export async function measureApi(base: string, specs: LoadSpec[], connections: number[], seconds: number, warmupSeconds: number, log = console.log): Promise<LoadResult[]> {
  const rows: LoadResult[] = [];
  for (const c of connections) {
    // At each new concurrency, first let the server grow to it (the Functions emulator starts a
    // worker process per concurrent request), so no row pays for that.
    await load({ name: 'warm-up', url: `${base}/api/health` }, c, warmupSeconds * 3);
    for (const spec of specs.filter((s) => c <= (s.maxConnections ?? Infinity))) {
      await settle(`${base}/api/health`, log);
      await load(spec, c, warmupSeconds);
      await settle(`${base}/api/health`, log);
      const row = await load(spec, c, seconds);
      log(`  ${spec.name} x${c}: ${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.requests} answers, ${row.errors + row.non2xx} failed`);
      rows.push(row);
    }
  }
  return rows;
}

export const failures = (r: LoadResult) => r.errors + r.non2xx;
