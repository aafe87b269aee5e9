// Stands in for `firebase/database` in the web build (vite.config.ts). reactfire's top level imports
// these seven names for its Realtime Database hooks, which the shop never calls, and keeps them alive
// in a frozen table, so the real SDK (about 37 KB gzip) rode along on every live page. Calling one says why.
function unused(): never {
  throw new Error('The Realtime Database is not part of this shop (web/src/lib/vendor/no-realtime-database.ts).');
}

export const get = unused;
export const off = unused;
export const onChildAdded = unused;
export const onChildChanged = unused;
export const onChildMoved = unused;
export const onChildRemoved = unused;
export const onValue = unused;
