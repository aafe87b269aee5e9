// Plain constants (no zod) so the storefront can import them without the schema library.

/** Bundled covers ship with the web app: book-1 .. book-23, with or without an image extension. */
export const BUNDLED_COVER = /^book-(?:[1-9]|1\d|2[0-3])(?:\.(?:png|jpg|jpeg|webp|svg))?$/;
/** Uploaded covers are content-addressed objects under covers/ in Firebase Storage. */
export const UPLOADED_COVER = /^covers\/[a-f0-9]{32}\.(?:png|jpg|webp|gif)$/;

/**
 * A cover is a bundled name (served by Hosting) or one of our uploaded covers (served from our
 * Storage bucket by /api/covers): images come only from our origin. No URL of any kind: an https
 * address would let a book carry a tracking pixel to every shopper who sees it, and the CSP's
 * img-src allows only 'self' (and data:/blob: for previews) anyway.
 */
export function isAllowedCover(value: string): boolean {
  return BUNDLED_COVER.test(value) || UPLOADED_COVER.test(value);
}
