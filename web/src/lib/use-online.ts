import { useSyncExternalStore } from 'react';

// Whether the browser believes it has a network: navigator.onLine, followed through its events.
// 'false' is reliable (no network at all); 'true' may still mean a dead Wi-Fi, which the forms'
// own error messages cover. One hook for every form that sends something (checkout, sign-in, admin).

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

const snapshot = () => navigator.onLine;
const serverSnapshot = () => true;

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, snapshot, serverSnapshot);
}
