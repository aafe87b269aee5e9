import { MAX_WISHLIST_BOOKS } from '@bookstore/contract';
import { useSyncExternalStore } from 'react';
import { applyOps, cleanIds, parseIds, parseOps, type WishlistOp } from './wishlist-rules';

// The wishlist this browser shows (issue 28), like the cart a localStorage store that the
// `storage` event keeps in step across tabs, in one of two modes:
// - signed out: the guest list, `bookstore.wishlist`, here only;
// - signed in: a mirror of the customer's Firestore document wishlists/{uid} (`bookstore.wishlist.<uid>`):
//   the last list the server sent (`base`) and the changes made here and not yet acknowledged
//   (`pending`), so the heart and /wishlist work offline and a change made offline is sent later.
// The Firestore SDK is never imported here: wishlist-sync.tsx (the live document, loaded lazily)
// feeds `acceptServer`, and wishlist-firestore.ts (loaded with it) sends the pending changes.

const GUEST_KEY = 'bookstore.wishlist';
const ACCOUNT_PREFIX = 'bookstore.wishlist.';
const canStore = typeof localStorage !== 'undefined';

interface AccountMirror {
  base: string[];
  pending: WishlistOp[];
}

let uid: string | null = null;
let guest: string[] = canStore ? parseIds(localStorage.getItem(GUEST_KEY)) : [];
let mirror: AccountMirror = { base: [], pending: [] };
let view: string[] = guest;
const listeners = new Set<() => void>();

function readMirror(id: string): AccountMirror {
  try {
    const stored = JSON.parse(localStorage.getItem(ACCOUNT_PREFIX + id) ?? 'null') as Partial<AccountMirror> | null;
    return { base: cleanIds(stored?.base), pending: parseOps(stored?.pending) };
  } catch {
    return { base: [], pending: [] };
  }
}

function save(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* private mode or full storage: the list still works for this tab */
  }
}

function update(): void {
  const next = uid ? applyOps(mirror.base, mirror.pending) : guest;
  if (next.length !== view.length || next.some((id, i) => id !== view[i])) view = next;
  listeners.forEach((listener) => listener());
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === GUEST_KEY || event.key === null) guest = parseIds(localStorage.getItem(GUEST_KEY));
    if (uid && (event.key === ACCOUNT_PREFIX + uid || event.key === null)) mirror = readMirror(uid);
    update();
  });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let seq = Date.now();
/** Sends pending changes (set by wishlist-firestore.ts once the Firestore SDK is loaded). */
let flush: ((uid: string) => void) | null = null;

export type ToggleResult = 'added' | 'removed' | 'full';

export const wishlist = {
  /** The account whose list shows: null when signed out. Called when the sign-in state is known. */
  setAccount(next: string | null): void {
    if (next === uid) return;
    const previous = uid;
    uid = next;
    mirror = next ? readMirror(next) : { base: [], pending: [] };
    // Signing out leaves nothing of the account's list on a shared device.
    if (previous && !next) {
      try {
        localStorage.removeItem(ACCOUNT_PREFIX + previous);
      } catch {
        /* storage unavailable */
      }
    }
    update();
    if (next && mirror.pending.length > 0) flush?.(next);
  },
  account: () => uid,
  ids: () => view,
  has: (id: string) => view.includes(id),
  toggle(id: string): ToggleResult {
    const removing = view.includes(id);
    if (!removing && view.length >= MAX_WISHLIST_BOOKS) return 'full';
    if (!uid) {
      guest = removing ? guest.filter((x) => x !== id) : [...guest, id];
      save(GUEST_KEY, guest);
    } else {
      mirror = { ...mirror, pending: [...mirror.pending, { kind: removing ? 'remove' : 'add', id, seq: (seq += 1) }] };
      save(ACCOUNT_PREFIX + uid, mirror);
      sendPending(uid);
    }
    update();
    return removing ? 'removed' : 'added';
  },
  /** The server's list (the live document), for the signed-in account `forUid`. */
  acceptServer(forUid: string, ids: string[]): void {
    if (forUid !== uid) return;
    mirror = { ...mirror, base: cleanIds(ids) };
    save(ACCOUNT_PREFIX + forUid, mirror);
    update();
  },
  /** Firestore took these changes (or refused them for good): they leave the pending list. */
  acknowledge(forUid: string, seqs: number[]): void {
    if (forUid !== uid) return;
    mirror = { ...mirror, pending: mirror.pending.filter((op) => !seqs.includes(op.seq)) };
    save(ACCOUNT_PREFIX + forUid, mirror);
    update();
  },
  pending: (forUid: string) => (forUid === uid ? mirror.pending : []),
  /** The guest list waiting to join the account at sign-in. */
  guestIds: () => guest,
  clearGuest(merged: string[]): void {
    guest = guest.filter((id) => !merged.includes(id));
    save(GUEST_KEY, guest);
    update();
  },
  setFlush(fn: (uid: string) => void): void {
    flush = fn;
  },
  /** Sends this account's pending changes, if any. */
  send(forUid: string): void {
    if (forUid === uid && mirror.pending.length > 0) sendPending(forUid);
  },
};

/**
 * Sends pending changes through wishlist-firestore.ts once it is loaded. Until then they wait,
 * stored: wishlist-account.tsx loads the live sync (and the writer with it) as soon as a signed-in
 * change is pending, and offline on a device that never loaded the SDK they go later.
 */
function sendPending(forUid: string): void {
  flush?.(forUid);
}

const EMPTY: string[] = [];

/** The ids this browser's wishlist holds; empty while hydrating (the server cannot know them). */
export function useWishlistIds(): string[] {
  return useSyncExternalStore(subscribe, () => view, () => EMPTY);
}

/** Whether signing in has something to send: a guest list to merge, or changes made offline. */
export function useWishlistHasWork(): boolean {
  return useSyncExternalStore(subscribe, () => guest.length > 0 || mirror.pending.length > 0, () => false);
}
