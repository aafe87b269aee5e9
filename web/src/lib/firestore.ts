// Loaded only by pages that follow data (orders, a book's stock): never by the home page or the
// auth chunk, so visitors who only browse never download the Firestore SDK.
import { connectFirestoreEmulator, getFirestore, type Firestore } from 'firebase/firestore';
import { getFirebaseApp } from './firebase';

/** Set only in emulator builds (web/.env.emulator), e.g. 127.0.0.1:8080. */
const emulatorHost = import.meta.env.VITE_FIRESTORE_EMULATOR_HOST as string | undefined;

let firestore: Firestore | undefined;
export function getFirebaseFirestore(): Firestore {
  if (!firestore) {
    firestore = getFirestore(getFirebaseApp());
    if (emulatorHost) {
      const [host, port] = emulatorHost.split(':');
      connectFirestoreEmulator(firestore, host!, Number(port));
    }
  }
  return firestore;
}
