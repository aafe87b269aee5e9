import { lazy, type ComponentType } from 'react';

// The live stock follower (Firestore SDK, reactfire), loaded after the page has rendered. It is an
// enhancement: the service worker does not precache the Firebase SDK (decision 014), so offline on
// a device that never loaded it the import fails, and the page stays as the API drew it.
const Nothing = () => null;
export const FollowStock = lazy<ComponentType<{ ids: string[] }>>(() => import('./follow-stock').catch(() => ({ default: Nothing })));
