import { useSyncExternalStore } from 'react';

// 'A new version is available': set by the service worker's registration (register-sw.ts) when a new
// build has been installed and is waiting; read by the prompt (components/ui/update-prompt.tsx).

type Apply = () => Promise<void>;
let apply: Apply | null = null;
const listeners = new Set<() => void>();

export function offerUpdate(next: Apply): void {
  apply = next;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The waiting build's activation (it reloads the page), or null while there is none. */
export function useWaitingUpdate(): Apply | null {
  return useSyncExternalStore(subscribe, () => apply, () => null);
}
