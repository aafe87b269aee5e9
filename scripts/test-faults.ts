import { execSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COUNTER_SHARDS, counterShardId, sumShards } from '../functions/src/counters/counters';
import { adminDb } from './lib/admin-sdk';
import { INBOX_URL, PORTS, ROOT, SHOP_URL } from './lib/env';
import { assertPortsFree, waitFor } from './lib/ports';
import { startFunctionServer } from '../bench/function-server';
import { build } from './lib/build';
import { startSuite } from './lib/suite';
import { adminLogin, orderBody, signUpCustomer } from './lib/fixtures';

// `npm run test:faults`: (1) kill the function's worker processes in the middle of a burst of
// orders; clients retry with the same Idempotency-Key; every accepted order must exist exactly
// once and the counters must equal a full recount. (2) kill `npm start` with SIGKILL; data saved
// before the last periodic save must be there after the next start. (3) a burst of ~29 MB bodies
// (with and without Content-Length) must be refused with 413 before parsing, the function workers'
// memory staying flat. `npm run test:faults -- memory` runs only (3).

let failures = 0;
function check(what: string, ok: boolean, detail = ''): void {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? `: ${detail}` : ''}`);
  if (!ok) failures += 1;
}

/** Processes whose command line contains `text`: the emulator's function workers, or functions-framework on its port. */
const processes = (text: string) =>
  execSync('ps -eo pid,args').toString().split('\n').filter((l) => l.includes(text)).map((l) => Number(l.trim().split(/\s+/)[0]));
// This checkout's workers only: other checkouts on the machine run their own suites (port slots).
const functionWorkers = () => processes(`${ROOT}node_modules/firebase-tools/lib/emulator/functionsEmulatorRuntime`);

function killFunctionWorkers(): number {
  const pids = functionWorkers();
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* exited since ps listed it */
    }
  }
  return pids.length;
}

async function burstWithKill(): Promise<void> {
  const TOTAL = 100;
  // One customer per worker (10 orders each, the open-order limit): one account's placements
  // serialize on its open-order count, which would only measure that queue.
  const shoppers = await Promise.all(Array.from({ length: 10 }, (_, w) => signUpCustomer(`fault${w}`)));
  const books = ((await (await fetch(`${SHOP_URL}/api/books?limit=3`)).json()) as { _id: string; newPrice: number }[]).slice(0, 2);
  const cents = books.reduce((s, b) => s + Math.round(b.newPrice * 100), 0);
  // Each order takes a copy of each book: give this throwaway suite's two books enough.
  await Promise.all(books.map((b) => adminDb().collection('books').doc(b._id).update({ stock: 1000 })));
  const accepted = new Map<string, string>(); // key -> order id
  let serverErrors = 0;
  let killed = 0;
  let sent = 0;
  const place = async (key: string, who: { token: string; email: string }) => {
    const body = JSON.stringify(orderBody(who.email, books));
    for (let attempt = 0; attempt < 8; attempt++) {
      try {
        const res = await fetch(`${SHOP_URL}/api/orders`, { method: 'POST', body, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${who.token}`, 'Idempotency-Key': key } });
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
  const worker = async (who: { token: string; uid: string; email: string }) => {
    for (let n = 0; n < TOTAL / shoppers.length; n++) {
      const i = sent++;
      if (i === 30) killed = killFunctionWorkers();
      await place(`fault-${who.uid}-${n}`, who);
    }
  };
  await Promise.all(shoppers.map(worker));
  const stored = await adminDb().collection('orders').where('uid', 'in', shoppers.map((s) => s.uid)).get();
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
    // The developer's inbox on this slot's port, printed for the newcomer (issue 36).
    const inbox = await fetch(INBOX_URL).then((res) => res.text(), () => '');
    check("npm start prints the developer's inbox, and its page answers", first.output().includes(`Mail:       ${INBOX_URL}`) && inbox.includes("The developer's inbox"), INBOX_URL);
    const token = await adminLogin(SHOP_URL);
    const title = `Survives kill -9 ${Date.now()}`;
    const created = await fetch(`${SHOP_URL}/api/books/create-book`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ title, description: 'fault test', category: 'fiction', trending: false, oldPrice: 2, newPrice: 1, coverImage: 'book-2' }),
    });
    check('book created before the crash', created.status === 201);
    await new Promise((r) => setTimeout(r, 5000)); // > 2 periodic saves
    process.kill(-first.child.pid!, 'SIGKILL');
    await waitFor(async () => (await assertPortsFree(), true), 'the emulators to stop after kill -9', 60_000).then(() => check('no process or port left after kill -9', true), () => check('no process or port left after kill -9', false));
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

/** Resident memory of a process in MB (0 once it is gone). */
function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** ~29 MB of JSON that costs far more once parsed (millions of array elements). */
function hugeJson(): Buffer {
  const MB = 1024 * 1024;
  const head = Buffer.from('{"title":"x","description":"d","category":"fiction","pad":[');
  const body = Buffer.alloc(29 * MB - head.length - 2, '0,');
  return Buffer.concat([head, body.subarray(0, body.length - (body.length % 2) - 1), Buffer.from(']}')]);
}

interface Target {
  label: string;
  url: string;
  /** Where chunked bodies go (the Hosting emulator cannot proxy them: its client refuses a transfer-encoding header). */
  chunkedUrl?: string;
  /** The processes that run the function's code (their RSS is what an attacker inflates). */
  pids: () => number[];
}

/** Sends 12 bodies of ~29 MB at once (half with Content-Length, half chunked) and samples RSS. */
async function oversizeBurst(target: Target): Promise<void> {
  await fetch(`${target.url}/api/health`); // a warm worker to measure
  await new Promise((r) => setTimeout(r, 1000));
  const idleByPid = new Map(target.pids().map((pid) => [pid, rssMb(pid)]));
  const idle = Math.max(...idleByPid.values());
  const body = hugeJson();
  const payload = new Uint8Array(body); // one copy typed as a fetch body
  // The largest rise of one process over its own idle RSS (a worker started meanwhile: over the largest idle).
  let rise = 0;
  const sampler = setInterval(() => {
    for (const pid of target.pids()) rise = Math.max(rise, rssMb(pid) - (idleByPid.get(pid) ?? idle));
  }, 25);
  const statuses: Record<string, number> = {};
  const started = Date.now();
  const send = async (chunked: boolean) => {
    const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers: { 'Content-Type': 'application/json' } };
    if (chunked) {
      // A stream body goes out with Transfer-Encoding: chunked: no Content-Length to refuse by.
      init.body = new ReadableStream({
        start(controller) {
          for (let i = 0; i < body.length; i += 1024 * 1024) controller.enqueue(body.subarray(i, i + 1024 * 1024));
          controller.close();
        },
      });
      init.duplex = 'half';
    } else init.body = payload;
    let key: string;
    try {
      const res = await fetch(`${chunked ? (target.chunkedUrl ?? target.url) : target.url}/api/books/create-book`, init);
      const text = await res.text();
      key = `${res.status}${text.startsWith('{"message"') ? ' json' : ''}`;
      if (res.status !== 413) console.log(`  ${chunked ? 'chunked' : 'sized'} body answered ${res.status}: ${text.slice(0, 160)}`);
    } catch (error) {
      key = `error ${String((error as Error).cause ?? (error as Error).message)}`;
    }
    statuses[key] = (statuses[key] ?? 0) + 1;
  };
  const BURST = 12;
  await Promise.all(Array.from({ length: BURST }, (_, i) => send(i % 2 === 1)));
  const ms = Date.now() - started;
  await new Promise((r) => setTimeout(r, 500));
  clearInterval(sampler);
  const alive = (await fetch(`${target.url}/api/health`)).status;
  console.log(`memory (${target.label}): ${BURST} bodies of ${(body.length / 1024 / 1024).toFixed(1)} MB (half chunked) in ${ms} ms; answers ${JSON.stringify(statuses)}; function worker RSS idle ${idle.toFixed(0)} MB, largest rise +${rise.toFixed(0)} MB`);
  check(`${target.label}: every oversize body refused with a 413 JSON answer`, statuses['413 json'] === BURST, JSON.stringify(statuses));
  check(`${target.label}: function worker memory stays flat (within 48 MB of idle)`, rise < 48, `+${rise.toFixed(0)} MB`);
  check(`${target.label}: the function still answers after the burst`, alive === 200);
}

/**
 * The production runtime: functions-framework serving the built function (bench/function-server.ts),
 * over the running suite's emulators: it only starts once /api/health reads Firestore.
 */
async function underFunctionsFramework(): Promise<void> {
  const server = await startFunctionServer(join(tmpdir(), 'bookstore-faults-functions-framework.log'));
  try {
    await oversizeBurst({ label: 'functions-framework', url: server.url, pids: () => processes(`--port=${new URL(server.url).port}`) });
  } finally {
    await server.stop();
  }
}

/**
 * (1) and (3) on one throwaway suite: Hosting -> Functions emulator -> its worker processes; then
 * (3) again under functions-framework, before the suite stops (the function needs its Firestore).
 */
async function underEmulators(): Promise<void> {
  const logFile = join(tmpdir(), `bookstore-faults-emulators-${process.pid}.log`);
  const suite = await startSuite({ stateDir: null, log: (l) => console.log(`  ${l}`), logFile });
  console.log(`  (the emulators' output: ${logFile})`);
  try {
    if (!process.argv.includes('memory')) await burstWithKill();
    const functionsUrl = `http://127.0.0.1:${PORTS.functions}/demo-bookstore/us-central1/api`;
    await oversizeBurst({ label: 'emulator worker', url: SHOP_URL, chunkedUrl: functionsUrl, pids: functionWorkers });
    await underFunctionsFramework(); // the suite wrote functions/.secret.local
  } finally {
    await suite.stop();
  }
}

async function main() {
  const started = Date.now();
  await assertPortsFree();
  await build();
  await underEmulators();
  if (!process.argv.includes('memory')) await sigkillStart();
  console.log(`faults: ran in ${Math.round((Date.now() - started) / 1000)} s`);
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
