import { coverPath } from '@bookstore/contract';

/**
 * Resolves a book's coverImage to an address (contract/src/covers.ts): bundled names to the shipped
 * SVGs, uploaded covers to the function's immutable /api/covers route. Anything else (an outside URL
 * from old data, which the CSP would block anyway, or a `javascript:` value) gets a safe default:
 * covers come from our origin only, so no cover can track shoppers.
 */
export const coverUrl = coverPath;
