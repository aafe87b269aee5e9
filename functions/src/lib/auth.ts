import type { Request } from 'express';
import { ADMIN_TOKEN_TTL_SECONDS, adminJwtSecret } from '../config';
import { auth } from './firebase';
import { HttpError } from './http-error';
import { isStrongSecret, verifyAdminToken, type AdminClaims } from './jwt';

/** The bearer token, refusing requests that carry two Authorization headers. */
export function bearerToken(req: Request): string | null {
  const count = req.rawHeaders.filter((_, i) => i % 2 === 0 && req.rawHeaders[i]!.toLowerCase() === 'authorization').length;
  if (count > 1) throw new HttpError(400, 'Send a single Authorization header');
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer ([A-Za-z0-9._~+/=-]{1,4096})$/.exec(header);
  if (!match) throw new HttpError(401, 'Authorization must be a Bearer token');
  return match[1]!;
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

// Admin tokens whose version was checked against the admin's document for this request, by the
// session middleware (admin/admin-session.ts). requireAdmin stays synchronous and fails closed:
// a route reached without that middleware sees no admin at all.
const currentAdmins = new WeakMap<Request, AdminClaims>();

export function markCurrentAdmin(req: Request, claims: AdminClaims): void {
  currentAdmins.set(req, claims);
}

/** The admin behind this request, if its token is valid and not revoked; never throws. */
export function currentAdmin(req: Request): AdminClaims | null {
  return currentAdmins.get(req) ?? null;
}

export function requireAdmin(req: Request): AdminClaims {
  const token = bearerToken(req);
  if (!token) throw new HttpError(401, 'Admin token required');
  // Only where the start-up check does not run (Cloud Run refuses to start without a strong key).
  if (!jwtSecret()) throw new HttpError(503, 'Admin sign-in is not configured');
  const claims = currentAdmin(req);
  if (!claims) throw new HttpError(401, 'Invalid or expired admin token');
  return claims;
}

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

/** Either kind of caller, for routes both may use (an admin reading a customer's orders). */
export async function requireCustomerOrAdmin(req: Request): Promise<{ admin: AdminClaims } | { customer: Customer }> {
  const admin = currentAdmin(req);
  if (admin) return { admin };
  return { customer: await requireCustomer(req) };
}
