import type { alertBox as AlertBox, toast as Toast } from './notify';

// The alerts for the storefront's always-loaded code (the cart's and the wishlist's actions, the admin
// session's expiry): lib/notify.ts on use, so the home page's first load (its budget,
// web/src/bundle-budget.test.ts) does not carry it.
const notify = () => import('./notify');

export const toast = (...args: Parameters<typeof Toast>) => void notify().then((n) => n.toast(...args));
export const alertBox = (...args: Parameters<typeof AlertBox>) => void notify().then((n) => n.alertBox(...args));
