import { execSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COUNTER_SHARDS, counterShardId, sumShards } from '../functions/src/orders/counters';
import { adminDb } from './lib/admin-sdk';
import { DEMO_ADMIN, PORTS, ROOT, SHOP_URL } from './lib/env';
import { assertPortsFree, waitFor } from './lib/ports';
import { build } from './lib/build';
import { startSuite } from './lib/suite';

// `npm run test:faults`: (1) kill the function's worker processes in the middle of a burst of
// orders; clients retry with the same Idempotency-Key; every accepted order must exist exactly
// once and the counters must equal a full recount. (2) kill `npm start` with SIGKILL; data saved
// before the last periodic save must be there after the next start.

let failures = 0;
function check(what: string, ok: boolean, detail = ''): void {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? `: ${detail}` : ''}`);
  if (!ok) failures += 1;
}

async function signUp(): Promise<{ token: string; uid: string; email: string }> {
  const email = `fault-${Date.now()}@example.com`;
  const res = await fetch(`http://127.0.0.1:${PORTS.auth}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: 'fault-pass-1', returnSecureToken: true }),
  });
  const body = (await res.json()) as { idToken: string; localId: string };
  return { token: body.idToken, uid: body.localId, email };
}

function killFunctionWorkers(): number {
  const out = execSync('ps -eo pid,args').toString();
  const pids = out.split('\n').filter((l) => l.includes('functionsEmulatorRuntime')).map((l) => Number(l.trim().split(/\s+/)[0]));
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  return pids.length;
}

async function burstWithKill(): Promise<void> {
  const suite = await startSuite({ stateDir: null, log: (l) => console.log(`  ${l}`) });
  try {
    const me = await signUp();
    const books = ((await (await fetch(`${SHOP_URL}/api/books?limit=3`)).json()) as { _id: string; newPrice: number }[]).slice(0, 2);
    const cents = books.reduce((s, b) => s + Math.round(b.newPrice * 100), 0);
    // Each order takes a copy of each book: give this throwaway suite's two books enough.
    await Promise.all(books.map((b) => adminDb().collection('books').doc(b._id).update({ stock: 1000 })));
    const body = JSON.stringify({
      name: 'Fault', email: me.email, phone: '5550000000',
      address: { street: '1 Main', city: 'X', country: 'Y', state: 'Z', zipcode: '1' },
      productIDs: books.map((b) => b._id), totalPrice: (cents / 100).toFixed(2),
    });
    const TOTAL = 100;
    const accepted = new Map<string, string>(); // key -> order id
    let serverErrors = 0;
    let killed = 0;
    let sent = 0;
    const place = async (key: string) => {
      for (let attempt = 0; attempt < 8; attempt++) {
        try {
          const res = await fetch(`${SHOP_URL}/api/orders`, { method: 'POST', body, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${me.token}`, 'Idempotency-Key': key } });
          if (res.status >= 500) serverErrors += 1;
          if (res.status === 200 || res.status === 201) {
            accepted.set(key, ((await res.json()) as { _id: string })._id);
            return;
          }
        } catch {
          /* connection dropped while the worker died: retry with the same key */
        }
        await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
      }
    };
    const worker = async () => {
      while (sent < TOTAL) {
        const i = sent++;
        if (i === 30) killed = killFunctionWorkers();
        await place(`fault-${me.uid}-${i}`);
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));
    const stored = await adminDb().collection('orders').where('uid', '==', me.uid).get();
    // An order's id is derived from its Idempotency-Key (the key itself is not stored): an order
    // stored under no accepted key's id is a duplicate, an accepted id not stored is lost.
    const storedIds = new Set(stored.docs.map((d) => d.id));
    const acceptedIds = new Set(accepted.values());
    const duplicates = stored.docs.filter((d) => !acceptedIds.has(d.id)).length;
    const lost = [...acceptedIds].filter((id) => !storedIds.has(id)).length;
    const wrongTotal = stored.docs.filter((d) => d.data().totalCents !== cents).length;
    const all = await adminDb().collection('orders').get();
    const recount = { orders: all.size, cents: all.docs.reduce((s, d) => s + (d.data().totalCents as number), 0) };
    const shards = await adminDb().getAll(...Array.from({ length: COUNTER_SHARDS }, (_, k) => adminDb().collection('stats').doc(counterShardId(k))));
    const summed = sumShards(shards.map((d) => d.data()));
    const totals = { totalOrders: summed.orders ?? 0, totalSalesCents: summed.salesCents ?? 0 };
    console.log(`faults: worker processes killed ${killed}, orders placed ${TOTAL}, accepted ${accepted.size}, stored ${stored.size}, duplicates ${duplicates}, lost ${lost}, 5xx seen ${serverErrors}`);
    check('function workers were killed mid-burst', killed > 0, `${killed}`);
    check('every order was accepted after retries', accepted.size === TOTAL, `${accepted.size}/${TOTAL}`);
    check('every accepted order stored exactly once', stored.size === accepted.size && duplicates === 0 && lost === 0);
    check('every stored order carries the server total', wrongTotal === 0);
    check('counters equal a full recount (nothing half-written)', totals.totalOrders === recount.orders && totals.totalSalesCents === recount.cents, `${totals.totalOrders}/${recount.orders} orders, ${totals.totalSalesCents}/${recount.cents} cents`);
  } finally {
    await suite.stop();
  }
}

function startShop(state: string) {
  const child = spawn(process.execPath, [`${ROOT}scripts/bootstrap.mjs`, 'start'], {
    cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BOOKSTORE_STATE_DIR: state, BOOKSTORE_SAVE_INTERVAL_MS: '2000' },
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  return { child, ready: () => waitFor(async () => out.includes('The Bookstore is running'), 'npm start', 180_000), output: () => out };
}

async function sigkillStart(): Promise<void> {
  const state = mkdtempSync(join(tmpdir(), 'bookstore-faults-'));
  try {
    const first = startShop(state);
    await first.ready();
    const login = (await (await fetch(`${SHOP_URL}/api/auth/admin`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(DEMO_ADMIN) })).json()) as { token: string };
    const title = `Survives kill -9 ${Date.now()}`;
    const created = await fetch(`${SHOP_URL}/api/books/create-book`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${login.token}` },
      body: JSON.stringify({ title, description: 'fault test', category: 'fiction', trending: false, oldPrice: 2, newPrice: 1, coverImage: 'book-2' }),
    });
    check('book created before the crash', created.status === 201);
    await new Promise((r) => setTimeout(r, 5000)); // > 2 periodic saves
    process.kill(-first.child.pid!, 'SIGKILL');
    await waitFor(async () => {
      try {
        await assertPortsFree();
        return true;
      } catch {
        return false;
      }
    }, 'the emulators to stop after kill -9', 60_000).then(() => check('no process or port left after kill -9', true), () => check('no process or port left after kill -9', false));
    const second = startShop(state);
    await second.ready();
    const books = (await (await fetch(`${SHOP_URL}/api/books`)).json()) as { title: string }[];
    check('data saved before the crash is there after restart', books.some((b) => b.title === title));
    process.kill(-second.child.pid!, 'SIGINT');
    await new Promise((resolve) => second.child.once('exit', resolve));
    await assertPortsFree().then(() => check('Ctrl-C frees every port', true), (e) => check('Ctrl-C frees every port', false, e.message));
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
}

async function main() {
  await assertPortsFree();
  await build();
  await burstWithKill();
  await sigkillStart();
}

main()
  .catch((error) => {
    console.error(error);
    failures += 1;
  })
  .finally(() => {
    console.log(`\nfaults: ${failures === 0 ? 'all checks passed' : `${failures} checks failed`}`);
    process.exit(failures ? 1 : 0);
  });
