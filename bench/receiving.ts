import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { bookDoc } from '../functions/src/books/book-doc';
import { adminDb, commitInBatches } from '../scripts/lib/admin-sdk';
import { build } from '../scripts/lib/build';
import { ROOT, SHOP_URL } from '../scripts/lib/env';
import { adminLogin } from '../scripts/lib/fixtures';
import { assertPortsFree } from '../scripts/lib/ports';
import { startSuite } from '../scripts/lib/suite';
import { describeFirestore } from './environment';

// Receiving a delivery (issue 56): one POST /api/admin/receipts of N lines against a purchase order
// of the same N lines, through Hosting to the function on the emulator, for N = 10, 50 and 200.
// Reads: the function's own count (X-Firestore-Reads). Writes: every document whose update time is
// after the request began (the suite is this run's own, so nothing else writes meanwhile).
// Writes its section of BENCHMARKS.md (kept by `npm run bench`'s report).
//   npx tsx bench/receiving.ts        (boots a throwaway suite unless one is running)

const SECTION = /\n## 9\. Receiving a delivery[\s\S]*?<!-- receiving:end -->\n?/;
const SIZES = [10, 50, 200];

interface Run {
  lines: number;
  ms: number;
  reads: number;
  writes: number;
  byCollection: Record<string, number>;
}

/** An ISBN-13 with a valid check digit, 979-8 (no real book of the seed has one). */
function isbn13(n: number): string {
  const body = `9798${String(n).padStart(8, '0')}`;
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 ? 3 : 1), 0);
  return body + String((10 - (sum % 10)) % 10);
}

/** Documents of every top-level collection changed since `since` (the audit head included), by collection. */
async function changedSince(since: Date): Promise<Record<string, number>> {
  const changed: Record<string, number> = {};
  for (const collection of await adminDb().listCollections()) {
    const snap = await collection.get();
    const n = snap.docs.filter((d) => d.updateTime.toDate() >= since).length;
    if (n) changed[collection.id] = n;
  }
  return changed;
}

async function measure(admin: string, lines: number, offset: number): Promise<Run> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${SHOP_URL}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin}` }, body: JSON.stringify(body) });
    return { res, body: (await res.json()) as Record<string, any> };
  };
  const isbns = Array.from({ length: lines }, (_, i) => isbn13(offset + i));
  await commitInBatches(isbns.map((isbn, i) => (batch) => {
    const at = new Date(Date.UTC(2001, 0, 1) - (offset + i) * 60_000).toISOString();
    batch.set(adminDb().collection('books').doc(), bookDoc({ title: `Bench Delivery ${offset + i}`, description: 'A book for the receiving benchmark.', category: 'fiction', trending: false, coverImage: 'book-1', oldPrice: 20, newPrice: 15, stock: 2, isbn }, { createdAt: at, updatedAt: at }));
  }));
  const supplier = await post('/api/admin/suppliers', { name: `Bench Supplier ${offset}` });
  const po = await post('/api/admin/purchase-orders', { supplierId: supplier.body.supplier._id, lines: isbns.map((isbn) => ({ isbn, quantity: 3, unitCost: 6.5 })) });
  if (po.res.status !== 201) throw new Error(`the purchase order: ${po.res.status} ${JSON.stringify(po.body)}`);
  await post(`/api/admin/purchase-orders/${po.body.purchaseOrder._id}/send`, {});
  // Firestore's update times come from the emulator's clock: the same machine's.
  const since = new Date(Date.now() - 5);
  const started = performance.now();
  const receipt = await post('/api/admin/receipts', { receiptId: randomUUID(), purchaseOrderId: po.body.purchaseOrder._id, lines: isbns.map((isbn) => ({ isbn, quantity: 3, unitCost: 6.5 })) });
  const ms = Math.round(performance.now() - started);
  if (receipt.res.status !== 201) throw new Error(`the receipt: ${receipt.res.status} ${JSON.stringify(receipt.body)}`);
  const reads = Number(receipt.res.headers.get('x-firestore-reads') ?? NaN);
  // The mails and triggers the receipt starts (none here: no special orders or pre-orders wait) are not its writes.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const byCollection = await changedSince(since);
  return { lines, ms, reads, writes: Object.values(byCollection).reduce((a, b) => a + b, 0), byCollection };
}

function section(runs: Run[], firestore: string): string {
  const rows = runs.map((r) => `| ${r.lines} | ${r.ms} | ${r.reads} | ${r.writes} | ${Object.entries(r.byCollection).map(([c, n]) => `${c} ${n}`).join(', ')} |`).join('\n');
  const big = runs.at(-1)!;
  return `
## 9. Receiving a delivery

Produced by \`npx tsx bench/receiving.ts\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (${cpus().length} cores, ${firestore}): one
\`POST /api/admin/receipts\` of N lines (3 copies each, costed) against a sent purchase order of the
same N lines, through Hosting to the function (issue 56). It is one transaction: reads are the
function's own count (\`X-Firestore-Reads\`), writes every document changed meanwhile.

| Lines | ms | Reads | Writes | Writes by collection |
|---|---|---|---|---|
${rows}

A ${big.lines}-line delivery (the most one receipt may hold, \`MAX_PURCHASE_LINES\`) is one transaction of
${big.reads} reads and ${big.writes} writes, ${(big.writes / big.lines).toFixed(1)} a line: its book, its average cost and the supplier's last
receipt of it, plus the receipt, its costs, the purchase order and the audit event; a line for a
book with special orders or pre-orders waiting reads and writes those too. Its cost grows with the
delivery's lines only, never with the catalogue or the history. Production Firestore limits a
transaction by its request size (10 MiB) and time (270 s), no longer by a count of 500 writes
(cloud.google.com/firestore/quotas, checked 6 Dec 2026), so the largest receipt commits as one.
<!-- receiving:end -->
`;
}

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
  const admin = await adminLogin(SHOP_URL);
  const runs: Run[] = [];
  let offset = Date.now() % 1_000_000 * 10;
  for (const lines of SIZES) {
    const run = await measure(admin, lines, offset);
    offset += lines;
    console.log(`${lines} lines: ${run.ms} ms, ${run.reads} reads, ${run.writes} writes (${JSON.stringify(run.byCollection)})`);
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
