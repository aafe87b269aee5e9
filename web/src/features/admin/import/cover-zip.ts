import { toIsbn13 } from '@bookstore/contract';

// Bulk covers (issue 26): which files of a zip are covers. A cover is named after its book's ISBN,
// `<isbn>.jpg|jpeg|png|webp` (ISBN-13 or ISBN-10, hyphens allowed), in any folder of the zip.
// Everything else (folders, macOS's __MACOSX copies, other names) is listed as skipped.

export const MAX_COVER_ZIP_BYTES = 200 * 1024 * 1024;

const COVER_NAME = /^([0-9Xx-]{10,17})\.(jpe?g|png|webp)$/i;
const TYPES: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

export interface ZipCover {
  /** The entry's path in the zip. */
  name: string;
  isbn: string;
  type: string;
}

/** The zip entry as a cover to upload, or null (the reason is the caller's 'skipped' list). */
export function coverOf(path: string): ZipCover | null {
  if (path.endsWith('/') || path.split('/').some((part) => part === '__MACOSX' || part.startsWith('._'))) return null;
  const base = path.split('/').pop()!;
  const m = COVER_NAME.exec(base);
  if (!m) return null;
  const isbn = toIsbn13(m[1]!);
  return isbn ? { name: path, isbn, type: TYPES[m[2]!.toLowerCase()]! } : null;
}
