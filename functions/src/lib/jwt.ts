import { createHmac, timingSafeEqual } from 'node:crypto';

// A deliberately small HS256 JWT: the algorithm is pinned, so `alg: none`, HS512 or RS256 tokens
// are refused before any signature is compared.
const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
export const ADMIN_AUDIENCE = 'bookstore-admin';

export interface AdminClaims {
  sub: string;
  role: 'admin';
  aud: typeof ADMIN_AUDIENCE;
  iat: number;
  exp: number;
}

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

function sign(input: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(input).digest();
}

export function signAdminToken(username: string, secret: string, ttlSeconds: number, now = Date.now()): string {
  if (!secret) throw new Error('No signing secret');
  const iat = Math.floor(now / 1000);
  const claims: AdminClaims = { sub: username, role: 'admin', aud: ADMIN_AUDIENCE, iat, exp: iat + ttlSeconds };
  const payload = base64url(JSON.stringify(claims));
  return `${HEADER}.${payload}.${base64url(sign(`${HEADER}.${payload}`, secret))}`;
}

/** The claims of a valid, unexpired admin token, or null. Never throws on bad input. */
export function verifyAdminToken(token: string, secret: string, now = Date.now()): AdminClaims | null {
  if (!secret || token.length > 4096) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  if (header !== HEADER) return null; // pins alg and typ byte for byte
  const expected = sign(`${header}.${payload}`, secret);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<AdminClaims>;
    if (claims.role !== 'admin' || claims.aud !== ADMIN_AUDIENCE || typeof claims.sub !== 'string') return null;
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now) return null;
    return claims as AdminClaims;
  } catch {
    return null;
  }
}
