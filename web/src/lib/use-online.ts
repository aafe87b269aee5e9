import { useEffect, useSyncExternalStore } from 'react';
import { networkStatus } from './network-status';

// Whether the shop can reach its server (lib/network-status.ts: the browser's word when it says
// offline, and our own requests and probes when it says online). One hook for every form that sends
// something (checkout, sign-in, admin); opening one re-checks a network not checked lately.

const subscribe = (onChange: () => void) => networkStatus?.subscribe(onChange) ?? (() => {});
const snapshot = () => networkStatus?.online() ?? true;
const serverSnapshot = () => true;

export function useOnline(): boolean {
  useEffect(() => networkStatus?.checkIfStale(), []);
  return useSyncExternalStore(subscribe, snapshot, serverSnapshot);
}
