// Limits both sides apply, in a module without zod: the storefront's first load imports them
// (zod itself stays out of the home page's JavaScript).

/** The most books one `GET /api/books` answers: every list is paged on the server. */
export const MAX_BOOKS_LIST = 100;
