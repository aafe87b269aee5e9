import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { Spinner } from '../../components/ui/spinner';
import { useAuth } from './auth-context';

/** The login guard: waits for the first auth answer, then shows the page or goes to /login. */
export function RequireUser({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const location = useLocation();
  useEffect(() => auth.require(), [auth]);
  if (auth.status === 'loading') return <Spinner label="Checking your account..." />;
  if (auth.status === 'signedOut') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return children;
}
