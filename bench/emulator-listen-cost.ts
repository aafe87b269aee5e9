import { spawn } from 'node:child_process';
import { initializeApp } from 'firebase-admin/app';
import { getFirestore, type Firestore } from 'firebase-admin/firestore';
import { findCloudSdkJar } from '../scripts/lib/firestore-cloud-sdk';
import { HOST } from '../scripts/lib/env';

// `npx tsx bench/emulator-listen-cost.ts`: how long the official Firestore emulator takes to tell a
// document listener of a write, by the size of the collection and the number of query listeners
// open on it. The emulator has no indexes: it matches each write against each open query by
// scanning the collection, so the cost is (listeners × documents) and a suite that piles twenty
// rounds of orders into one emulator slows its live pages (docs/testing.md, the ninth twenty-run).
// Production Firestore serves queries from indexes. It starts its own emulator on a spare port.

const PORT = 8095;
const SIZES = [1_000, 10_000, 30_000];
const LISTENERS = [0, 5, 10];

async function fill(db: Firestore, from: number, to: number) {
  for (let i = from; i < to; i += 400) {
    const batch = db.batch();
    for (let j = i; j < Math.min(i + 400, to); j++) {
      batch.set(db.doc(`orders/o${j}`), { uid: `u${j % 500}`, createdAt: new Date(Date.now() - j * 1000), status: 'pending', note: 'x'.repeat(200) });
    }
    await batch.commit();
  }
}

/** Median ms from a write of one order to its document listener's snapshot, over 5 writes. */
async function docListenMs(db: Firestore): Promise<number> {
  const ref = db.doc('orders/probe');
  await ref.set({ uid: 'probe', createdAt: new Date(), v: 0 });
  const times: number[] = [];
  for (let v = 1; v <= 5; v++) {
    times.push(await new Promise<number>((resolve) => {
      let sent = 0;
      const stop = ref.onSnapshot((snap) => {
        if (snap.get('v') !== v) return;
        stop();
        resolve(Date.now() - sent);
      });
      setTimeout(() => { sent = Date.now(); void ref.update({ v }); }, 300);
    }));
  }
  return times.sort((a, b) => a - b)[2]!;
}

async function main() {
  const jar = findCloudSdkJar();
  if (!jar) throw new Error('No Cloud SDK Firestore emulator jar');
  const java = spawn('java', ['-cp', jar, 'com.google.cloud.datastore.emulator.firestore.CloudFirestore', 'start', `--host=${HOST}`, `--port=${PORT}`, '--project_id=demo-listen-cost'], { stdio: 'ignore' });
  try {
    for (let i = 0; i < 60 && !(await fetch(`http://${HOST}:${PORT}/`).then((r) => r.ok, () => false)); i++) await new Promise((r) => setTimeout(r, 500));
    process.env.FIRESTORE_EMULATOR_HOST = `${HOST}:${PORT}`;
    const db = getFirestore(initializeApp({ projectId: 'demo-listen-cost' }, 'listen-cost'));
    console.log('orders   query listeners   write -> document listener (median ms)');
    let held = 0;
    for (const size of SIZES) {
      await fill(db, held, size);
      held = size;
      const open: (() => void)[] = [];
      for (const count of LISTENERS) {
        while (open.length < count) open.push(db.collection('orders').where('uid', '==', `u${open.length}`).orderBy('createdAt', 'desc').limit(11).onSnapshot(() => {}));
        await new Promise((r) => setTimeout(r, 2000)); // their first snapshots
        console.log(`${String(size).padStart(6)}   ${String(count).padStart(15)}   ${String(await docListenMs(db)).padStart(8)}`);
      }
      open.forEach((stop) => stop());
    }
  } finally {
    java.kill();
  }
  process.exit(0);
}

void main();
