// The staff roles, in a module without zod: order events name them, and the storefront's order
// pages must not load the staff schemas to read an event.
export const ROLES = ['owner', 'manager', 'bookseller'] as const;
export type Role = (typeof ROLES)[number];
