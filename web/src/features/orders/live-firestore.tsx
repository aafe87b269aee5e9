import type { ReactNode } from 'react';
import { FirebaseAppProvider, FirestoreProvider } from 'reactfire';
import { getFirebaseApp } from '../../lib/firebase';
import { getFirebaseFirestore } from '../../lib/firestore';

/**
 * reactfire's Firestore context, mounted only inside the pages that follow data (their chunks are
 * lazy): the Firestore SDK never loads on the home page or with the auth chunk. The reads are
 * straight from Firestore under firestore.rules (own orders, a book's public stock).
 */
export function LiveFirestore({ children }: { children: ReactNode }) {
  return (
    <FirebaseAppProvider firebaseApp={getFirebaseApp()}>
      <FirestoreProvider sdk={getFirebaseFirestore()}>{children}</FirestoreProvider>
    </FirebaseAppProvider>
  );
}
