import { canonicalAdminUsername, TOTP_REQUIRED_ROLES } from '@bookstore/contract';
import type { NextFunction, Request, Response } from 'express';
import { adminClaims, bearerToken, markCurrentAdmin, sessionKey } from '../lib/auth';
import { db } from '../lib/firebase';
import { countReads } from '../lib/read-counter';
import { admins, roleOf, type AdminDoc } from './admins.repo';
import { settingsFrom, settingsRef } from './settings.repo';

/**
 * Runs before every route: when the request carries a valid admin token, reads the staff member's
 * document and the shop settings in one round trip (two document reads per admin call, not cached:
 * revocation and role changes take effect on the very next call, on every instance) and accepts the
 * token only if the person still exists, is not disabled, has a role, and their token version is
 * the one in the token. Logout, a new password, a role change, disabling or deleting them thus end
 * every earlier token at once. Customers' tokens and anonymous requests cost nothing here; a
 * malformed Authorization header is left for the route to refuse.
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
    const [staffSnap, settingsSnap] = await db().getAll(admins().doc(claims.sub), settingsRef());
    countReads(2);
    const staff = staffSnap?.exists ? (staffSnap.data() as AdminDoc) : null;
    const role = staff ? roleOf(staff) : null;
    if (staff && role && !staff.disabled && (staff.tokenVersion ?? 0) === claims.ver) {
      const totpEnabled = Boolean(staff.totpSecret);
      const totpSetupRequired = settingsFrom(settingsSnap).requireTotp && TOTP_REQUIRED_ROLES.includes(role) && !totpEnabled && !staff.totpExempt;
      // This session's last proof (a sign-in, a re-entered password): sensitive actions ask for one.
      const provedAt = staff.proofs?.[sessionKey(token!)];
      markCurrentAdmin(req, claims, { username: staff.username, displayName: staff.displayName ?? staff.username, role, totpEnabled, totpSetupRequired }, typeof provedAt === 'number' ? provedAt : null);
    }
    next();
  } catch (error) {
    next(error);
  }
}
