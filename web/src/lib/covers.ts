import { BUNDLED_COVER, UPLOADED_COVER } from '@bookstore/contract';

const FALLBACK = '/covers/book-1.svg';

/**
 * Resolves a book's coverImage to an address: bundled names to the shipped SVGs, uploaded covers
 * to the function's immutable /api/covers route, https URLs as they are; anything else (a
 * `javascript:` or `data:` value that slipped into old data) to a safe default.
 */
export function coverUrl(coverImage: string | undefined): string {
  if (!coverImage) return FALLBACK;
  if (BUNDLED_COVER.test(coverImage)) return `/covers/${coverImage.replace(/\.[a-z]+$/, '')}.svg`;
  if (UPLOADED_COVER.test(coverImage)) return `/api/${coverImage}`;
  try {
    const url = new URL(coverImage);
    if (url.protocol === 'https:') return url.href;
  } catch {
    /* not a URL */
  }
  return FALLBACK;
}
