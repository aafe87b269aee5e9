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

/** Where every page shows a cover that is not allowed (old data, a URL, a `javascript:` value). */
export const FALLBACK_COVER_PATH = '/covers/book-1.svg';

/**
 * A book's coverImage as an address on our origin: bundled names to the shipped SVGs, uploaded
 * covers to the function's immutable /api/covers route, anything else to FALLBACK_COVER_PATH. The
 * storefront and the pages the server fills in (book pages, /books) both draw covers with it.
 */
export function coverPath(coverImage: string | undefined): string {
  if (!coverImage) return FALLBACK_COVER_PATH;
  if (BUNDLED_COVER.test(coverImage)) return `/covers/${coverImage.replace(/\.[a-z]+$/, '')}.svg`;
  if (UPLOADED_COVER.test(coverImage)) return `/api/${coverImage}`;
  return FALLBACK_COVER_PATH;
}

/** What POST /api/books/cover stores: these types (read from the file's bytes), at most MAX_COVER_BYTES. */
export const COVER_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const MAX_COVER_BYTES = 2 * 1024 * 1024;
export const COVER_TOO_LARGE_MESSAGE = 'Cover image must be at most 2 MB';
export const COVER_WRONG_TYPE_MESSAGE = 'Cover image must be a PNG, JPEG, WebP or GIF file';

/** The status and message the server would answer for this file, checked before uploading it; null when it may be sent. */
export function coverFileProblem(file: { size: number; type: string }): { status: 413 | 415; message: string } | null {
  if (file.size > MAX_COVER_BYTES) return { status: 413, message: COVER_TOO_LARGE_MESSAGE };
  // The server reads the type from the bytes; an empty browser type (unknown) is left to it.
  if (file.type && !(COVER_TYPES as readonly string[]).includes(file.type)) return { status: 415, message: COVER_WRONG_TYPE_MESSAGE };
  return null;
}
