import {
  createUserWithEmailAndPassword,
  GoogleAuthProvider,
  sendEmailVerification,
  sendPasswordResetEmail,
  signInWithCredential,
  signInWithEmailAndPassword,
  signInWithPopup,
  signOut as firebaseSignOut,
} from 'firebase/auth';
import { isEmulatorBuild } from '../../config/env';
import { getFirebaseAuth } from '../firebase';
import { rememberSignIn as remember } from './remembered-sign-in';

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

/** Whether the signed-in account still has to verify its email before ordering (the API checks the token). */
export async function needsEmailVerification(): Promise<boolean> {
  const auth = getFirebaseAuth();
  await auth.authStateReady();
  return auth.currentUser !== null && !auth.currentUser.emailVerified;
}

/** Emails the signed-in account a verification link. */
export async function sendVerificationEmail(): Promise<void> {
  const user = getFirebaseAuth().currentUser;
  if (user) await sendEmailVerification(user);
}

/**
 * After the link was opened elsewhere: reloads the account and forces a new ID token, since the
 * one held still says `email_verified: false` until it expires. Returns whether it is verified now.
 */
export async function refreshEmailVerification(): Promise<boolean> {
  const user = getFirebaseAuth().currentUser;
  if (!user) return false;
  await user.reload();
  await user.getIdToken(true);
  return user.emailVerified;
}

// Emulator builds only (dead code in production): the Google popup needs Google's servers, so
// browser tests sign a google.com user in through the Auth emulator's unsigned-credential path.
if (isEmulatorBuild) {
  (window as unknown as Record<string, unknown>).__bookstoreTestGoogleSignIn = async (claims: Record<string, unknown>) => {
    await signInWithCredential(getFirebaseAuth(), GoogleAuthProvider.credential(JSON.stringify(claims)));
    remember(true);
  };
}
