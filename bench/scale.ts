import type { BookInput } from '@bookstore/contract';
import { CATEGORIES } from '@bookstore/contract';
import { adminDb } from '../scripts/lib/admin-sdk';
import { writeBooks } from '../scripts/lib/seed';
import { HOME_LIST } from './api';
import { load } from './load';

// Reseeds the (throwaway) suite with 100, 1,000 and 10,000 books and 10,000 orders, and measures
// what the home page asks for and what the dashboard's stats cost, per catalogue size. Latency is
// measured on functions-framework (as production serves the function, so the Firestore emulator's
// share is not hidden under the Functions emulator's); document reads are counted by the function
// in the Functions emulator (X-Firestore-Reads), reached through Hosting.

export interface ScaleRow {
  books: number;
  orders: number;
  homeApiBytes: number;
  homeListP50: number;
  homeListP99: number;
  /** The same request through Hosting and the Functions emulator. */
  homeListEmulatorP50: number;
  /** The home list's query straight to the Firestore emulator with firebase-admin: no function. */
  homeQueryDirectP50: number;
  homeListReads: number;
  adminP50: number;
  adminP99: number;
  adminReads: number;
  fullListReads: number;
}

export interface ScaleTargets {
  /** functions-framework serving the built function. */
  production: string;
  /** Hosting in front of the Functions emulator. */
  emulator: string;
}

async function deleteAll(collection: string): Promise<void> {
  const db = adminDb();
  for (;;) {
    const snap = await db.collection(collection).limit(400).get();
    if (snap.empty) return;
    const batch = db.batch();
    snap.docs.forEach((d) => batch.delete(d.ref));
    await batch.commit();
  }
}

function syntheticBooks(n: number): BookInput[] {
  return Array.from({ length: n }, (_, i) => ({
    title: `Benchmark Volume ${i + 1}`,
    author: i % 3 ? `Author ${i % 97}` : undefined,
    description: `A generated book for the scale benchmark, number ${i + 1}, long enough to be truncated on the card.`,
    category: CATEGORIES[i % CATEGORIES.length]!,
    trending: i % 4 === 0,
    isbn: undefined,
    stock: 10 + (i % 20),
    coverImage: `book-${(i % 23) + 1}`,
    oldPrice: 30,
    newPrice: 10 + (i % 2000) / 100,
  }));
}

/** 10,000 orders spread over the last 12 months, with the counters the order path keeps. */
async function writeOrders(n: number): Promise<void> {
  const db = adminDb();
  const months = new Map<string, { totalOrders: number; totalSalesCents: number }>();
  for (let start = 0; start < n; start += 400) {
    const batch = db.batch();
    for (let i = start; i < Math.min(n, start + 400); i++) {
      const created = new Date(Date.now() - (i % 360) * 86_400_000);
      const month = created.toISOString().slice(0, 7);
      const cents = 1999 + (i % 500);
      const m = months.get(month) ?? { totalOrders: 0, totalSalesCents: 0 };
      m.totalOrders += 1;
      m.totalSalesCents += cents;
      months.set(month, m);
      batch.set(db.collection('orders').doc(), {
        uid: `bench-${i % 20}`, name: 'Bench', email: `bench${i % 20}@example.com`, phone: '5550000000',
        address: { street: '1 Main', city: 'X', country: 'Y', state: 'Z', zipcode: '1' },
        productIDs: ['bench'], totalCents: cents, status: 'pending', createdAt: created.toISOString(),
      });
    }
    await batch.commit();
  }
  const totals = [...months.values()].reduce((a, m) => ({ totalOrders: a.totalOrders + m.totalOrders, totalSalesCents: a.totalSalesCents + m.totalSalesCents }), { totalOrders: 0, totalSalesCents: 0 });
  const batch = db.batch();
  batch.set(db.collection('stats').doc('totals'), totals);
  for (const [month, m] of months) batch.set(db.collection('stats').doc(`month-${month}`), { month, ...m });
  await batch.commit();
}


/** Median time of the home list's Firestore query sent straight to the emulator. */
async function directQueryP50(limit: number): Promise<number> {
  const query = adminDb().collection('books').orderBy('createdAt', 'desc').limit(limit);
  const times: number[] = [];
  for (let i = 0; i < 45; i++) {
    const start = performance.now();
    await query.get();
    if (i >= 5) times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return Number(times[Math.floor(times.length / 2)]!.toFixed(2));
}

async function reads(url: string, headers: Record<string, string> = {}): Promise<{ reads: number; bytes: number }> {
  const res = await fetch(url, { headers });
  const body = await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${Buffer.from(body).toString().slice(0, 200)}`);
  const header = res.headers.get('x-firestore-reads');
  if (header === null) throw new Error(`${url} sent no X-Firestore-Reads header (only the Functions emulator counts reads)`);
  return { reads: Number(header), bytes: body.byteLength };
}

export async function measureScale(at: ScaleTargets, adminToken: string, sizes: number[], seconds: number, log = console.log): Promise<ScaleRow[]> {
  const orders = 10_000;
  log(`  scale: writing ${orders.toLocaleString('en')} orders...`);
  await deleteAll('orders');
  await deleteAll('stats');
  await writeOrders(orders);
  const rows: ScaleRow[] = [];
  const auth = { Authorization: `Bearer ${adminToken}` };
  for (const n of sizes) {
    log(`  scale: reseeding ${n.toLocaleString('en')} books...`);
    await deleteAll('books');
    await writeBooks(syntheticBooks(n));
    const list = await reads(`${at.emulator}${HOME_LIST}`);
    const admin = await reads(`${at.emulator}/api/admin`, auth);
    const full = await reads(`${at.emulator}/api/books`);
    await load({ name: 'warm-up', url: `${at.production}${HOME_LIST}` }, 1, 1);
    const listLoad = await load({ name: 'home list', url: `${at.production}${HOME_LIST}` }, 1, seconds);
    const adminLoad = await load({ name: 'admin', url: `${at.production}/api/admin`, headers: auth }, 1, seconds);
    const emulatorLoad = await load({ name: 'home list (emulator)', url: `${at.emulator}${HOME_LIST}` }, 1, seconds);
    const homeQueryDirectP50 = await directQueryP50(Number(new URLSearchParams(HOME_LIST.split('?')[1]).get('limit')));
    for (const r of [listLoad, adminLoad, emulatorLoad]) {
      if (r.errors + r.non2xx > 0) throw new Error(`scale at ${n} books: ${r.name} failed ${r.errors + r.non2xx} times: ${r.samples.join(' | ')}`);
    }
    const row: ScaleRow = {
      books: n, orders, homeApiBytes: list.bytes, homeListP50: listLoad.p50, homeListP99: listLoad.p99, homeListEmulatorP50: emulatorLoad.p50, homeQueryDirectP50,
      homeListReads: list.reads, adminP50: adminLoad.p50, adminP99: adminLoad.p99, adminReads: admin.reads, fullListReads: full.reads,
    };
    log(`  scale: ${n} books: home list p50 ${row.homeListP50} ms (${row.homeListReads} reads), stats p50 ${row.adminP50} ms (${row.adminReads} reads)`);
    rows.push(row);
  }
  return rows;
}
