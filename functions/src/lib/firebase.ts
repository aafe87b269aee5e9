import { getApps, initializeApp } from 'firebase-admin/app';
import { getFirestore } from 'firebase-admin/firestore';

function app() {
  return getApps()[0] ?? initializeApp();
}

// Every function reads Firestore; only some verify customers' tokens (Auth) or touch covers and the
// search snapshot (Storage): those SDKs (about 0.3 s of loading each on a cold instance) are loaded
// when first used, so `pages` and `releaseHolds` never load them (issue 38). A function that will use
// them loads them as its instance starts (loadSdks in src/serve/<name>.ts).
/* eslint-disable @typescript-eslint/no-require-imports -- a lazy require: the module loads on first use, not with the bundle */
const authSdk = () => require('firebase-admin/auth') as typeof import('firebase-admin/auth');
const storageSdk = () => require('firebase-admin/storage') as typeof import('firebase-admin/storage');
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The project's default database, or the named one FIRESTORE_DATABASE_ID gives (Firestore runs several
 * per project): the test suite's in-process lane has one of its own, so its whole-database checks run
 * beside the other lanes (docs/testing.md).
 */
export const db = () => {
  const id = process.env.FIRESTORE_DATABASE_ID;
  return id ? getFirestore(app(), id) : getFirestore(app());
};
export const auth = () => authSdk().getAuth(app());

/** Loads these SDKs now: for a function that will use them, while its instance starts. */
export function loadSdks(which: { auth?: true; storage?: true }): void {
  if (which.auth) authSdk();
  if (which.storage) storageSdk();
}

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
  return storageSdk().getStorage(app()).bucket(defaultBucketName());
}
