import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * false while React hydrates prerendered HTML (and in the build-time prerender), true otherwise.
 * Parts that depend on this browser's state (localStorage) render their neutral form first, so the
 * hydrated tree matches the prerendered HTML, then React renders them again with the real state.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(subscribe, () => true, () => false);
}
