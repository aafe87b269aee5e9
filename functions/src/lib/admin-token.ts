import { ADMIN_TOKEN_TTL_SECONDS, adminJwtSecret } from '../config';
import { isStrongSecret, verifyAdminToken, type AdminClaims } from './jwt';

// Admin tokens' signature and expiry, without the Firebase SDK: the body limits (body-parse-errors.ts,
// loaded by every function's entry) refuse an anonymous upload with them before any function's own
// code has loaded. Whether a token is still current is the session's job (admin/admin-session.ts).

/** The token of an `Authorization: Bearer <token>` header, or null when it is not one. */
export function parseBearer(header: string | undefined): string | null {
  return /^Bearer ([A-Za-z0-9._~+/=-]{1,4096})$/.exec(header ?? '')?.[1] ?? null;
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

