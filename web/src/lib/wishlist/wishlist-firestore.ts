// Loaded only when a signed-in customer's wishlist is followed or changed (never on a first visit):
// the Firestore SDK, writing the customer's own wishlists/{uid} under firestore.rules.
import { arrayRemove, arrayUnion, doc, runTransaction, serverTimestamp, setDoc } from 'firebase/firestore';
import { alertBox } from '../notify';
import { getFirebaseFirestore } from '../firestore';
import { cleanIds, mergeLists } from './wishlist-rules';
import { wishlist } from './wishlist-store';

const wishlistDoc = (uid: string) => doc(getFirebaseFirestore(), 'wishlists', uid);
const isRefused = (error: unknown) => (error as { code?: string } | null)?.code === 'permission-denied';

const running = new Set<string>();
const again = new Set<string>();

/**
 * Sends the pending changes one by one, in order (arrayUnion / arrayRemove, so another device's
 * changes made meanwhile are kept). Offline, the SDK holds the write until the network is back;
 * the change also stays in the store's pending list, so a closed tab sends it next time.
 */
async function flushPending(uid: string): Promise<void> {
  if (running.has(uid)) {
    again.add(uid);
    return;
  }
  running.add(uid);
  try {
    do {
      again.delete(uid);
      for (let op = wishlist.pending(uid)[0]; op; op = wishlist.pending(uid)[0]) {
        try {
          await setDoc(wishlistDoc(uid), { bookIds: op.kind === 'add' ? arrayUnion(op.id) : arrayRemove(op.id), updatedAt: serverTimestamp() }, { merge: true });
          wishlist.acknowledge(uid, [op.seq]);
        } catch (error) {
          if (!isRefused(error)) throw error;
          // The rules refused it (the list reached 500 on another device): drop it, say so.
          wishlist.acknowledge(uid, [op.seq]);
          void alertBox('Your wishlist is full', 'A wishlist holds at most 500 books: remove some first.', 'warning');
        }
      }
    } while (again.has(uid));
  } catch (error) {
    console.warn('Wishlist changes not sent yet', error);
  } finally {
    running.delete(uid);
  }
}

export function startFlushing(): void {
  wishlist.setFlush((uid) => void flushPending(uid));
}

/** At sign-in: the guest list joins the account's (account first, up to 500), then leaves this device's guest list. */
export async function mergeGuestList(uid: string): Promise<void> {
  const guest = wishlist.guestIds();
  if (guest.length === 0) return;
  const merged = await runTransaction(getFirebaseFirestore(), async (tx) => {
    const snap = await tx.get(wishlistDoc(uid));
    const current = cleanIds(snap.data()?.bookIds);
    const next = mergeLists(current, guest);
    tx.set(wishlistDoc(uid), { bookIds: next, updatedAt: serverTimestamp() });
    return next;
  });
  wishlist.acceptServer(uid, merged);
  wishlist.clearGuest(guest);
}
