import {
  createUserWithEmailAndPassword,
  GoogleAuthProvider,
  sendPasswordResetEmail,
  signInWithCredential,
  signInWithEmailAndPassword,
  signInWithPopup,
  signOut as firebaseSignOut,
} from 'firebase/auth';
import { isEmulatorBuild } from '../../config/env';
import { getFirebaseAuth } from '../../lib/firebase';
import { REMEMBER_KEY } from './auth-context';

function remember(on: boolean): void {
  try {
    if (on) localStorage.setItem(REMEMBER_KEY, '1');
    else localStorage.removeItem(REMEMBER_KEY);
  } catch {
    /* storage unavailable */
  }
}

export async function signIn(email: string, password: string) {
  await signInWithEmailAndPassword(getFirebaseAuth(), email, password);
  remember(true);
}

export async function register(email: string, password: string) {
  await createUserWithEmailAndPassword(getFirebaseAuth(), email, password);
  remember(true);
}

export async function signInWithGoogle() {
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: 'select_account' });
  await signInWithPopup(getFirebaseAuth(), provider);
  remember(true);
}

/** Firebase Auth's reset email; its link opens Firebase's own page to choose a new password. */
export async function resetPassword(email: string) {
  await sendPasswordResetEmail(getFirebaseAuth(), email);
}

export async function signOut() {
  await firebaseSignOut(getFirebaseAuth());
  remember(false);
}

/** The signed-in user's Firebase ID token, for /api/orders. */
export async function idToken(): Promise<string | null> {
  const auth = getFirebaseAuth();
  await auth.authStateReady();
  return auth.currentUser ? auth.currentUser.getIdToken() : null;
}

// Emulator builds only (dead code in production): the Google popup needs Google's servers, so
// browser tests sign a google.com user in through the Auth emulator's unsigned-credential path.
if (isEmulatorBuild) {
  (window as unknown as Record<string, unknown>).__bookstoreTestGoogleSignIn = async (claims: Record<string, unknown>) => {
    await signInWithCredential(getFirebaseAuth(), GoogleAuthProvider.credential(JSON.stringify(claims)));
    remember(true);
  };
}
