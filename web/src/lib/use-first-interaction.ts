import { useSyncExternalStore } from 'react';

// True once the visitor has touched the page: moved the pointer over it, pressed a key, scrolled.
// For work the first screen does not need and a weak phone should not pay for while the page is
// still loading (the Firestore SDK behind the book page's live stock: ~95 KB gzip).

const EVENTS = ['pointermove', 'pointerdown', 'keydown', 'touchstart', 'scroll', 'wheel'] as const;

let interacted = false;
const listeners = new Set<() => void>();

function onInteraction() {
  interacted = true;
  EVENTS.forEach((name) => window.removeEventListener(name, onInteraction, true));
  listeners.forEach((listener) => listener());
}

if (typeof window !== 'undefined') {
  EVENTS.forEach((name) => window.addEventListener(name, onInteraction, { capture: true, passive: true }));
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useFirstInteraction(): boolean {
  return useSyncExternalStore(subscribe, () => interacted, () => false);
}
