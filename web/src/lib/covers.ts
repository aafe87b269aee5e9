import { BUNDLED_COVER, UPLOADED_COVER } from '@bookstore/contract';

const FALLBACK = '/covers/book-1.svg';

/**
 * Resolves a book's coverImage to an address: bundled names to the shipped SVGs, uploaded covers
 * to the function's immutable /api/covers route. Anything else (an outside URL from old data, which
 * the CSP would block anyway, or a `javascript:` value) gets a safe default: covers come from our
 * origin only, so no cover can track shoppers (contract/src/covers.ts).
 */
export function coverUrl(coverImage: string | undefined): string {
  if (!coverImage) return FALLBACK;
  if (BUNDLED_COVER.test(coverImage)) return `/covers/${coverImage.replace(/\.[a-z]+$/, '')}.svg`;
  if (UPLOADED_COVER.test(coverImage)) return `/api/${coverImage}`;
  return FALLBACK;
}
