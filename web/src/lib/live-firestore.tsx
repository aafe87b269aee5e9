import { Component, type ReactNode } from 'react';
import { FirebaseAppProvider, FirestoreProvider } from 'reactfire';
import { getFirebaseApp } from './firebase';
import { getFirebaseFirestore } from './firestore';

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

/** Whether a Firestore read was refused by the security rules (someone else's order, or none). */
export const isPermissionDenied = (error: unknown) => (error as { code?: string } | null)?.code === 'permission-denied';

/**
 * reactfire's hooks throw a listener's error during render (its useObservable does), so every live
 * part sits inside this boundary and shows `fallback(error)` instead of the route's error page.
 */
export class LiveErrorBoundary extends Component<{ fallback: (error: unknown) => ReactNode; children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override componentDidCatch(error: unknown) {
    if (!isPermissionDenied(error)) console.error('Live data failed', error);
  }
  override render() {
    return this.state.error ? this.props.fallback(this.state.error) : this.props.children;
  }
}
