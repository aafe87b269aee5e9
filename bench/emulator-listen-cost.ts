import { spawn } from 'node:child_process';
import { initializeApp } from 'firebase-admin/app';
import { getFirestore, type Firestore } from 'firebase-admin/firestore';
import { findCloudSdkJar } from '../scripts/lib/firestore-cloud-sdk';
import { HOST } from '../scripts/lib/env';
import { freePort, waitFor } from '../scripts/lib/ports';

// `npx tsx bench/emulator-listen-cost.ts`: how long the official Firestore emulator (the Cloud SDK's
// jar, whichever emulator the suite picked) takes to tell a document listener of a write, by the
// documents in the collection and the number of query listeners open on it. The emulator has no
// indexes and matches each write against each open query, so this is the cost that grows when one
// emulator keeps many listeners and much data (docs/testing.md, "What grows in one emulator").
// Production Firestore serves queries from indexes. It starts an emulator of its own on a free port.

const quick = process.argv.includes('--quick'); // a minute's check that it runs
const SIZES = quick ? [1_000] : [1_000, 10_000, 30_000];
const LISTENERS = quick ? [0, 2] : [0, 5, 10];
const SNAPSHOT_TIMEOUT_MS = 120_000;

async function fill(db: Firestore, from: number, to: number) {
  for (let i = from; i < to; i += 400) {
    const batch = db.batch();
    for (let j = i; j < Math.min(i + 400, to); j++) {
      batch.set(db.doc(`orders/o${j}`), { uid: `u${j % 500}`, createdAt: new Date(Date.now() - j * 1000), status: 'pending', note: 'x'.repeat(200) });
    }
    await batch.commit();
  }
}

/** Resolves with fn's first matching snapshot's time, or rejects after SNAPSHOT_TIMEOUT_MS. */
function within<T>(start: (done: (value: T) => void) => () => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { stop(); reject(new Error(`no snapshot within ${SNAPSHOT_TIMEOUT_MS / 1000} s`)); }, SNAPSHOT_TIMEOUT_MS);
    const stop = start((value) => { clearTimeout(timer); stop(); resolve(value); });
  });
}

/** A customer's order list, followed as the shop's order pages do; open until the returned stop. */
async function openQuery(db: Firestore, uid: string): Promise<() => void> {
  const query = db.collection('orders').where('uid', '==', uid).orderBy('createdAt', 'desc').limit(11);
  let stop = () => {};
  await within<void>((done) => {
    stop = query.onSnapshot(() => done());
    return () => {}; // stays open after its first answer
  });
  return stop;
}

/** Median ms from a write of one order to its document listener's snapshot, over 5 writes. */
async function docListenMs(db: Firestore): Promise<number> {
  const ref = db.doc('orders/probe');
  await ref.set({ uid: 'probe', createdAt: new Date(), v: 0 });
  const times: number[] = [];
  for (let v = 1; v <= 5; v++) {
    let sent = 0;
    const heard = within<number>((done) => ref.onSnapshot((snap) => { if (snap.get('v') === v) done(Date.now() - sent); }));
    await new Promise((r) => setTimeout(r, 300)); // the listener's first snapshot
    sent = Date.now();
    await ref.update({ v });
    times.push(await heard);
  }
  return times.sort((a, b) => a - b)[2]!;
}

async function main() {
  const jar = findCloudSdkJar();
  if (!jar) throw new Error('No Cloud SDK Firestore emulator jar: install google-cloud-cli-firestore-emulator or set FIRESTORE_EMULATOR_JAR');
  const port = await freePort();
  const java = spawn('java', ['-cp', jar, 'com.google.cloud.datastore.emulator.firestore.CloudFirestore', 'start', `--host=${HOST}`, `--port=${port}`, '--project_id=demo-listen-cost'], { stdio: 'ignore' });
  let exited = false;
  java.on('exit', () => (exited = true));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => { java.kill(); process.exit(1); });
  try {
    await waitFor(async () => !exited && (await fetch(`http://${HOST}:${port}/`)).ok, 'the Firestore emulator', 60_000);
    process.env.FIRESTORE_EMULATOR_HOST = `${HOST}:${port}`;
    const db = getFirestore(initializeApp({ projectId: 'demo-listen-cost' }, 'listen-cost'));
    console.log('orders   query listeners   write -> document listener (median ms)');
    let held = 0;
    for (const size of SIZES) {
      await fill(db, held, size);
      held = size;
      const open: (() => void)[] = [];
      for (const count of LISTENERS) {
        while (open.length < count) open.push(await openQuery(db, `u${open.length}`));
        console.log(`${String(size).padStart(6)}   ${String(count).padStart(15)}   ${String(await docListenMs(db)).padStart(8)}`);
      }
      open.forEach((stop) => stop());
    }
  } finally {
    java.kill();
  }
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
