// Plain constants (no zod) so the storefront can import them without the schema library.

/** Bundled covers ship with the web app: book-1 .. book-23, with or without an image extension. */
export const BUNDLED_COVER = /^book-(?:[1-9]|1\d|2[0-3])(?:\.(?:png|jpg|jpeg|webp|svg))?$/;
/** Uploaded covers are content-addressed objects under covers/ in Firebase Storage. */
export const UPLOADED_COVER = /^covers\/[a-f0-9]{32}\.(?:png|jpg|webp|gif)$/;

export function isAllowedCover(value: string): boolean {
  if (BUNDLED_COVER.test(value) || UPLOADED_COVER.test(value)) return true;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
