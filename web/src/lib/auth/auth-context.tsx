import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
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
  // Firebase Auth's code loads after the page is drawn and is followed once it is here. Not a lazy
  // component: rendered in the render that follows hydration, it suspended that render, and a
  // signed-in shopper's cart and wishlist were drawn about 300 ms after a signed-out one's (measured
  // on a served /cart, stop 48) while the served page's buttons were about to move.
  useEffect(() => {
    if (!loaded) return;
    let live = true;
    let stop: (() => void) | undefined;
    import('./auth-bridge').then(
      ({ followAuth }) => {
        if (live) stop = followAuth(setSnapshot);
      },
      // The code could not load (offline and not cached, or a chunk gone after a deploy): without
      // it no one is signed in on this page, and guarded pages offer the sign-in instead of
      // 'Checking your account...' for ever.
      () => {
        if (live) setSnapshot({ status: 'signedOut', user: null });
      },
    );
    return () => {
      live = false;
      stop?.();
    };
  }, [loaded]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthStateProvider');
  return value;
}

/** Firebase Auth calls, loaded on demand. */
export const authSdk = () => import('./auth-sdk');
