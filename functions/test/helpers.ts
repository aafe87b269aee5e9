import { createHash } from 'node:crypto';
import { getApps, initializeApp } from 'firebase-admin/app';
import { DocumentReference, getFirestore, type Timestamp } from 'firebase-admin/firestore';
import { getStorage } from 'firebase-admin/storage';
import { INBOX_URL, SHOP_URL } from '../../scripts/lib/env';
import { derivedFields } from '../src/books/book-doc';
import { adminLogin, orderBody, signUpCustomer, verifyEmail } from '../../scripts/lib/fixtures';

// Helpers for API tests: HTTP through Hosting to the real function (or, in the `inproc` project,
// straight to the function's handler served in the test process: inproc-setup.ts), and
// firebase-admin straight to the emulators to check what was (or was not) written.

/** Where `http()` sends requests: Hosting, unless inproc-setup.ts points it at the in-process function. */
export let BASE = SHOP_URL;
export function setBase(url: string): void {
  BASE = url;
}
/** The current BASE, for requests `http()` cannot make (raw, slow bodies). */
export const base = (): string => BASE;
const app = () => getApps()[0] ?? initializeApp({ projectId: 'demo-bookstore' });
/** The database the function under test uses: the default, or the `inproc` lane's own (FIRESTORE_DATABASE_ID). */
export const db = () => {
  const id = process.env.FIRESTORE_DATABASE_ID;
  return id ? getFirestore(app(), id) : getFirestore(app());
};
export const bucket = () => getStorage(app()).bucket(process.env.STORAGE_BUCKET || 'demo-bookstore.appspot.com');

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export async function http<T = any>(path: string, init: RequestInit & { json?: unknown; token?: string | null; busyRetries?: number } = {}): Promise<Reply<T>> {
  const headers = new Headers(init.headers);
  if (init.json !== undefined) headers.set('Content-Type', 'application/json');
  if (init.token) headers.set('Authorization', `Bearer ${init.token}`);
  // As the shop's own client does (web/src/lib/api-client.ts): a 503 BUSY wrote nothing, so the same
  // request goes again after its Retry-After. Racing tests read the real answers, however busy the
  // machine; `busyRetries: 0` shows the BUSY itself.
  for (let attempt = 0; ; attempt += 1) {
    const res = await fetch(`${BASE}${path}`, {
      ...init,
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: leave the text, tests assert on it */
    }
    if (res.status === 503 && (body as { code?: unknown } | undefined)?.code === 'BUSY' && attempt < (init.busyRetries ?? 5)) {
      await new Promise((r) => setTimeout(r, 1000 + Math.random() * 500));
      continue;
    }
    if (path === '/api/books/create-book' && res.status === 201) createdBooks.add((body as { book: { _id: string } }).book._id);
    return { status: res.status, body: body as T, headers: res.headers };
  }
}

/**
 * Every book a test file made through POST /api/books/create-book: api-setup.ts deletes them after
 * the file (through the API, so counters and the search index follow). The browser tests run on
 * the same database afterwards and list the newest books; a test's sold-out or oddly named book
 * must not become the shop's first card.
 */
export const createdBooks = new Set<string>();

let cachedAdmin: { token: string; at: number } | undefined;
/**
 * The demo owner's token. A sign-in is a proof for sensitive routes for 5 minutes (issue 36), so a
 * file that runs longer gets a fresh sign-in after 4.
 */
export async function adminToken(): Promise<string> {
  if (!cachedAdmin || Date.now() - cachedAdmin.at > 4 * 60_000) cachedAdmin = { token: await adminLogin(BASE), at: Date.now() };
  return cachedAdmin.token;
}

/** A staff member of the test's own, made by the owner (`ownerToken`), then signed in: their token. Throws unless made (201). */
export async function staffToken(ownerToken: string, member: { username: string; displayName: string; role: string; password: string }): Promise<string> {
  const created = await http('/api/admin/staff', { method: 'POST', token: ownerToken, json: member });
  if (created.status !== 201) throw new Error(`staff ${member.username} not made: ${created.status} ${JSON.stringify(created.body)}`);
  return (await http('/api/auth/admin', { method: 'POST', json: { username: member.username, password: member.password } })).body.token;
}

/**
 * Forgets the public sign-up limits (rateLimits). Locally every client is one address (the Hosting
 * emulator reports none: functions/src/admin/client-address.ts hostingClientAddress), so the tests,
 * which all share it, start each case from an empty budget, and leave one for the browser tests.
 */
export async function clearSignUpLimits(keep: string[] = []): Promise<void> {
  const snap = await db().collection('rateLimits').get();
  await Promise.all(snap.docs.filter((d) => !keep.includes(d.id)).map((d) => d.ref.delete()));
}

/** Makes every proof `username` holds (sign-ins, re-entered passwords) older than 5 minutes, as time would (issue 36). */
export async function ageProofs(username: string, ageMs = 6 * 60_000): Promise<void> {
  const ref = db().collection('admins').doc(username);
  const proofs = ((await ref.get()).data()?.proofs ?? {}) as Record<string, number>;
  await ref.update({ proofs: Object.fromEntries(Object.keys(proofs).map((key) => [key, Date.now() - ageMs])) });
}

/** A fresh, signed-in customer (scripts/lib/fixtures.ts): verified unless `verified: false`. */
export const newCustomer = (prefix = 'shopper', options: { verified?: boolean } = {}) => signUpCustomer(prefix, options);
export { verifyEmail };

/** Lets one test account hold more open orders than MAX_OPEN_ORDERS (tests that page through many). */
export async function allowOpenOrders(uid: string, max: number): Promise<void> {
  await db().collection('customers').doc(uid).set({ maxOpenOrders: max }, { merge: true });
}

export async function seededBooks(): Promise<any[]> {
  const res = await http('/api/books');
  return res.body;
}

/**
 * A digest of every document the shop writes (login attempt and lookup counters, and a sign-in's own
 * traces, aside) and every stored object. A write of any kind moves a document's update time, so the
 * documents are listed without their fields (`select()`: a tenth of the time of reading thousands of
 * orders, mails and audit events late in a run), except where a write is someone else's:
 * - `admins` in full, less `proofs`: a sign-in made inside the block (adminToken() signing in for
 *   the first time, or again after 4 minutes) writes its proof (issue 36); the request did not;
 * - `mail` by name: its `delivery` is the sendMail function's record, written on its own time after
 *   the request that queued the mail (decision 037); a rejected request must queue none;
 * - `audit` by name and action: a sign-in inside the block records itself (`staff.sign-in`).
 */
export async function stateDigest(): Promise<string> {
  const stamp = (time: Timestamp) => `${time.seconds}.${time.nanoseconds}`;
  const listed = ['books', 'orders', 'stats', 'customers', 'settings', 'stockAlerts', 'newsletter', 'mailSuppressions', 'wishlists', 'sales', 'saleReturns', 'salesDays', 'discounts', 'giftCards'];
  const [files, admins, mail, audit, ...snaps] = await Promise.all([
    bucket().getFiles({ prefix: '' }).then(([f]) => f as { name: string }[], () => []),
    db().collection('admins').get(),
    db().collection('mail').select().get(),
    db().collection('audit').select('action').get(),
    ...listed.map((name) => db().collection(name).select().get()),
  ]);
  const parts = [
    ...admins.docs.map((doc) => {
      const { proofs: _proofs, ...rest } = doc.data();
      return `admins/${doc.id}=${JSON.stringify(rest)}`;
    }),
    ...mail.docs.map((doc) => `mail/${doc.id}`),
    ...audit.docs.filter((doc) => doc.get('action') !== 'staff.sign-in').map((doc) => `audit/${doc.id}@${stamp(doc.updateTime)}`),
    ...snaps.flatMap((snap, i) => snap.docs.map((doc) => `${listed[i]}/${doc.id}@${stamp(doc.updateTime)}`)),
    // The search index's builder publishes snapshots on its own time after any earlier edit
    // (decision 044): not a change a request made.
    ...files.filter((f) => !f.name.startsWith('search-index/')).map((f) => `gs/${f.name}`),
  ];
  return createHash('sha256').update(parts.sort().join('\n')).digest('hex');
}

/** Runs `fn` and asserts that nothing the shop stores changed meanwhile. */
export async function expectUnchanged<T>(fn: () => Promise<T>): Promise<T> {
  const before = await stateDigest();
  const result = await fn();
  const after = await stateDigest();
  if (before !== after) throw new Error('Stored state changed during a rejected request');
  return result;
}

type Scope = FirebaseFirestore.DocumentReference | FirebaseFirestore.Query;

/**
 * What a request could have changed in a document: all of it, but a mail's `delivery`, which the
 * sendMail function writes on its own time (as stateDigest above; a CI run saw a purchase order's
 * mail go from PENDING to SUCCESS during the refused second send).
 */
function requestOwned(path: string, data: FirebaseFirestore.DocumentData | undefined): unknown {
  if (!data || !path.startsWith('mail/')) return data ?? null;
  const { delivery: _delivery, ...rest } = data;
  return rest;
}

/** A digest of the documents named: single documents and queries (e.g. a book's audit events). */
async function scopeDigest(scope: Scope[]): Promise<string> {
  const parts = await Promise.all(scope.map(async (item) => {
    if (item instanceof DocumentReference) {
      const snap = await item.get();
      return [`${item.path}=${JSON.stringify(requestOwned(item.path, snap.data()))}`];
    }
    const snap = await item.get();
    return snap.docs.map((doc) => `${doc.ref.path}=${JSON.stringify(requestOwned(doc.ref.path, doc.data()))}`).sort();
  }));
  return createHash('sha256').update(parts.flat().join('\n')).digest('hex');
}

/**
 * expectUnchanged for a file that runs beside others (docs/testing.md): other files write meanwhile,
 * so only what this request could touch is compared: the documents and queries in `scope`. The whole
 * database's version runs in the serial files (hostile.serial.api.test.ts).
 */
export async function expectUnchangedIn<T>(scope: Scope[], fn: () => Promise<T>): Promise<T> {
  const before = await scopeDigest(scope);
  const result = await fn();
  const after = await scopeDigest(scope);
  if (before !== after) throw new Error('Stored state changed during a rejected request');
  return result;
}

/** The suite runs on the official Firestore emulator (real transactions), not the npm stand-in. */
const kind = process.env.BOOKSTORE_FIRESTORE_KIND;
export const officialBackend = kind === 'cloud-sdk' || kind === 'firebase-tools';
/**
 * The npm stand-in (@firestore-emulator/server, only where no Java or jar exists) accepts
 * transactions but does not isolate them: concurrent read-then-write races cannot be tested on it.
 */
export const NEEDS_TRANSACTIONS = '[skipped: the npm Firestore stand-in does not isolate transactions; runs on the official emulator]';

export interface TestBook {
  _id: string;
  title: string;
  newPrice: number;
}

let bookSeq = 0;
/**
 * Books of the test's own, written straight to Firestore with the given stock, dated in 2001 so
 * they sort after the catalogue; the tests then leave the seeded books' stock to the browser tests.
 */
/** A random valid ISBN-13 (978 prefix): a test's own books do not collide with anyone's. */
export function randomIsbn13(): string {
  const body = `978${Array.from({ length: 9 }, () => Math.floor(Math.random() * 10)).join('')}`;
  const sum = [...body].reduce((acc, digit, i) => acc + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return body + ((10 - (sum % 10)) % 10);
}

export async function makeBooks(count: number, stock: number, priceCents = 1250, options: { isbn?: boolean } = {}): Promise<(TestBook & { isbn?: string })[]> {
  const made: (TestBook & { isbn?: string })[] = [];
  const batch = db().batch(); // at most 500 writes: callers ask for a few hundred books at most
  for (let i = 0; i < count; i++) {
    const ref = db().collection('books').doc();
    const createdAt = new Date(Date.UTC(2001, 0, 1) + (bookSeq += 1) * 1000).toISOString();
    const title = `Stock test book ${bookSeq}`;
    const cents = priceCents + (i % 7) * 101;
    const isbn = options.isbn ? randomIsbn13() : undefined;
    // With the fields the book write path derives (browse's keys), as every stored book has them: a
    // book without them is listed by browse only after the next index build backfills them.
    batch.create(ref, {
      title, description: 'A book the API tests order.', category: 'fiction', trending: false, coverImage: 'book-1',
      oldPriceCents: cents, newPriceCents: cents, stock, createdAt, updatedAt: createdAt, ...(isbn ? { isbn } : {}),
      ...derivedFields({ title, newPriceCents: cents, createdAt, stock }, ref.id),
    });
    made.push({ _id: ref.id, title, newPrice: cents / 100, ...(isbn ? { isbn } : {}) });
  }
  await batch.commit();
  return made;
}

export async function removeBooks(list: { _id: string }[]): Promise<void> {
  for (let start = 0; start < list.length; start += 400) {
    const batch = db().batch();
    for (const book of list.slice(start, start + 400)) batch.delete(db().collection('books').doc(book._id));
    await batch.commit();
  }
}

export async function stockOf(id: string): Promise<number | undefined> {
  return (await db().collection('books').doc(id).get()).data()?.stock;
}

export { orderBody as validOrder };

export const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export function coverForm(bytes: Buffer, filename = 'cover.png', field = 'cover', type = 'image/png'): FormData {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), filename);
  return form;
}

/** A valid body for POST /api/books (dollars as the form sends them), with `over` applied. */
export const newBook = (over: Record<string, unknown> = {}) => ({
  title: 'A Test of Patience',
  description: 'A book written for the API tests.',
  category: 'Fiction',
  trending: true,
  oldPrice: 20,
  newPrice: '12.5',
  coverImage: 'book-3',
  ...over,
});

export interface InboxMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** What the developer's inbox (scripts/lib/dev-inbox.ts, the suite's SMTP server) received for `to`, newest first. */
export async function inboxFor(to: string): Promise<InboxMail[]> {
  const res = await fetch(`${INBOX_URL}/messages.json?to=${encodeURIComponent(to)}`);
  if (!res.ok) throw new Error(`The developer's inbox answered ${res.status}`);
  return (await res.json()) as InboxMail[];
}
