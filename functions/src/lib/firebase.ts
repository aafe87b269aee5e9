import { getApps, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { getFirestore } from 'firebase-admin/firestore';
import { getStorage } from 'firebase-admin/storage';

function app() {
  return getApps()[0] ?? initializeApp();
}

export const db = () => getFirestore(app());
export const auth = () => getAuth(app());

/** The default bucket (FIREBASE_CONFIG names it in Cloud Functions and in the emulator). */
export function bucket() {
  const name = process.env.STORAGE_BUCKET || JSON.parse(process.env.FIREBASE_CONFIG ?? '{}').storageBucket;
  return getStorage(app()).bucket(name || `${process.env.GCLOUD_PROJECT ?? 'demo-bookstore'}.appspot.com`);
}
