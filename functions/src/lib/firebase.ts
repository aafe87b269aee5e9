import { getApps, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { getFirestore } from 'firebase-admin/firestore';
import { getStorage } from 'firebase-admin/storage';

function app() {
  return getApps()[0] ?? initializeApp();
}

export const db = () => getFirestore(app());
export const auth = () => getAuth(app());

/**
 * The project's default bucket, as Cloud Functions (and the emulator) name it in FIREBASE_CONFIG;
 * STORAGE_BUCKET overrides it (the launcher, the scripts). Never guessed: projects created since
 * late 2024 have `<project>.firebasestorage.app`, older ones `<project>.appspot.com`.
 */
export function defaultBucketName(env: NodeJS.ProcessEnv = process.env): string {
  let fromConfig: unknown;
  try {
    fromConfig = (JSON.parse(env.FIREBASE_CONFIG ?? '{}') as { storageBucket?: unknown }).storageBucket;
  } catch {
    fromConfig = undefined;
  }
  const name = env.STORAGE_BUCKET || (typeof fromConfig === 'string' ? fromConfig : '');
  if (!name) {
    throw new Error('No default Storage bucket: FIREBASE_CONFIG has no storageBucket. Set up Storage in the Firebase console (Storage > Get started), then deploy again.');
  }
  return name;
}

export function bucket() {
  return getStorage(app()).bucket(defaultBucketName());
}
