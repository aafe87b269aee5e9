import jwt from 'jsonwebtoken';

// Admin tokens: HS256 JWTs signed and verified by jsonwebtoken, with every choice pinned here
// rather than read from the token: the algorithm list, audience, issuer, lifetime and clock
// tolerance. https://github.com/auth0/node-jsonwebtoken#jwtverifytoken-secretorpublickey-options-callback
export const ADMIN_AUDIENCE = 'bookstore-admin';
export const ADMIN_ISSUER = 'bookstore-api';
export const MAX_ADMIN_TOKEN_CHARS = 4096;
export const MIN_SECRET_BYTES = 32;
const CLOCK_TOLERANCE_SECONDS = 5;
// Headers that point a verifier at another key; we have one key, so a token naming any is forged.
const KEY_POINTING_HEADERS = ['kid', 'jku', 'jwk', 'x5u', 'x5c', 'x5t', 'x5t#S256', 'crit'];

export interface AdminClaims {
  sub: string;
  role: 'admin';
  /** The admin's token version when the token was issued: logout and password changes bump it. */
  ver: number;
  aud: typeof ADMIN_AUDIENCE;
  iss: typeof ADMIN_ISSUER;
  iat: number;
  exp: number;
}

/** HS256 is only as strong as its key: 32 bytes (256 bits) at least, as RFC 7518 section 3.2 asks. */
export function isStrongSecret(secret: string): boolean {
  return Buffer.byteLength(secret, 'utf8') >= MIN_SECRET_BYTES;
}

export function signAdminToken(username: string, version: number, secret: string, ttlSeconds: number, now = Date.now()): string {
  if (!isStrongSecret(secret)) throw new Error(`The admin token secret must be at least ${MIN_SECRET_BYTES} bytes`);
  return jwt.sign({ role: 'admin', ver: version, iat: Math.floor(now / 1000) }, secret, {
    algorithm: 'HS256',
    audience: ADMIN_AUDIENCE,
    issuer: ADMIN_ISSUER,
    subject: username,
    expiresIn: ttlSeconds,
  });
}

/**
 * The claims of a valid, current admin token, or null. Never throws on bad input. The header is
 * checked before jsonwebtoken sees the token: `typ` must be JWT and no key-pointing header may
 * be present (we never follow one, but a token that carries one was not made by us).
 */
export function verifyAdminToken(token: string, secret: string, ttlSeconds: number, now = Date.now()): AdminClaims | null {
  if (typeof token !== 'string' || token.length > MAX_ADMIN_TOKEN_CHARS || !isStrongSecret(secret)) return null;
  try {
    const decoded = jwt.decode(token, { complete: true });
    if (!decoded || typeof decoded.payload !== 'object') return null;
    const header = decoded.header as unknown as Record<string, unknown>;
    if (header.alg !== 'HS256' || header.typ !== 'JWT') return null;
    if (KEY_POINTING_HEADERS.some((name) => name in header)) return null;
    const claims = jwt.verify(token, secret, {
      algorithms: ['HS256'],
      audience: ADMIN_AUDIENCE,
      issuer: ADMIN_ISSUER,
      clockTimestamp: Math.floor(now / 1000),
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      maxAge: ttlSeconds, // refuses a token whose iat is older than one lifetime, whatever its exp says
    }) as Partial<AdminClaims>;
    // jsonwebtoken accepts a token without exp and one issued in the future; ours are neither.
    if (claims.role !== 'admin' || typeof claims.sub !== 'string' || claims.sub.length === 0) return null;
    if (!Number.isSafeInteger(claims.ver) || claims.ver! < 0) return null;
    if (typeof claims.exp !== 'number' || typeof claims.iat !== 'number') return null;
    if (claims.iat > Math.floor(now / 1000) + CLOCK_TOLERANCE_SECONDS) return null; // issued "later": not by us
    return claims as AdminClaims;
  } catch {
    return null;
  }
}
