import { useEffect } from 'react';
import { clearAdminSession, readAdminSession } from '../lib/admin-session';
import { alertBox } from '../lib/notify-later';
import type { AppRouter } from './routes';

/**
 * Removes the admin token when it expires, 3600 s after login, with the spec's alert and a return
 * to /admin. It keeps the expiry time, not only a timer, so a tab reopened later notices at once.
 */
export function AdminSessionWatcher({ router }: { router: AppRouter }) {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(timer);
      const session = readAdminSession();
      if (!session) return;
      const expire = () => {
        clearAdminSession();
        alertBox('Token Expired, log in again', undefined, 'warning');
        void router.navigate('/admin');
      };
      const left = session.expiresAt - Date.now();
      if (left <= 0) expire();
      else timer = setTimeout(expire, Math.min(left, 2 ** 31 - 1));
    };
    arm();
    window.addEventListener('bookstore:admin-session', arm);
    window.addEventListener('storage', arm);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('bookstore:admin-session', arm);
      window.removeEventListener('storage', arm);
    };
  }, [router]);
  return null;
}
