import { getApps, initializeApp } from 'firebase-admin/app';
import { getFirestore, type Firestore } from 'firebase-admin/firestore';
import { PROJECT_ID } from './env';

/** firebase-admin for the scripts (seed, tests, bench), pointed at the emulators by EMULATOR_ENV. */
export function adminDb(): Firestore {
  const app = getApps()[0] ?? initializeApp({ projectId: PROJECT_ID });
  return getFirestore(app);
}
