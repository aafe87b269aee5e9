import type { BookFields, OrderEvent, OrderStatus } from '@bookstore/contract';
import { CATEGORIES, ORDER_STATUSES } from '@bookstore/contract';
import { bumpCatalogVersion } from '../functions/src/books/catalog-version';
import { generatedBooks, KNOWN_BOOKS } from '../functions/src/books/catalog-fixtures';
import { COUNTER_SHARDS, COUNTERS_COLLECTION, counterShardId, recount } from '../functions/src/counters/counters';
import type { OrderDoc } from '../functions/src/orders/orders.repo';
import { adminDb, commitInBatches } from '../scripts/lib/admin-sdk';
import { signUpCustomer, type Customer } from '../scripts/lib/fixtures';
import { writeBooks } from '../scripts/lib/seed';
import { HOME_LIST } from './api';
import { load } from './load';

// Reseeds the (throwaway) suite with 100, 1,000 and 10,000 books and 10,000 orders (in today's
// shape, with the sharded counters), and measures, per catalogue size, what each page of the shop
// asks for: bytes, document reads and p50. The order desk is measured at 100 and at 10,000 orders.
// Latency of API requests is measured on functions-framework (as production serves the function, so
// the Firestore emulator's share is not hidden under the Functions emulator's); book pages, which
// another function serves, through Hosting. Document reads are counted by the functions in the
// Functions emulator (X-Firestore-Reads), reached through Hosting.

/** One request of one page of the shop at one catalogue size. */
export interface EndpointCost {
  name: string;
  /** The request, relative to the shop (a cursor shortened). */
  request: string;
  bytes: number;
  reads: number;
  p50: number;
  /** Where the p50 was measured. */
  servedBy: 'functions-framework' | 'Hosting + Functions emulator';
}

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
  /** How many of the orders are the measured customer's (absent in older results). */
  customerOrders?: number;
  /** Browse pages 1 and 10, a search, a book page, Manage Books, the customer's orders (absent in older results). */
  endpoints?: EndpointCost[];
}

/** The admin's order desk, first page (GET /api/admin/orders), at a number of orders. */
export interface DeskRow {
  orders: number;
  books: number;
  bytes: number;
  reads: number;
  p50: number;
  p99: number;
  /** The desk's query alone, straight to the emulator (absent in older results). */
  directQueryP50?: number;
}

export interface ScaleResults {
  rows: ScaleRow[];
  desk: DeskRow[];
}

export interface ScaleTargets {
  /** functions-framework serving the built function. */
  production: string;
  /** Hosting in front of the Functions emulator. */
  emulator: string;
}

/** A misspelt title of one of KNOWN_BOOKS, present at every size ("Harry Potter and the Philosopher's Stone"). */
const SCALE_SEARCH = 'harri poter';
const BROWSE_FIRST = '/api/books?sort=newest&limit=24';
/** The customer's share of the seeded orders: one in CUSTOMER_EVERY. */
const CUSTOMER_EVERY = 20;

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

/** A catalogue with a shop's vocabulary (the search tests' generator) and the books searched for. */
function syntheticBooks(n: number): BookFields[] {
  const rows = [...generatedBooks(n - KNOWN_BOOKS.length), ...KNOWN_BOOKS];
  return rows.map((b, i) => ({
    title: b.title,
    author: b.author,
    description: b.description.slice(0, 400),
    category: CATEGORIES.includes(b.category as (typeof CATEGORIES)[number]) ? (b.category as (typeof CATEGORIES)[number]) : CATEGORIES[i % CATEGORIES.length]!,
    trending: i % 4 === 0,
    stock: i % 50 === 0 ? 0 : 10 + (i % 20),
    coverImage: b.coverImage,
    oldPrice: 30,
    newPrice: b.priceCents / 100,
  }));
}

// --- Orders in today's shape, with the sharded counters -------------------------------------------

// Delivered orders' paths (a pickup order's statuses need its delivery fields: not benched here).
const PATHS: Partial<Record<OrderStatus, OrderStatus[]>> = {
  pending: ['pending'],
  confirmed: ['pending', 'confirmed'],
  shipped: ['pending', 'confirmed', 'shipped'],
  delivered: ['pending', 'confirmed', 'shipped', 'delivered'],
  cancelled: ['pending', 'cancelled'],
  refused: ['pending', 'confirmed', 'shipped', 'refused'],
};

const BENCH_STATUSES = ORDER_STATUSES.filter((s) => PATHS[s]);

function benchOrder(i: number, customer: Customer): OrderDoc {
  const created = new Date(Date.now() - (i % 360) * 86_400_000 - i * 1000).toISOString();
  const status = BENCH_STATUSES[i % BENCH_STATUSES.length]!;
  const mine = i % CUSTOMER_EVERY === 0;
  const uid = mine ? customer.uid : `bench-${i % 50}`;
  const items = Array.from({ length: 1 + (i % 3) }, (_, k) => ({
    bookId: `bench-book-${(i + k) % 500}`,
    title: `Bench line ${(i + k) % 500}`,
    unitPriceCents: 999 + ((i + k) % 500),
    coverImage: `book-${((i + k) % 23) + 1}`,
  }));
  const path = PATHS[status]!;
  const events: OrderEvent[] = path.slice(1).map((to, k) => ({
    from: path[k]!,
    to,
    by: to === 'cancelled' ? { kind: 'customer', id: uid } : { kind: 'admin', id: 'admin' },
    at: new Date(Date.parse(created) + (k + 1) * 3_600_000).toISOString(),
  }));
  return {
    uid,
    name: mine ? 'Scale Customer' : 'Bench',
    email: mine ? customer.email.toLowerCase() : `bench${i % 50}@example.com`,
    phone: '5550000000',
    address: { street: '1 Main St', city: 'Springfield', country: 'US', state: 'IL', zipcode: '62701' },
    productIDs: items.map((l) => l.bookId),
    items,
    totalCents: items.reduce((sum, l) => sum + l.unitPriceCents, 0),
    status,
    events,
    createdAt: created,
    updatedAt: events[events.length - 1]?.at ?? created,
  };
}

/** Adds orders number `from` to `to` - 1, then rewrites the counters as a recount of every order. */
async function writeOrders(from: number, to: number, customer: Customer, all: OrderDoc[]): Promise<void> {
  const db = adminDb();
  const docs = Array.from({ length: to - from }, (_, k) => benchOrder(from + k, customer));
  all.push(...docs);
  await commitInBatches(docs.map((doc) => (batch) => batch.set(db.collection('orders').doc(), doc)));
  const batch = db.batch();
  batch.set(db.collection(COUNTERS_COLLECTION).doc(counterShardId(0)), recount(all));
  for (let shard = 1; shard < COUNTER_SHARDS; shard++) batch.delete(db.collection(COUNTERS_COLLECTION).doc(counterShardId(shard)));
  await batch.commit();
}

/** The newest `limit` documents of a collection, asked straight of the emulator: its own share of a page's p50. */
async function directQueryP50(collection: 'books' | 'orders', limit: number): Promise<number> {
  const query = adminDb().collection(collection).orderBy('createdAt', 'desc').limit(limit);
  const times: number[] = [];
  for (let i = 0; i < 45; i++) {
    const start = performance.now();
    await query.get();
    if (i >= 5) times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return Number(times[Math.floor(times.length / 2)]!.toFixed(2));
}

interface Answer {
  reads: number;
  bytes: number;
  text: string;
}

async function fetchCounted(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, { headers });
  const body = await res.arrayBuffer();
  const text = Buffer.from(body).toString();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${text.slice(0, 200)}`);
  const header = res.headers.get('x-firestore-reads');
  if (header === null) throw new Error(`${url} sent no X-Firestore-Reads header (only the Functions emulator counts reads)`);
  return { reads: Number(header), bytes: body.byteLength, text };
}

/** The median of three answers' reads and bytes: one worker of the Functions emulator still cold cannot set the figure. */
async function reads(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const answers = [await fetchCounted(url, headers), await fetchCounted(url, headers), await fetchCounted(url, headers)];
  const mid = <K extends 'reads' | 'bytes'>(k: K) => answers.map((a) => a[k]).sort((a, b) => a - b)[1]!;
  return { reads: mid('reads'), bytes: mid('bytes'), text: answers[0]!.text };
}

/** p50 and p99 at one connection after a one-second warm-up; any failed answer stops the bench. */
async function latency(name: string, url: string, headers: Record<string, string> | undefined, seconds: number): Promise<{ p50: number; p99: number }> {
  await load({ name: 'warm-up', url, headers }, 1, 1);
  const r = await load({ name, url, headers }, 1, seconds);
  if (r.errors + r.non2xx > 0 || r.requests === 0) throw new Error(`scale: ${name} failed ${r.errors + r.non2xx} of ${r.requests}: ${r.samples.join(' | ')}`);
  return { p50: r.p50, p99: r.p99 };
}

/** Warms every worker the Functions emulator holds (each keeps its own search index) and functions-framework. */
async function warm(urls: string[]): Promise<void> {
  for (const url of urls) {
    await load({ name: 'warm-up', url }, 4, 2);
    await fetch(url).then((r) => r.arrayBuffer());
  }
}

const shortCursor = (url: string) => url.replace(/cursor=[^&]+/, 'cursor=<page 9 nextCursor>');

async function measureDesk(at: ScaleTargets, auth: Record<string, string>, orders: number, books: number, seconds: number): Promise<DeskRow> {
  const path = '/api/admin/orders';
  const cost = await reads(`${at.emulator}${path}`, auth);
  const { p50, p99 } = await latency(`desk at ${orders} orders`, `${at.production}${path}`, auth, seconds);
  return { orders, books, bytes: cost.bytes, reads: cost.reads, p50, p99, directQueryP50: await directQueryP50('orders', 26) };
}

export async function measureScale(at: ScaleTargets, adminToken: string, sizes: number[], seconds: number, log = console.log): Promise<ScaleResults> {
  const auth = { Authorization: `Bearer ${adminToken}` };
  const customer = await signUpCustomer('bench-scale');
  const customerAuth = { Authorization: `Bearer ${customer.token}` };
  log(`  scale: customer ${customer.email} signed up (email verified) for the orders page`);
  await deleteAll('orders');
  await deleteAll('stats');
  const all: OrderDoc[] = [];
  const desk: DeskRow[] = [];
  const books = (await adminDb().collection('books').count().get()).data().count;
  for (const target of [100, 10_000]) {
    log(`  scale: orders ${all.length.toLocaleString('en')} -> ${target.toLocaleString('en')}...`);
    await writeOrders(all.length, target, customer, all);
    const row = await measureDesk(at, auth, target, books, seconds);
    log(`  scale: desk at ${target} orders: ${row.reads} reads, ${row.bytes} bytes, p50 ${row.p50} ms (the query alone, straight to the emulator: ${row.directQueryP50} ms)`);
    desk.push(row);
  }
  const orders = all.length;

  const rows: ScaleRow[] = [];
  for (const n of sizes) {
    log(`  scale: reseeding ${n.toLocaleString('en')} books...`);
    await deleteAll('books');
    await writeBooks(syntheticBooks(n));
    const bump = adminDb().batch(); // search indexes compare this version before answering, so they rebuild
    bumpCatalogVersion(bump);
    await bump.commit();
    await new Promise((r) => setTimeout(r, 1500)); // instances re-read the catalogue version at most once a second
    const search = `/api/books/search?q=${encodeURIComponent(SCALE_SEARCH)}`;
    await warm([`${at.emulator}${search}`, `${at.production}${search}`]);

    // Browse: page 1, then follow nextCursor nine times; the tenth page is measured.
    const browseFirst = await reads(`${at.emulator}${BROWSE_FIRST}`);
    let page = JSON.parse(browseFirst.text) as { books: { _id: string }[]; nextCursor: string | null };
    const bookId = page.books[0]!._id;
    // A catalogue of fewer than 10 pages (100 books: 5) has no page 10: the row is left out there,
    // and its growth is taken from the smallest catalogue that has one.
    let tenth: string | undefined = BROWSE_FIRST;
    for (let i = 0; i < 9 && tenth; i++) {
      tenth = page.nextCursor ? `${BROWSE_FIRST}&cursor=${encodeURIComponent(page.nextCursor)}` : undefined;
      if (tenth) page = JSON.parse((await fetchCounted(`${at.emulator}${tenth}`)).text) as typeof page;
    }
    const specs: { name: string; path: string; headers?: Record<string, string>; hosting?: boolean }[] = [
      { name: 'Home list', path: HOME_LIST },
      { name: '/books page 1', path: BROWSE_FIRST },
      ...(tenth ? [{ name: '/books page 10', path: tenth }] : []),
      { name: `Search "${SCALE_SEARCH}"`, path: search },
      { name: 'Book page (HTML)', path: `/books/${bookId}`, hosting: true },
      { name: "Admin's Manage Books", path: '/api/admin/books', headers: auth },
      { name: "Customer's orders page", path: '/api/orders', headers: customerAuth },
    ];
    const endpoints: EndpointCost[] = [];
    for (const spec of specs) {
      const cost = await reads(`${at.emulator}${spec.path}`, spec.headers);
      const base = spec.hosting ? at.emulator : at.production;
      const { p50 } = await latency(`${spec.name} at ${n} books`, `${base}${spec.path}`, spec.headers, seconds);
      endpoints.push({ name: spec.name, request: `GET ${shortCursor(spec.path)}`, bytes: cost.bytes, reads: cost.reads, p50, servedBy: spec.hosting ? 'Hosting + Functions emulator' : 'functions-framework' });
    }

    const list = endpoints[0]!;
    const admin = await reads(`${at.emulator}/api/admin`, auth);
    const full = await reads(`${at.emulator}/api/books`);
    const listLoad = await latency('home list', `${at.production}${HOME_LIST}`, undefined, seconds);
    const adminLoad = await latency('admin', `${at.production}/api/admin`, auth, seconds);
    const emulatorLoad = await latency('home list (emulator)', `${at.emulator}${HOME_LIST}`, undefined, seconds);
    const homeQueryDirectP50 = await directQueryP50('books', Number(new URLSearchParams(HOME_LIST.split('?')[1]).get('limit')));
    const row: ScaleRow = {
      books: n, orders, homeApiBytes: list.bytes, homeListP50: listLoad.p50, homeListP99: listLoad.p99, homeListEmulatorP50: emulatorLoad.p50, homeQueryDirectP50,
      homeListReads: list.reads, adminP50: adminLoad.p50, adminP99: adminLoad.p99, adminReads: admin.reads, fullListReads: full.reads, endpoints,
      customerOrders: all.filter((o) => o.uid === customer.uid).length,
    };
    log(`  scale: ${n} books: ${endpoints.map((e) => `${e.name} ${e.reads} reads ${e.bytes} B p50 ${e.p50} ms`).join('; ')}`);
    rows.push(row);
  }
  return { rows, desk };
}
