import { createHmac, timingSafeEqual } from 'node:crypto';

// Signed links in the shop's mail (issue 28): newsletter confirmation, newsletter and back-in-stock
// unsubscription. A token is `base64url(JSON payload) . base64url(HMAC-SHA256)`. The HMAC key is
// derived from ADMIN_JWT_SECRET (the one secret the `api` function declares) for each purpose:
// key = HMAC-SHA256(secret, "bookstore mail link v1:" + purpose). So a mailed token can never pass
// as an admin token (another key, and not a JWT), a confirmation token cannot unsubscribe anyone,
// and no second secret has to be created, rotated and declared. Rotating ADMIN_JWT_SECRET voids
// the links already mailed (and signs every admin out), which the decision record accepts:
// docs/decisions/028-restock-alerts-and-mail-links.md.

export type MailLinkPurpose = 'newsletter-confirm' | 'newsletter-unsubscribe' | 'alerts-unsubscribe';

export interface MailLinkClaims {
  /** The purpose the token was signed for. */
  p: MailLinkPurpose;
  /** The address (normalised: trimmed, lower case). */
  e: string;
  /** A value the stored record must still hold (a pending subscription's nonce), if any. */
  n?: string;
  /** Expiry, seconds since the epoch, if any (unsubscribe links never expire). */
  x?: number;
}

const b64url = (buffer: Buffer) => buffer.toString('base64url');

function keyFor(secret: string, purpose: MailLinkPurpose): Buffer {
  return createHmac('sha256', secret).update(`bookstore mail link v1:${purpose}`).digest();
}

function signature(secret: string, purpose: MailLinkPurpose, payload: string): Buffer {
  return createHmac('sha256', keyFor(secret, purpose)).update(payload).digest();
}

export function signMailLink(claims: MailLinkClaims, secret: string): string {
  if (!secret) throw new Error('Mail links need ADMIN_JWT_SECRET');
  const payload = b64url(Buffer.from(JSON.stringify(claims), 'utf8'));
  return `${payload}.${b64url(signature(secret, claims.p, payload))}`;
}

/** The claims of a well-signed, unexpired token of `purpose`, or null. Never throws on bad input. */
export function verifyMailLink(token: string, purpose: MailLinkPurpose, secret: string, now = Date.now()): MailLinkClaims | null {
  if (!secret || typeof token !== 'string') return null;
  const [payload, sig, extra] = token.split('.');
  if (!payload || !sig || extra !== undefined) return null;
  const expected = signature(secret, purpose, payload);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let claims: MailLinkClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as MailLinkClaims;
  } catch {
    return null;
  }
  if (!claims || claims.p !== purpose || typeof claims.e !== 'string' || !claims.e) return null;
  if (claims.x !== undefined && (typeof claims.x !== 'number' || claims.x * 1000 < now)) return null;
  return claims;
}

/** Which purpose a well-formed token claims (unverified: only to pick the key to verify it with). */
export function claimedPurpose(token: string): MailLinkPurpose | null {
  try {
    const p = (JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as { p?: unknown }).p;
    return p === 'newsletter-confirm' || p === 'newsletter-unsubscribe' || p === 'alerts-unsubscribe' ? p : null;
  } catch {
    return null;
  }
}
