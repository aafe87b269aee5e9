// How an order is named on screen and in mail, for both sides. A module of its own, without zod:
// the order pages import it, and nothing of it should reach the home page's first load.

/** The id of the order a special order places when its shopper accepts (one per request). */
export const specialOrderOrderId = (specialOrderId: string) => `special-${specialOrderId}`;

/** Whether order `id` is a special order's: moving it moves its request too (cancelled with it). */
export const isSpecialOrderOrder = (id: string) => id.startsWith('special-');

/**
 * What the desk, the customer's pages and the mail call an order: its id's first 8 characters,
 * after the `special-` of a special order's order (else every such order read "special-"). The
 * desk's order search takes it as a prefix.
 */
export function shortOrderId(id: string): string {
  const start = isSpecialOrderOrder(id) ? 'special-'.length : 0;
  return id.slice(0, start + 8);
}
