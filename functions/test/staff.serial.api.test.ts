import { toCsv, type Role } from '@bookstore/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/admin/totp';
import { adminToken, ageProofs, coverForm, db, expectUnchanged, http, newBook, newCustomer, PNG_1x1, type Reply, validOrder } from './helpers';

// Staff accounts (issue 24) over HTTP through Hosting: every admin route for every role (the
// matrix), one audit event per admin write and none on refusal, two-factor sign-in, revocation.

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const PASSWORD = 'margins-and-footnotes-9';
const ROLES: Role[] = ['owner', 'manager', 'bookseller'];

async function login(username: string, password = PASSWORD, otp?: string): Promise<Reply> {
  return http('/api/auth/admin', { method: 'POST', json: { username, password, ...(otp ? { otp } : {}) } });
}

async function tokenOf(username: string, password = PASSWORD, otp?: string): Promise<string> {
  const res = await login(username, password, otp);
  if (res.status !== 200) throw new Error(`sign-in of ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

let seq = 0;
/** A new staff member, created through the API by the demo owner. */
async function newStaff(role: Role, prefix = 'st'): Promise<string> {
  const username = `${prefix}-${role}-${RUN}-${(seq += 1)}`;
  const res = await http('/api/admin/staff', { method: 'POST', token: await adminToken(), json: { username, displayName: `Test ${role} ${seq}`, role, password: PASSWORD } });
  if (res.status !== 201) throw new Error(`creating ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return username;
}

const auditCount = async () => (await db().collection('audit').count().get()).data().count;
const auditOf = async (actor: string) =>
  (await db().collection('audit').where('actor', '==', actor).get()).docs.map((d) => d.data()).sort((a, b) => (b.seq ?? 0) - (a.seq ?? 0) || (a.at < b.at ? 1 : -1));

/** Waits out the last 2 s of a 30 s TOTP step, so a code computed now is still current when the server checks it. */
async function steadyClock(): Promise<void> {
  const into = Date.now() % 30_000;
  if (into > 28_000) await new Promise((r) => setTimeout(r, 30_000 - into + 200));
}
const code = (secret: string, steps = 0) => totpCode(secret, Date.now() + steps * 30_000);

let isbnSeq = 0;
/** ISBNs under 979-1, apart from import.serial.api.test's 979-8-<run> range (which counts the books in it). */
const madeIsbns: string[] = [];
function isbn(): string {
  const body = `9791${String(Date.now() % 1e6).padStart(6, '0')}${String((isbnSeq += 1) % 100).padStart(2, '0')}`.slice(0, 12);
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  const made = body + ((10 - (sum % 10)) % 10);
  madeIsbns.push(made);
  return made;
}

/** Books this file made, deleted after it: the browser tests share the database and list the newest. */
const madeBooks: string[] = [];

/** A book created through the API by the demo owner, with a title of its own; its full edit body, for PUT. */
async function aBook(over: Record<string, unknown> = {}) {
  const title = `Staff Matrix Book ${madeBooks.length + 1}`;
  const res = await http('/api/books/create-book', { method: 'POST', token: await adminToken(), json: newBook({ title, stock: 5, ...over }) });
  if (res.status !== 201) throw new Error(`book: ${res.status} ${JSON.stringify(res.body)}`);
  const b = res.body.book;
  madeBooks.push(b._id);
  const body = { title: b.title, description: b.description, category: b.category, trending: b.trending, coverImage: b.coverImage, oldPrice: b.oldPrice, newPrice: b.newPrice, stock: b.stock };
  return { id: b._id as string, body };
}

let shopper: Awaited<ReturnType<typeof newCustomer>>;
/** A pending order of one copy of a fresh book. */
async function anOrder(): Promise<{ id: string; email: string }> {
  const book = await aBook({ stock: 50 });
  const res = await http('/api/orders', { method: 'POST', token: shopper.token, json: validOrder(shopper.email, [{ _id: book.id, newPrice: 12.5 }]) });
  if (res.status !== 201) throw new Error(`order: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body._id, email: shopper.email };
}

beforeAll(async () => {
  shopper = await newCustomer('staff');
  await db().collection('customers').doc(shopper.uid).set({ maxOpenOrders: 500 }, { merge: true });
});

// ---- The matrix ---------------------------------------------------------------------------------

interface Route {
  name: string;
  allowed: Role[];
  /** The audit action an allowed call writes, or null for a read. */
  writes: string | null;
  status?: number;
  prepare?: (token: string) => Promise<any>;
  send: (token: string, ctx: any) => Promise<Reply>;
}

const json = (method: string, path: string, body?: unknown) => (token: string) => http(path, { method, token, ...(body !== undefined ? { json: body } : {}) });

const ROUTES: Route[] = [
  { name: 'GET /api/admin (reports)', allowed: ['owner', 'manager'], writes: null, send: json('GET', '/api/admin') },
  { name: 'GET /api/admin/books', allowed: ROLES, writes: null, send: json('GET', '/api/admin/books?limit=5') },
  { name: 'POST /api/books/create-book', allowed: ['owner', 'manager'], writes: 'book.create', status: 201, send: json('POST', '/api/books/create-book', newBook()) },
  {
    name: 'PUT /api/books/edit/:id (title)', allowed: ['owner', 'manager'], writes: 'book.edit', prepare: () => aBook(),
    send: (token, b) => http(`/api/books/edit/${b.id}`, { method: 'PUT', token, json: { ...b.body, title: 'A Retitled Book' } }),
  },
  {
    name: 'PUT /api/books/edit/:id (price)', allowed: ['owner', 'manager'], writes: 'book.price', prepare: () => aBook(),
    send: (token, b) => http(`/api/books/edit/${b.id}`, { method: 'PUT', token, json: { ...b.body, newPrice: 9.99 } }),
  },
  {
    name: 'PUT /api/books/edit/:id (stock only)', allowed: ROLES, writes: 'book.stock', prepare: () => aBook(),
    send: (token, b) => http(`/api/books/edit/${b.id}`, { method: 'PUT', token, json: { ...b.body, stock: 17 } }),
  },
  {
    name: 'PUT /api/books/edit/:id (stock and price)', allowed: ['owner', 'manager'], writes: 'book.edit', prepare: () => aBook(),
    send: (token, b) => http(`/api/books/edit/${b.id}`, { method: 'PUT', token, json: { ...b.body, stock: 3, newPrice: 1 } }),
  },
  { name: 'DELETE /api/books/:id', allowed: ['owner', 'manager'], writes: 'book.delete', prepare: () => aBook(), send: (token, b) => http(`/api/books/${b.id}`, { method: 'DELETE', token }) },
  {
    name: 'POST /api/books/cover', allowed: ['owner', 'manager'], writes: 'cover.upload', status: 201,
    // A different image each time (covers are content-addressed): a few bytes after the PNG's end.
    prepare: async () => Buffer.concat([PNG_1x1, Buffer.from(`${RUN}-${(seq += 1)}`)]),
    send: (token, bytes) => http('/api/books/cover', { method: 'POST', token, body: coverForm(bytes) }),
  },
  {
    name: 'POST /api/books/import', allowed: ['owner', 'manager'], writes: 'book.import',
    prepare: async () => toCsv([['title', 'description', 'category', 'oldPrice', 'newPrice', 'stock', 'isbn', 'coverImage'], [`Imported ${RUN} ${madeIsbns.length + 1}`, 'A row of the matrix.', 'fiction', '20', '12.50', '3', isbn(), 'book-2']]),
    send: (token, csv) => http('/api/books/import', { method: 'POST', token, body: csv, headers: { 'Content-Type': 'text/csv' } }),
  },
  // Issue 26: bulk changes (one audit event per book: one book here), covers by ISBN, the ISBN lookup (its permission only).
  { name: 'POST /api/admin/books/bulk (price)', allowed: ['owner', 'manager'], writes: 'book.price', prepare: () => aBook(), send: (token, b) => http('/api/admin/books/bulk', { method: 'POST', token, json: { action: 'price', ids: [b.id], newPrice: 3.5 } }) },
  { name: 'POST /api/admin/books/bulk (stock)', allowed: ROLES, writes: 'book.stock', prepare: () => aBook(), send: (token, b) => http('/api/admin/books/bulk', { method: 'POST', token, json: { action: 'stock', ids: [b.id], stock: 42 } }) },
  { name: 'POST /api/admin/books/bulk (delete)', allowed: ['owner', 'manager'], writes: 'book.delete', prepare: () => aBook(), send: (token, b) => http('/api/admin/books/bulk', { method: 'POST', token, json: { action: 'delete', ids: [b.id] } }) },
  {
    name: 'POST /api/books/cover?isbn=', allowed: ['owner', 'manager'], writes: 'book.edit', status: 201,
    prepare: async () => {
      const code = isbn();
      await aBook({ isbn: code });
      return { code, bytes: Buffer.concat([PNG_1x1, Buffer.from(`${RUN}-isbn-${(seq += 1)}`)]) };
    },
    send: (token, c) => http(`/api/books/cover?isbn=${c.code}`, { method: 'POST', token, body: coverForm(c.bytes) }),
  },
  { name: 'GET /api/admin/isbn/:isbn (a malformed ISBN)', allowed: ['owner', 'manager'], writes: null, status: 400, send: json('GET', '/api/admin/isbn/123') },
  { name: 'GET /api/admin/orders', allowed: ROLES, writes: null, send: json('GET', '/api/admin/orders?limit=5') },
  {
    name: 'POST /api/admin/orders/:id/status', allowed: ROLES, writes: 'order.status', prepare: () => anOrder(),
    send: (token, o) => http(`/api/admin/orders/${o.id}/status`, { method: 'POST', token, json: { status: 'confirmed' } }),
  },
  { name: 'GET /api/orders/:id (staff)', allowed: ROLES, writes: null, prepare: () => anOrder(), send: (token, o) => http(`/api/orders/${o.id}`, { token }) },
  { name: 'GET /api/orders/email/:email (staff)', allowed: ROLES, writes: null, prepare: async () => shopper.email, send: (token, email) => http(`/api/orders/email/${email}`, { token }) },
  {
    name: 'POST /api/orders/:id/cancel (staff)', allowed: ROLES, writes: 'order.status', prepare: () => anOrder(),
    send: (token, o) => http(`/api/orders/${o.id}/cancel`, { method: 'POST', token, json: { note: 'Out of print' } }),
  },
  { name: 'GET /api/admin/staff', allowed: ['owner'], writes: null, send: json('GET', '/api/admin/staff') },
  {
    name: 'POST /api/admin/staff', allowed: ['owner'], writes: 'staff.create', status: 201,
    send: (token) => http('/api/admin/staff', { method: 'POST', token, json: { username: `made-${RUN}-${(seq += 1)}`, displayName: 'Made', role: 'bookseller', password: PASSWORD } }),
  },
  {
    name: 'PATCH /api/admin/staff/:username', allowed: ['owner'], writes: 'staff.update', prepare: () => newStaff('bookseller', 'patch'),
    send: (token, u) => http(`/api/admin/staff/${u}`, { method: 'PATCH', token, json: { displayName: 'Renamed' } }),
  },
  { name: 'DELETE /api/admin/staff/:username', allowed: ['owner'], writes: 'staff.delete', prepare: () => newStaff('bookseller', 'del'), send: (token, u) => http(`/api/admin/staff/${u}`, { method: 'DELETE', token }) },
  { name: 'GET /api/admin/audit', allowed: ['owner', 'manager'], writes: null, send: json('GET', '/api/admin/audit?limit=5') },
  { name: 'GET /api/admin/settings', allowed: ['owner'], writes: null, send: json('GET', '/api/admin/settings') },
  { name: 'PUT /api/admin/settings', allowed: ['owner'], writes: 'settings.update', send: json('PUT', '/api/admin/settings', { requireTotp: false }) },
  { name: 'GET /api/admin/settings/fulfilment', allowed: ['owner', 'manager'], writes: null, send: json('GET', '/api/admin/settings/fulfilment') },
  {
    // The shop's own settings sent back unchanged: a save all the same, so one audit event.
    name: 'PUT /api/admin/settings/fulfilment', allowed: ['owner', 'manager'], writes: 'settings.update',
    prepare: async () => (await http('/api/admin/settings/fulfilment', { token: await adminToken() })).body.settings,
    send: (token, settings) => http('/api/admin/settings/fulfilment', { method: 'PUT', token, json: settings }),
  },
  { name: 'GET /api/admin/me', allowed: ROLES, writes: null, send: json('GET', '/api/admin/me') },
  { name: 'POST /api/admin/me/totp', allowed: ROLES, writes: 'totp.start', send: json('POST', '/api/admin/me/totp') },
  {
    name: 'POST /api/admin/me/totp/confirm', allowed: ROLES, writes: 'totp.enable',
    prepare: async (token) => {
      await steadyClock();
      const secret = (await http('/api/admin/me/totp', { method: 'POST', token })).body.secret as string;
      secrets.set(token, secret);
      return secret;
    },
    send: (token, secret) => http('/api/admin/me/totp/confirm', { method: 'POST', token, json: { otp: code(secret) } }),
  },
  {
    // Uses the secret confirmed just above (next step's code: the current one is spent).
    name: 'DELETE /api/admin/me/totp', allowed: ROLES, writes: 'totp.disable',
    prepare: async (token) => {
      await steadyClock();
      return secrets.get(token);
    },
    send: (token, secret) => http('/api/admin/me/totp', { method: 'DELETE', token, json: { otp: code(secret, 1) } }),
  },
  {
    name: 'POST /api/auth/admin/logout', allowed: ROLES, writes: 'staff.sign-out',
    send: (token) => http('/api/auth/admin/logout', { method: 'POST', token }),
  },
];
/** Each matrix account's TOTP secret from the confirm row, by token, for the row that turns it off. */
const secrets = new Map<string, string>();

describe('the role x route matrix', () => {
  const accounts = {} as Record<Role, string>;
  const tokens = {} as Record<Role, string>;
  const signedInAt = {} as Record<Role, number>;
  beforeAll(async () => {
    for (const role of ROLES) {
      accounts[role] = await newStaff(role, 'matrix');
      tokens[role] = await tokenOf(accounts[role]);
      signedInAt[role] = Date.now();
    }
  });

  for (const route of ROUTES) {
    for (const role of ROLES) {
      const allowed = route.allowed.includes(role);
      it(`${route.name} as ${role}: ${allowed ? route.status ?? 200 : 403}`, async () => {
        // A sign-in proves the person for 5 minutes (sensitive routes, issue 36: staff-hardening.serial.api.test.ts);
        // this matrix is about roles, so a long run's proofs are moved to now (as a reauth would).
        if (Date.now() - signedInAt[role] > 4 * 60_000) {
          await ageProofs(accounts[role], 0);
          signedInAt[role] = Date.now();
        }
        const token = tokens[role];
        const ctx = route.prepare ? await route.prepare(token) : undefined;
        if (!allowed) {
          const res = await expectUnchanged(() => route.send(token, ctx));
          expect(res.status).toBe(403);
          expect(res.body).toEqual({ message: 'Your role does not allow this', code: 'FORBIDDEN' });
          return;
        }
        const before = await auditCount();
        const res = await route.send(token, ctx);
        expect(res.status, JSON.stringify(res.body)).toBe(route.status ?? 200);
        const events = await auditOf(accounts[role]);
        // Exactly one event per write, by this person in this role; none for a read.
        expect(await auditCount()).toBe(before + (route.writes ? 1 : 0));
        if (route.writes) expect(events[0]).toMatchObject({ actor: accounts[role], role, action: route.writes });
        // The sign-out ended that token: the next routes (none after it) would need a new one.
        if (route.name.includes('logout')) tokens[role] = await tokenOf(accounts[role]);
      });
    }
  }
});

// ---- Audit events --------------------------------------------------------------------------------

describe('the audit log', () => {
  let manager: string;
  let managerToken: string;
  beforeAll(async () => {
    manager = await newStaff('manager', 'audit');
    managerToken = await tokenOf(manager);
  });

  it('records who repriced a book, in what role, with the changed fields only (cents)', async () => {
    const book = await aBook({ newPrice: 12.5, oldPrice: 20 });
    const res = await http(`/api/books/edit/${book.id}`, { method: 'PUT', token: managerToken, json: { ...book.body, newPrice: 8.75 } });
    expect(res.status).toBe(200);
    const page = await http(`/api/admin/audit?actor=${manager}&limit=1`, { token: await adminToken() });
    expect(page.status).toBe(200);
    const [event] = page.body.events;
    expect(event).toMatchObject({ actor: manager, role: 'manager', action: 'book.price', target: `books/${book.id}`, changes: { newPriceCents: { before: 1250, after: 875 } } });
    expect(Object.keys(event.changes)).toEqual(['newPriceCents']);
    expect(Date.parse(event.at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('customers read the role that moved their order, never the username; the audit log names the person (issue 25)', async () => {
    const bookseller = await newStaff('bookseller', 'desk');
    const order = await anOrder();
    const moved = await http(`/api/admin/orders/${order.id}/status`, { method: 'POST', token: await tokenOf(bookseller), json: { status: 'confirmed' } });
    expect(moved.status).toBe(200);
    const seen = await http(`/api/orders/${order.id}`, { token: shopper.token });
    expect(seen.body.events.at(-1).by).toEqual({ kind: 'admin', id: 'bookseller' });
    const stored = (await db().collection('orders').doc(order.id).get()).data()!; // what the customer's live page reads
    for (const text of [JSON.stringify(seen.body), JSON.stringify(stored)]) expect(text).not.toContain(bookseller);
    // An event written before this change, with a username, is answered without it.
    await db().collection('orders').doc(order.id).update({ events: [...stored.events, { ...stored.events.at(-1), by: { kind: 'admin', id: bookseller } }] });
    expect(JSON.stringify((await http(`/api/orders/${order.id}`, { token: shopper.token })).body)).not.toContain(bookseller);
    const audit = await http(`/api/admin/audit?actor=${bookseller}&limit=1`, { token: await adminToken() });
    expect(audit.body.events[0]).toMatchObject({ actor: bookseller, role: 'bookseller', action: 'order.status', target: `orders/${order.id}` });
  });

  it('pages newest first with a cursor and filters by actor and action', async () => {
    const book = await aBook();
    for (const stock of [1, 2, 3, 4, 5]) {
      expect((await http(`/api/books/edit/${book.id}`, { method: 'PUT', token: managerToken, json: { ...book.body, stock } })).status).toBe(200);
    }
    const owner = await adminToken();
    const first = await http(`/api/admin/audit?actor=${manager}&action=book.stock&limit=2`, { token: owner });
    expect(first.body.events.map((e: any) => e.changes.stock.after)).toEqual([5, 4]);
    const second = await http(`/api/admin/audit?actor=${manager}&action=book.stock&limit=2&cursor=${first.body.nextCursor}`, { token: owner });
    expect(second.body.events.map((e: any) => e.changes.stock.after)).toEqual([3, 2]);
    const third = await http(`/api/admin/audit?actor=${manager}&action=book.stock&limit=2&cursor=${second.body.nextCursor}`, { token: owner });
    expect(third.body.events.map((e: any) => e.changes.stock.after)).toEqual([1]);
    expect(third.body.nextCursor).toBeNull();
    const byAction = await http('/api/admin/audit?action=book.stock&limit=100', { token: managerToken });
    expect(byAction.status).toBe(200);
    expect(byAction.body.events.every((e: any) => e.action === 'book.stock')).toBe(true);
  });

  it('refuses bad filters and cursors with a 400 naming the field', async () => {
    const owner = await adminToken();
    for (const query of ['action=book.burn', 'cursor=not!valid', `cursor=${Buffer.from('{"x":1}').toString('base64url')}`, 'limit=0', 'colour=red']) {
      const res = await http(`/api/admin/audit?${query}`, { token: owner });
      expect(res.status, query).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('a refused or invalid write leaves no event and changes nothing (hostile)', async () => {
    const bookseller = await tokenOf(await newStaff('bookseller', 'hostile'));
    const book = await aBook({ stock: 4 });
    const order = await anOrder();
    const owner = await adminToken();
    const attempts: [string, () => Promise<Reply>, number][] = [
      // A stock change smuggling a price change: refused as a whole, the stock stays 4.
      ['stock + price as bookseller', () => http(`/api/books/edit/${book.id}`, { method: 'PUT', token: bookseller, json: { ...book.body, stock: 1, newPrice: 0.01 } }), 403],
      ['delete as bookseller', () => http(`/api/books/${book.id}`, { method: 'DELETE', token: bookseller }), 403],
      ['invalid book as owner', () => http(`/api/books/edit/${book.id}`, { method: 'PUT', token: owner, json: { ...book.body, newPrice: -1 } }), 400],
      ['missing book as owner', () => http('/api/books/edit/nope-nope', { method: 'PUT', token: owner, json: book.body }), 404],
      ['a common password', () => http('/api/admin/staff', { method: 'POST', token: owner, json: { username: `weak-${RUN}`, displayName: 'W', role: 'manager', password: 'password1234' } }), 400],
      ['a taken username', () => http('/api/admin/staff', { method: 'POST', token: owner, json: { username: 'admin', displayName: 'A', role: 'owner', password: PASSWORD } }), 409],
      ['an unknown role', () => http('/api/admin/staff', { method: 'POST', token: owner, json: { username: `r-${RUN}`, displayName: 'R', role: 'admin', password: PASSWORD } }), 400],
      ['an empty patch', () => http('/api/admin/staff/admin', { method: 'PATCH', token: owner, json: {} }), 400],
      ['patching no one', () => http(`/api/admin/staff/ghost-${RUN}`, { method: 'PATCH', token: owner, json: { displayName: 'X' } }), 404],
      ['an unknown status', () => http(`/api/admin/orders/${order.id}/status`, { method: 'POST', token: owner, json: { status: 'teleported' } }), 400],
      ['a transition the lifecycle forbids', () => http(`/api/admin/orders/${order.id}/status`, { method: 'POST', token: owner, json: { status: 'delivered' } }), 409],
      ['a dry-run import', () => http('/api/books/import?dryRun=1', { method: 'POST', token: owner, body: toCsv([['title', 'description', 'category', 'oldPrice', 'newPrice', 'isbn', 'coverImage'], ['T', 'D', 'fiction', '2', '1', isbn(), 'book-1']]), headers: { 'Content-Type': 'text/csv' } }), 200],
      ['settings with a string', () => http('/api/admin/settings', { method: 'PUT', token: owner, json: { requireTotp: 'yes' } }), 400],
      ['a wrong TOTP confirm', () => http('/api/admin/me/totp/confirm', { method: 'POST', token: bookseller, json: { otp: '12345' } }), 400],
    ];
    for (const [what, send, status] of attempts) {
      const res = await expectUnchanged(send);
      expect(res.status, what).toBe(status);
    }
    expect((await db().collection('books').doc(book.id).get()).data()?.stock).toBe(4);
  });

  it('staff passwords are never in the API or the log', async () => {
    const list = await http('/api/admin/staff', { token: await adminToken() });
    expect(list.status).toBe(200);
    const text = JSON.stringify(list.body) + JSON.stringify((await http('/api/admin/audit?limit=100', { token: await adminToken() })).body);
    expect(text).not.toMatch(/scrypt|passwordHash|totpSecret|totpPending/);
    expect(list.body.find((s: any) => s.username === 'admin')).toEqual({ username: 'admin', displayName: 'Demo Owner', role: 'owner', disabled: false, totpEnabled: false });
  });
});

// ---- Two-factor sign-in --------------------------------------------------------------------------

describe('two-factor sign-in (TOTP)', () => {
  it('enrols, then asks for a code at sign-in, refuses a reused code, and turns off with a fresh one', async () => {
    const username = await newStaff('manager', 'totp');
    const token = await tokenOf(username);
    const start = await http('/api/admin/me/totp', { method: 'POST', token });
    expect(start.status).toBe(200);
    const { secret, otpauthUrl } = start.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toBe(`otpauth://totp/Bookstore:${username}?secret=${secret}&issuer=Bookstore&algorithm=SHA1&digits=6&period=30`);
    // Not on until confirmed: sign-in needs no code yet.
    expect((await login(username)).status).toBe(200);
    await steadyClock();
    expect((await http('/api/admin/me/totp/confirm', { method: 'POST', token, json: { otp: code(secret, 5) } })).status).toBe(400);
    expect((await http('/api/admin/me/totp/confirm', { method: 'POST', token, json: { otp: code(secret, -1) } })).status).toBe(200);
    expect((await http('/api/admin/me', { token })).body).toMatchObject({ username, role: 'manager', totpEnabled: true });

    const without = await login(username);
    expect(without.status).toBe(401);
    expect(without.body).toEqual({ message: 'Enter the 6-digit code from your authenticator app', code: 'OTP_REQUIRED' });
    const wrongPassword = await login(username, 'not-the-password-1', code(secret));
    expect(wrongPassword.body).toEqual({ message: 'Invalid credentials' }); // no hint that the code was right
    const wrongCode = await login(username, PASSWORD, String((Number(code(secret)) + 1) % 1_000_000).padStart(6, '0'));
    expect(wrongCode.status).toBe(401);
    expect(wrongCode.body.code).toBe('OTP_REQUIRED');
    await steadyClock();
    const now = code(secret);
    const signedIn = await login(username, PASSWORD, now);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toEqual({ username, role: 'admin' }); // the answer keeps its shape
    const replay = await login(username, PASSWORD, now);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('OTP_REQUIRED');

    // Off: needs a current code not used before.
    const t2 = signedIn.body.token;
    expect((await http('/api/admin/me/totp', { method: 'DELETE', token: t2, json: { otp: now } })).status).toBe(400);
    expect((await http('/api/admin/me/totp', { method: 'DELETE', token: t2, json: {} })).status).toBe(400);
    await steadyClock();
    expect((await http('/api/admin/me/totp', { method: 'DELETE', token: t2, json: { otp: code(secret, 1) } })).status).toBe(200);
    expect((await login(username)).status).toBe(200);
    // Sign-ins and failed ones are events too (issue 36); the two-factor ones, in order:
    const actions = (await auditOf(username)).map((e) => e.action).filter((a) => a.startsWith('totp.'));
    expect(actions.slice(0, 3)).toEqual(['totp.disable', 'totp.enable', 'totp.start']);
  });

  it('once the shop requires it, owners and managers without it get TOTP_SETUP_REQUIRED outside enrolment; the demo owner is exempt', async () => {
    const owner = await adminToken();
    const manager = await newStaff('manager', 'must');
    const bookseller = await newStaff('bookseller', 'must');
    const managerToken = await tokenOf(manager);
    const booksellerToken = await tokenOf(bookseller);
    expect((await http('/api/admin/settings', { method: 'PUT', token: owner, json: { requireTotp: true } })).status).toBe(200);
    try {
      const refused = await expectUnchanged(() => http('/api/admin/orders', { token: managerToken }));
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ message: 'Turn on two-factor sign-in first (your profile menu)', code: 'TOTP_SETUP_REQUIRED' });
      const me = await http('/api/admin/me', { token: managerToken });
      expect(me.status).toBe(200);
      expect(me.body.totpSetupRequired).toBe(true);
      expect((await http('/api/admin/orders', { token: booksellerToken })).status).toBe(200); // not a role the rule covers
      expect((await http('/api/admin/orders', { token: owner })).status).toBe(200); // the local demo owner
      await steadyClock();
      const { secret } = (await http('/api/admin/me/totp', { method: 'POST', token: managerToken })).body;
      expect((await http('/api/admin/me/totp/confirm', { method: 'POST', token: managerToken, json: { otp: code(secret) } })).status).toBe(200);
      expect((await http('/api/admin/orders', { token: managerToken })).status).toBe(200);
    } finally {
      expect((await http('/api/admin/settings', { method: 'PUT', token: owner, json: { requireTotp: false } })).status).toBe(200);
    }
  });
});

// ---- Revocation ----------------------------------------------------------------------------------

describe('revocation', () => {
  const works = async (token: string) => (await http('/api/admin/orders?limit=1', { token })).status;

  it('disabling ends the person’s tokens at once and stops sign-in; enabling lets them sign in again, old tokens stay dead', async () => {
    const owner = await adminToken();
    const username = await newStaff('bookseller', 'off');
    const token = await tokenOf(username);
    expect(await works(token)).toBe(200);
    expect((await http(`/api/admin/staff/${username}`, { method: 'PATCH', token: owner, json: { disabled: true } })).status).toBe(200);
    expect(await works(token)).toBe(401);
    expect((await login(username)).body).toEqual({ message: 'Invalid credentials' });
    expect((await http(`/api/admin/staff/${username}`, { method: 'PATCH', token: owner, json: { disabled: false } })).status).toBe(200);
    expect(await works(token)).toBe(401);
    expect(await works(await tokenOf(username))).toBe(200);
  });

  it('a role change ends earlier tokens; the new sign-in carries the new role', async () => {
    const owner = await adminToken();
    const username = await newStaff('manager', 'demote');
    const token = await tokenOf(username);
    expect((await http('/api/admin', { token })).status).toBe(200);
    const res = await http(`/api/admin/staff/${username}`, { method: 'PATCH', token: owner, json: { role: 'bookseller' } });
    expect(res.body.staff).toMatchObject({ username, role: 'bookseller' });
    expect((await http('/api/admin', { token })).status).toBe(401);
    const fresh = await tokenOf(username);
    expect((await http('/api/admin', { token: fresh })).status).toBe(403);
    expect((await http('/api/admin/me', { token: fresh })).body).toMatchObject({ role: 'bookseller', permissions: ['books.view', 'books.stock', 'orders.desk', 'orders.status', 'sales.counter', 'stock.receive'] });
  });

  it('a new password ends earlier tokens and the old password; a display-name change does not', async () => {
    const owner = await adminToken();
    const username = await newStaff('bookseller', 'pw');
    const token = await tokenOf(username);
    expect((await http(`/api/admin/staff/${username}`, { method: 'PATCH', token: owner, json: { displayName: 'Still Me' } })).status).toBe(200);
    expect(await works(token)).toBe(200);
    expect((await http(`/api/admin/staff/${username}`, { method: 'PATCH', token: owner, json: { password: 'short' } })).status).toBe(400);
    expect(await works(token)).toBe(200);
    expect((await http(`/api/admin/staff/${username}`, { method: 'PATCH', token: owner, json: { password: 'a-brand-new-passphrase' } })).status).toBe(200);
    expect(await works(token)).toBe(401);
    expect((await login(username)).status).toBe(401);
    expect(await works(await tokenOf(username, 'a-brand-new-passphrase'))).toBe(200);
  });

  it('an owner resets a lost authenticator: two-factor off, sessions ended, set up again after signing in', async () => {
    const owner = await adminToken();
    const username = await newStaff('manager', 'lost');
    const token = await tokenOf(username);
    await steadyClock();
    const { secret } = (await http('/api/admin/me/totp', { method: 'POST', token })).body;
    expect((await http('/api/admin/me/totp/confirm', { method: 'POST', token, json: { otp: code(secret) } })).status).toBe(200);
    expect((await login(username)).body.code).toBe('OTP_REQUIRED');
    const reset = await http(`/api/admin/staff/${username}`, { method: 'PATCH', token: owner, json: { resetTotp: true } });
    expect(reset.status).toBe(200);
    expect(reset.body.staff).toMatchObject({ username, totpEnabled: false });
    expect(await works(token)).toBe(401);
    const again = await tokenOf(username); // the password alone again
    expect((await http('/api/admin/me', { token: again })).body.totpEnabled).toBe(false);
    expect((await auditOf('admin'))[0]).toMatchObject({ action: 'staff.update', target: `admins/${username}`, changes: { totpEnabled: { before: true, after: false } } });
    expect((await expectUnchanged(() => http(`/api/admin/staff/${username}`, { method: 'PATCH', token: owner, json: { resetTotp: false } }))).status).toBe(400);
  });

  it('deleting ends the tokens; the last active owner cannot be removed or demoted', async () => {
    const owner = await adminToken();
    const username = await newStaff('manager', 'gone');
    const token = await tokenOf(username);
    expect((await http(`/api/admin/staff/${username}`, { method: 'DELETE', token: owner })).status).toBe(200);
    expect(await works(token)).toBe(401);
    expect((await login(username)).status).toBe(401);
    // Make `admin` the only active owner for a moment: disable every other owner, then restore them.
    const others = (await http('/api/admin/staff', { token: owner })).body.filter((s: any) => s.role === 'owner' && !s.disabled && s.username !== 'admin');
    for (const o of others) await db().collection('admins').doc(o.username).update({ disabled: true });
    try {
      for (const [method, json] of [['PATCH', { role: 'manager' }], ['PATCH', { disabled: true }], ['DELETE', undefined]] as const) {
        const res = await expectUnchanged(() => http('/api/admin/staff/admin', { method, token: owner, ...(json ? { json } : {}) }));
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ message: 'The shop needs at least one active owner' });
      }
    } finally {
      for (const o of others) await db().collection('admins').doc(o.username).update({ disabled: false });
    }
  });
});

afterAll(async () => {
  // This run's staff stay (the suite's database is thrown away); the setting is back to its default,
  // and its books are gone (through the API, so the shop's counters follow).
  await db().collection('settings').doc('shop').set({ requireTotp: false }, { merge: true });
  const token = await adminToken();
  // Imported books are stored under isbn-<isbn>; a dry run's ISBN simply answers 404 here.
  for (const id of [...madeBooks, ...madeIsbns.map((i) => `isbn-${i}`)]) await http(`/api/books/${id}`, { method: 'DELETE', token });
});
