import type { Request, Response } from 'express';
import { adminClaims, bearerToken, currentAdmin } from './auth';
import { HttpError } from './http-error';

// Hosting's CDN keys its cache on the path, the query string and the headers named in Vary, and
// keeps a 404 without cache headers for 10 minutes. So nothing a caller sends may choose between
// the cached and the private path or mint new cache entries, and no error may be stored.

/** Catalogue answers sit in the CDN for a minute; browsers revalidate. */
export const CATALOGUE_PUBLIC = 'public, max-age=0, s-maxage=60';
/**
 * Uploaded covers are content-addressed (covers/<first 32 hex digits of the sha256>.<ext>): a name never changes bytes, so
 * browsers keep them a year; the CDN only an hour, so a deleted cover stops being served soon.
 */
export const COVER_CACHE = 'public, max-age=31536000, s-maxage=3600, immutable';

/**
 * Catalogue reads: private and uncached only for a current admin (the admin browsing after an edit
 * sees their own writes; admin-session.ts checked the token's signature and version). Call it before
 * any read. A well-signed admin token that is no longer current (logged out elsewhere, password
 * changed) reads as anonymous, so a stale admin tab still shows the shop. Any other Authorization
 * (garbage, a forged or expired token, a customer's token) gets 401 at no cost, rather than a
 * Firestore read that its unique header would keep out of the CDN.
 */
export function catalogueCache(req: Request, res: Response): void {
  res.vary('Authorization');
  const token = bearerToken(req); // 400/401 for two headers or another scheme
  if (token && currentAdmin(req)) {
    res.set('Cache-Control', 'private, no-store');
    return;
  }
  if (token && !adminClaims(token)) throw new HttpError(401, 'Invalid or expired admin token');
  res.set('Cache-Control', CATALOGUE_PUBLIC);
}

export function noStore(res: Response): void {
  res.set('Cache-Control', 'private, no-store');
}

/**
 * Refuses query parameters a cacheable route does not read: each would be another CDN entry
 * (and another function call). The field is named in the message and in `details`.
 */
export function rejectUnknownQuery(req: Request, known: readonly string[] = []): void {
  const unknown = Object.keys(req.query).filter((key) => !known.includes(key));
  if (unknown.length === 0) return;
  const details = Object.fromEntries(unknown.map((key) => [key, ['Unknown query parameter']]));
  throw new HttpError(400, `Unknown query parameter: ${unknown[0]}`, { details });
}

/**
 * Every answer is `no-store` unless its handler opts into caching: the first middleware of each app.
 * Errors are `no-store` whatever a handler set before it threw: the error handler (errors.ts) and
 * the few answers written before Express (body-parse-errors.ts) say so themselves.
 */
export function noStoreByDefault(_req: Request, res: Response, next: () => void): void {
  res.set('Cache-Control', 'no-store');
  next();
}
