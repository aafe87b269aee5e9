import { getApps, initializeApp } from 'firebase-admin/app';
import { getFirestore, type Firestore, type WriteBatch } from 'firebase-admin/firestore';
import { PROJECT_ID } from './env';

/** firebase-admin for the scripts (seed, tests, bench), pointed at the emulators by EMULATOR_ENV. */
export function adminDb(): Firestore {
  const app = getApps()[0] ?? initializeApp({ projectId: PROJECT_ID });
  const id = process.env.FIRESTORE_DATABASE_ID; // a named database (the tests' in-process lane), as functions/src/lib/firebase.ts
  return id ? getFirestore(app, id) : getFirestore(app);
}

/** Applies `writes` in batches of at most 400 (Firestore allows 500 a batch), one batch after another. */
export async function commitInBatches(writes: ((batch: WriteBatch) => void)[], db = adminDb()): Promise<void> {
  for (let start = 0; start < writes.length; start += 400) {
    const batch = db.batch();
    writes.slice(start, start + 400).forEach((write) => write(batch));
    await batch.commit();
  }
}
