import { can, TOTP_SETUP_REQUIRED, type Permission, type Role } from '@bookstore/contract';
import type { Request } from 'express';
import { ADMIN_TOKEN_TTL_SECONDS, adminJwtSecret } from '../config';
import { auth } from './firebase';
import { HttpError } from './http-error';
import { isStrongSecret, verifyAdminToken, type AdminClaims } from './jwt';

/** The token of an `Authorization: Bearer <token>` header, or null when it is not one. */
export function parseBearer(header: string | undefined): string | null {
  return /^Bearer ([A-Za-z0-9._~+/=-]{1,4096})$/.exec(header ?? '')?.[1] ?? null;
}

/** The bearer token, refusing requests that carry two Authorization headers. */
export function bearerToken(req: Request): string | null {
  const count = req.rawHeaders.filter((_, i) => i % 2 === 0 && req.rawHeaders[i]!.toLowerCase() === 'authorization').length;
  if (count > 1) throw new HttpError(400, 'Send a single Authorization header');
  const header = req.headers.authorization;
  if (!header) return null;
  const token = parseBearer(header);
  if (!token) throw new HttpError(401, 'Authorization must be a Bearer token');
  return token;
}

/** The admin token key, or '' when it is missing or shorter than 32 bytes (then nothing is signed or accepted). */
export function jwtSecret(): string {
  try {
    const secret = adminJwtSecret.value() ?? '';
    return isStrongSecret(secret) ? secret : '';
  } catch {
    return '';
  }
}

/** The token's claims if it is a well-signed, unexpired admin token; whether it is still current is the session's job. */
export function adminClaims(token: string): AdminClaims | null {
  return verifyAdminToken(token, jwtSecret(), ADMIN_TOKEN_TTL_SECONDS);
}

/** The staff member behind a request, as the session middleware read them from their document. */
export interface StaffActor {
  username: string;
  displayName: string;
  role: Role;
  totpEnabled: boolean;
  /** The shop requires two-factor sign-in of this role and it is not on: only enrolment routes work. */
  totpSetupRequired: boolean;
}

// Admin tokens whose version was checked against the staff member's document for this request, by
// the session middleware (admin/admin-session.ts). requireStaff stays synchronous and fails closed:
// a route reached without that middleware sees no staff member at all.
const currentAdmins = new WeakMap<Request, { claims: AdminClaims; actor: StaffActor }>();

export function markCurrentAdmin(req: Request, claims: AdminClaims, actor: StaffActor): void {
  currentAdmins.set(req, { claims, actor });
}

/** The staff member behind this request, if their token is valid and not revoked; never throws. */
export function currentAdmin(req: Request): StaffActor | null {
  return currentAdmins.get(req)?.actor ?? null;
}

/**
 * Any signed-in staff member, whatever their role, even one who still has to set up two-factor
 * sign-in: for their own profile, enrolment and sign-out only. Every other route uses requirePermission.
 */
export function requireStaff(req: Request): StaffActor {
  const token = bearerToken(req);
  if (!token) throw new HttpError(401, 'Admin token required');
  // Only where the start-up check does not run (Cloud Run refuses to start without a strong key).
  if (!jwtSecret()) throw new HttpError(503, 'Admin sign-in is not configured');
  const actor = currentAdmin(req);
  if (!actor) throw new HttpError(401, 'Invalid or expired admin token');
  return actor;
}

/** The staff member, if the policy table (contract/src/staff.ts) lets their role do `permission`; 403 otherwise. */
export function requirePermission(req: Request, permission: Permission): StaffActor {
  const actor = requireStaff(req);
  assertPermission(actor, permission);
  return actor;
}

/** For checks that depend on what a request changes (a book edit that touches only the stock). */
export function assertPermission(actor: StaffActor, permission: Permission): void {
  assertActive(actor);
  if (!can(actor.role, permission)) throw forbidden();
}

/** A staff member who may act at all (not one who must set up two-factor sign-in first); what they may change is checked later. */
export function assertActive(actor: StaffActor): void {
  if (actor.totpSetupRequired) {
    throw new HttpError(403, 'Turn on two-factor sign-in first (your profile menu)', { code: TOTP_SETUP_REQUIRED });
  }
}

/** The answer to a staff member whose role does not hold the permission a request needs. */
export const forbidden = () => new HttpError(403, 'Your role does not allow this', { code: 'FORBIDDEN' });

export interface Customer {
  uid: string;
  email: string;
  /** The token's `email_verified`: Google accounts have it; email/password ones after the emailed link. */
  emailVerified: boolean;
}

/** A signed-in customer from a Firebase ID token; revoked or disabled accounts are refused. */
export async function requireCustomer(req: Request): Promise<Customer> {
  const token = bearerToken(req);
  if (!token) throw new HttpError(401, 'Sign in to continue');
  try {
    const decoded = await auth().verifyIdToken(token, true);
    if (!decoded.email) throw new HttpError(403, 'Your account has no email address');
    return { uid: decoded.uid, email: decoded.email, emailVerified: decoded.email_verified === true };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(401, 'Your session is not valid. Please sign in again');
  }
}

/** Either kind of caller, for routes both may use (staff reading a customer's orders, with `permission`). */
export async function requireCustomerOrAdmin(req: Request, permission: Permission): Promise<{ admin: StaffActor } | { customer: Customer }> {
  const admin = currentAdmin(req);
  if (admin) {
    assertPermission(admin, permission);
    return { admin };
  }
  return { customer: await requireCustomer(req) };
}
