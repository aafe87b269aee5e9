import { canonicalAdminUsername } from '@bookstore/contract';
import type { NextFunction, Request, Response } from 'express';
import { adminClaims, bearerToken, markCurrentAdmin } from '../lib/auth';
import { currentTokenVersion } from './admins.repo';

/**
 * Runs before every route: when the request carries a valid admin token, reads the admin's
 * document once (one extra Firestore read per admin call) and accepts the token only if the admin
 * still exists and its token version is the one in the token, so logout, a new password or a
 * deleted admin end every earlier token at once. Customers' tokens and anonymous requests cost
 * nothing here; a malformed Authorization header is left for the route to refuse.
 */
export async function adminSession(req: Request, _res: Response, next: NextFunction): Promise<void> {
  let token: string | null;
  try {
    token = bearerToken(req);
  } catch {
    return next(); // two headers or not a Bearer token: the route's own check answers it
  }
  const claims = token ? adminClaims(token) : null;
  if (!claims || canonicalAdminUsername(claims.sub) !== claims.sub) return next();
  try {
    if ((await currentTokenVersion(claims.sub)) === claims.ver) markCurrentAdmin(req, claims);
    next();
  } catch (error) {
    next(error);
  }
}
