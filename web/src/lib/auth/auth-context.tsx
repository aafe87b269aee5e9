import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useHydrated } from '../use-hydrated';
import { rememberedSignIn } from './remembered-sign-in';

export interface SessionUser {
  uid: string;
  email: string | null;
  displayName: string | null;
  photoURL: string | null;
}

export type AuthStatus = 'loading' | 'signedOut' | 'signedIn';
export interface AuthSnapshot {
  status: AuthStatus;
  user: SessionUser | null;
}

interface AuthValue extends AuthSnapshot {
  /** Loads Firebase Auth (and reactfire) if this page needs the user. */
  require(): void;
}

const AuthBridge = lazy(() => import('./auth-bridge'));
const AuthContext = createContext<AuthValue | null>(null);

export function AuthStateProvider({ children }: { children: ReactNode }) {
  const [loaded, setLoaded] = useState(rememberedSignIn);
  const [snapshot, setSnapshot] = useState<AuthSnapshot>(() =>
    loaded ? { status: 'loading', user: null } : { status: 'signedOut', user: null },
  );
  const require = useCallback(() => {
    setLoaded((was) => {
      if (!was) setSnapshot({ status: 'loading', user: null });
      return true;
    });
  }, []);
  const value = useMemo(() => ({ ...snapshot, require }), [snapshot, require]);
  // Not while hydrating: the prerendered HTML has no boundary here.
  const hydrated = useHydrated();
  return (
    <AuthContext.Provider value={value}>
      {children}
      {loaded && hydrated && (
        <Suspense fallback={null}>
          <AuthBridge onChange={setSnapshot} />
        </Suspense>
      )}
    </AuthContext.Provider>
  );
}

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthStateProvider');
  return value;
}

/** Firebase Auth calls, loaded on demand. */
export const authSdk = () => import('./auth-sdk');
