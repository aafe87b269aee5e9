import { onIdTokenChanged } from 'firebase/auth';
import { getFirebaseAuth } from '../firebase';
import type { AuthSnapshot } from './auth-context';
import './auth-sdk'; // registers the emulator-only test hook in emulator builds

/**
 * Firebase Auth owns the sign-in state; this reports it to the light context the rest of the app
 * reads, and returns the unsubscribe. It listens with firebase/auth itself (what reactfire's
 * useSigninCheck does underneath), not through reactfire: reactfire is one module that also holds
 * its Firestore hooks, so importing it here would pull the Firestore SDK into every signed-in page.
 * reactfire is loaded only by the pages that follow Firestore data (lib/live-firestore.tsx).
 */
export function followAuth(onChange: (snapshot: AuthSnapshot) => void): () => void {
  return onIdTokenChanged(getFirebaseAuth(), (user) =>
    onChange(
      user
        ? { status: 'signedIn', user: { uid: user.uid, email: user.email, displayName: user.displayName, photoURL: user.photoURL } }
        : { status: 'signedOut', user: null },
    ),
  );
}
