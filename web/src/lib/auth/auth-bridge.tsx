import { useEffect } from 'react';
import { AuthProvider, FirebaseAppProvider, useSigninCheck } from 'reactfire';
import { getFirebaseApp, getFirebaseAuth } from '../firebase';
import type { AuthSnapshot } from './auth-context';
import './auth-sdk'; // registers the emulator-only test hook in emulator builds

/** reactfire owns the auth state; this reports it to the light context the rest of the app reads. */
export default function AuthBridge({ onChange }: { onChange: (snapshot: AuthSnapshot) => void }) {
  return (
    <FirebaseAppProvider firebaseApp={getFirebaseApp()}>
      <AuthProvider sdk={getFirebaseAuth()}>
        <Reporter onChange={onChange} />
      </AuthProvider>
    </FirebaseAppProvider>
  );
}

function Reporter({ onChange }: { onChange: (snapshot: AuthSnapshot) => void }) {
  const { status, data } = useSigninCheck();
  const user = data?.signedIn ? data.user : null;
  useEffect(() => {
    if (status !== 'success') return;
    onChange(
      user
        ? { status: 'signedIn', user: { uid: user.uid, email: user.email, displayName: user.displayName, photoURL: user.photoURL } }
        : { status: 'signedOut', user: null },
    );
  }, [status, user?.uid, user?.email, user?.displayName, user?.photoURL, onChange]); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}
