import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { useLocation } from 'react-router-dom';
import { useAuth } from '../auth/auth-context';
import { useFirstInteraction } from '../use-first-interaction';
import { useHydrated } from '../use-hydrated';
import { useWishlistHasWork, wishlist } from './wishlist-store';

// Offline on a device that never loaded it, the import fails: the wishlist then shows this device's
// copy and sends its changes later.
const Nothing = () => null;
const WishlistSync = lazy<ComponentType<{ uid: string }>>(() => import('./wishlist-sync').catch(() => ({ default: Nothing })));

/**
 * Tells the wishlist store whose list to show, and follows a signed-in customer's list live. The
 * Firestore SDK (~95 KB gzip) loads after hydration and only for a signed-in customer: at once on
 * /wishlist or when a guest list waits to be merged (just signed in), otherwise at the first touch
 * of the page (as the book page's stock follower), so no first visit carries it.
 */
export function WishlistAccount() {
  const { status, user } = useAuth();
  const uid = status === 'signedIn' ? (user?.uid ?? null) : null;
  const hydrated = useHydrated();
  const touched = useFirstInteraction();
  const hasWork = useWishlistHasWork();
  const { pathname } = useLocation();
  useEffect(() => {
    if (status !== 'loading') wishlist.setAccount(uid);
  }, [status, uid]);
  if (!hydrated || !uid || !(touched || hasWork || pathname === '/wishlist')) return null;
  return (
    <Suspense fallback={null}>
      <WishlistSync uid={uid} />
    </Suspense>
  );
}
