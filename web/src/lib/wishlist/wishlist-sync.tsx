import { doc } from 'firebase/firestore';
import { useEffect, useMemo } from 'react';
import { useFirestore, useFirestoreDocData } from 'reactfire';
import { LiveErrorBoundary, LiveFirestore } from '../live-firestore';
import { mergeGuestList, startFlushing } from './wishlist-firestore';
import { cleanIds } from './wishlist-rules';
import { wishlist } from './wishlist-store';

/**
 * Follows the signed-in customer's wishlists/{uid} live (reactfire, under firestore.rules): a heart
 * pressed in another tab or on another device shows here within a second. At mount it merges this
 * device's guest list into the account and sends changes made offline. Loaded lazily, after the
 * page (wishlist-account.tsx): the Firestore SDK is never part of a first visit.
 */
export default function WishlistSync({ uid }: { uid: string }) {
  return (
    <LiveFirestore>
      <LiveErrorBoundary fallback={() => null}>
        <Follow uid={uid} />
      </LiveErrorBoundary>
    </LiveFirestore>
  );
}

function Follow({ uid }: { uid: string }) {
  const firestore = useFirestore();
  const ref = useMemo(() => doc(firestore, 'wishlists', uid), [firestore, uid]);
  const { status, data } = useFirestoreDocData(ref);
  const ids = (data as { bookIds?: unknown } | undefined)?.bookIds;
  useEffect(() => {
    if (status === 'success') wishlist.acceptServer(uid, cleanIds(ids));
  }, [status, ids, uid]);
  useEffect(() => {
    startFlushing();
    wishlist.send(uid); // changes made before this loaded (offline, or in a tab closed since)
    mergeGuestList(uid).catch((error: unknown) => console.warn('Wishlist not merged yet', error));
  }, [uid]);
  return null;
}
