import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { build } from '../scripts/lib/build';
import { ROOT, SHOP_URL } from '../scripts/lib/env';
import { adminLogin, orderBody } from '../scripts/lib/fixtures';
import { assertPortsFree } from '../scripts/lib/ports';
import { startSuite } from '../scripts/lib/suite';
import { describeFirestore } from './environment';
import { stockedBooks, verifiedShopper } from './fixtures';

// A flash sale on one discount code (issue 40): LANES shoppers check out at once, again and again
// for SECONDS, every order with the same code, through Hosting to the function on the emulator. Each
// order's transaction reads and writes the code's one document, so this measures what one hot
// document sustains; then the same with the code sharded (SHARDS allowance documents, decision 040).
// Writes its section of BENCHMARKS.md (kept by `npm run bench`'s report).
//   npx tsx bench/flash-sale.ts [lanes] [seconds] [shards]   (boots a throwaway suite unless one is running)

const SECTION = /\n## 8\. Flash sale on one discount code[\s\S]*?<!-- flash-sale:end -->\n?/;

interface Run {
  shards: number;
  lanes: number;
  seconds: number;
  placed: number;
  exhausted: number;
  busy: number;
  other: number;
  perSecond: number;
  p50: number;
  p95: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function measure(lanes: number, seconds: number, shards: number): Promise<Run> {
  const admin = await adminLogin(SHOP_URL);
  const code = `FLASH-${Date.now().toString(36).toUpperCase()}`;
  const made = await fetch(`${SHOP_URL}/api/admin/discounts`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin}` }, body: JSON.stringify({ code, amountOff: 1, maxRedemptions: 10_000_000, ...(shards > 1 ? { shards } : {}) }) });
  if (made.status !== 201) throw new Error(`creating the code: ${made.status}`);
  const shoppers = await Promise.all(Array.from({ length: lanes }, (_, i) => verifiedShopper(`flash-${i}`)));
  const books = await stockedBooks(lanes);
  const counts = { placed: 0, exhausted: 0, busy: 0, other: 0 };
  const latencies: number[] = [];
  const until = Date.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(shoppers.map(async (shopper, i) => {
    const book = books[i]!;
    const body = { ...orderBody(shopper.email, [book]), totalPrice: (book.newPrice - 1).toFixed(2), discountCode: code };
    while (Date.now() < until) {
      const t = performance.now();
      const res = await fetch(`${SHOP_URL}/api/orders`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${shopper.token}` }, body: JSON.stringify(body) });
      await res.arrayBuffer();
      latencies.push(performance.now() - t);
      if (res.status === 201) counts.placed += 1;
      else if (res.status === 409) counts.exhausted += 1;
      else if (res.status === 503) counts.busy += 1;
      else counts.other += 1;
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { shards, lanes, seconds: Math.round(elapsed), ...counts, perSecond: Number((counts.placed / elapsed).toFixed(1)), p50: Math.round(percentile(latencies, 50)), p95: Math.round(percentile(latencies, 95)) };
}

function section(runs: Run[], firestore: string): string {
  const rows = runs.map((r) => `| ${r.shards > 1 ? r.shards : '1 (the code\'s own document)'} | ${r.lanes} | ${r.seconds} | ${r.placed} | **${r.perSecond}** | ${r.p50} | ${r.p95} | ${r.busy} | ${r.exhausted + r.other} |`).join('\n');
  const best = Math.max(...runs.filter((r) => r.shards === 1).map((r) => r.perSecond));
  const sharded = runs.filter((r) => r.shards > 1);
  const most = runs.reduce((a, b) => (b.lanes > a.lanes ? b : a)).lanes;
  const at = (shards: number) => runs.find((r) => r.lanes === most && (shards > 1 ? r.shards > 1 : r.shards === 1))?.perSecond;
  return `
## 8. Flash sale on one discount code

Produced by \`npx tsx bench/flash-sale.ts\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (${cpus().length} cores, ${firestore}): shoppers
check out at once, again and again, every order with the same code, through Hosting to the function
(issue 40). Unsharded, each order's transaction reads and writes the code's one document
(\`discounts/<CODE>\`), beside the order's book, counters and account, so the figure is what one hot
document sustains here; sharded (\`shards: N\` when the code is made), it counts in one of N
allowance documents and only reads the code's own.

| Shards | Shoppers at once | Seconds | Orders placed | Checkouts / s | p50 ms | p95 ms | 503 (contended after 10 tries) | Other refusals |
|---|---|---|---|---|---|---|---|---|
${rows}

**Where to shard.** On this emulator one code sustained about ${best} checkouts a second. Production
Firestore documents sustain about **1 write a second** each (bursts are queued by transaction
retries; the 10 attempts above turn a long queue into 503 with Retry-After), so a code expected to
take more than about **1 checkout a second for minutes** (a flash sale announced to a list) must be
sharded: N documents \`discounts/<CODE>/shards/<k>\` each holding \`maxRedemptions / N\` uses, an order
picking a random shard with uses left and counting in it (exact per shard, so the total never passes
the limit), N about the expected checkouts per second. Built (decision 040, amended): create the code
with \`"shards": N\`.${sharded.length ? ` Here, at ${most} shoppers at once: ${at(1)} checkouts/s on one document, ${at(2)} with ${sharded[0]!.shards} shards (the rest of each order, its book, account and the shop's 4 counter shards, is the same in both).` : ''}
<!-- flash-sale:end -->
`;
}

const lanes = Number(process.argv[2] ?? 8);
const seconds = Number(process.argv[3] ?? 20);
const shardCount = Number(process.argv[4] ?? 8);
const running = await assertPortsFree().then(() => false, () => true);
let stop = async () => {};
let firestore = 'the running shop';
if (!running) {
  await build();
  const suite = await startSuite({ stateDir: null, log: (l) => console.log(`  ${l}`) });
  stop = () => suite.stop();
  firestore = describeFirestore(suite.firestore);
}
try {
  const runs: Run[] = [];
  for (const [n, shards] of [[1, 1], [Math.max(2, Math.floor(lanes / 2)), 1], [lanes, 1], [Math.max(2, Math.floor(lanes / 2)), shardCount], [lanes, shardCount]] as const) {
    const run = await measure(n, seconds, shards);
    console.log(`${shards} shard(s), ${n} at once for ${run.seconds} s: ${run.placed} placed (${run.perSecond}/s), p50 ${run.p50} ms, p95 ${run.p95} ms, 503: ${run.busy}, other: ${run.exhausted + run.other}`);
    runs.push(run);
  }
  const file = `${ROOT}BENCHMARKS.md`;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const next = SECTION.test(text) ? text.replace(SECTION, section(runs, firestore)) : `${text.trimEnd()}\n${section(runs, firestore)}`;
  writeFileSync(file, next);
  console.log('Wrote its section of BENCHMARKS.md');
} finally {
  await stop();
}
