import type { Request } from 'express';
import { adminJwtSecret } from '../config';
import { auth } from './firebase';
import { HttpError } from './http-error';
import { verifyAdminToken, type AdminClaims } from './jwt';

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

export function jwtSecret(): string {
  try {
    return adminJwtSecret.value() ?? '';
  } catch {
    return '';
  }
}

export function adminFromRequest(req: Request): AdminClaims | null {
  const token = bearerToken(req);
  return token ? verifyAdminToken(token, jwtSecret()) : null;
}

export function requireAdmin(req: Request): AdminClaims {
  const token = bearerToken(req);
  if (!token) throw new HttpError(401, 'Admin token required');
  const claims = verifyAdminToken(token, jwtSecret());
  if (!claims) throw new HttpError(401, 'Invalid or expired admin token');
  return claims;
}

export interface Customer {
  uid: string;
  email: string;
}

/** A signed-in customer from a Firebase ID token; revoked or disabled accounts are refused. */
export async function requireCustomer(req: Request): Promise<Customer> {
  const token = bearerToken(req);
  if (!token) throw new HttpError(401, 'Sign in to continue');
  try {
    const decoded = await auth().verifyIdToken(token, true);
    if (!decoded.email) throw new HttpError(403, 'Your account has no email address');
    return { uid: decoded.uid, email: decoded.email };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(401, 'Your session is not valid. Please sign in again');
  }
}

/** Either kind of caller, for routes both may use (an admin reading a customer's orders). */
export async function requireCustomerOrAdmin(req: Request): Promise<{ admin: AdminClaims } | { customer: Customer }> {
  const token = bearerToken(req);
  if (token && token.split('.').length === 3) {
    const admin = verifyAdminToken(token, jwtSecret());
    if (admin) return { admin };
  }
  return { customer: await requireCustomer(req) };
}
