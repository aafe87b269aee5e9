import { createHmac, generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { ADMIN_AUDIENCE, ADMIN_ISSUER, isStrongSecret, signAdminToken, verifyAdminToken } from './jwt';

const SECRET = 'k'.repeat(64);
const TTL = 3600;
const NOW = Date.UTC(2026, 0, 1);
const nowSeconds = Math.floor(NOW / 1000);
const b64 = (value: object | string) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const claims = (over: Record<string, unknown> = {}) => ({
  sub: 'admin', role: 'admin', ver: 0, aud: ADMIN_AUDIENCE, iss: ADMIN_ISSUER, iat: nowSeconds, exp: nowSeconds + TTL, ...over,
});
/** A token built by hand, so the header can say anything. */
function handMade(header: object, payload: object, secret = SECRET, hash: 'sha256' | 'sha512' = 'sha256') {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac(hash, secret).update(input).digest('base64url')}`;
}
const verify = (token: string, now = NOW) => verifyAdminToken(token, SECRET, TTL, now);

describe('admin JWT (jsonwebtoken, HS256 pinned)', () => {
  it('round-trips with sub, role, ver, aud, iss and a one-hour expiry', () => {
    const token = signAdminToken('admin', 3, SECRET, TTL, NOW);
    const [header] = token.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(verify(token)).toMatchObject({ sub: 'admin', role: 'admin', ver: 3, aud: ADMIN_AUDIENCE, iss: ADMIN_ISSUER, iat: nowSeconds, exp: nowSeconds + TTL });
  });

  it('expires after its lifetime, with 5 s of clock tolerance and no more', () => {
    const token = signAdminToken('admin', 0, SECRET, TTL, NOW);
    expect(verify(token, NOW + (TTL - 1) * 1000)).not.toBeNull();
    expect(verify(token, NOW + (TTL + 4) * 1000)).not.toBeNull();
    expect(verify(token, NOW + (TTL + 6) * 1000)).toBeNull();
  });

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const refused: [string, () => string][] = [
    ['alg none', () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`],
    ['alg none signed by jsonwebtoken', () => jwt.sign(claims(), null as unknown as string, { algorithm: 'none' })],
    ['HS512 with the real secret', () => handMade({ alg: 'HS512', typ: 'JWT' }, claims(), SECRET, 'sha512')],
    ['RS256 signed with a key the attacker chose', () => jwt.sign(claims(), privateKey, { algorithm: 'RS256' })],
    ['HS256 signed with another secret', () => handMade({ alg: 'HS256', typ: 'JWT' }, claims(), 'x'.repeat(64))],
    ['a kid header', () => handMade({ alg: 'HS256', typ: 'JWT', kid: 'other-key' }, claims())],
    ['a jku header', () => handMade({ alg: 'HS256', typ: 'JWT', jku: 'https://evil.example/keys.json' }, claims())],
    ['a jwk header', () => handMade({ alg: 'HS256', typ: 'JWT', jwk: { kty: 'oct', k: b64(SECRET) } }, claims())],
    ['an x5u header', () => handMade({ alg: 'HS256', typ: 'JWT', x5u: 'https://evil.example/cert.pem' }, claims())],
    ['an x5c header', () => handMade({ alg: 'HS256', typ: 'JWT', x5c: ['MIIB'] }, claims())],
    ['another typ', () => handMade({ alg: 'HS256', typ: 'at+jwt' }, claims())],
    ['no typ', () => handMade({ alg: 'HS256' }, claims())],
    ['expired', () => handMade({ alg: 'HS256', typ: 'JWT' }, claims({ iat: nowSeconds - 7200, exp: nowSeconds - 60 }))],
    ['nbf in the future', () => handMade({ alg: 'HS256', typ: 'JWT' }, claims({ nbf: nowSeconds + 60 }))],
    ['iat in the future', () => handMade({ alg: 'HS256', typ: 'JWT' }, claims({ iat: nowSeconds + 60 }))],
    ['another audience', () => handMade({ alg: 'HS256', typ: 'JWT' }, claims({ aud: 'another-app' }))],
    ['another issuer', () => handMade({ alg: 'HS256', typ: 'JWT' }, claims({ iss: 'https://evil.example' }))],
    ['no exp', () => handMade({ alg: 'HS256', typ: 'JWT' }, { ...claims(), exp: undefined })],
    ['a lifetime longer than one hour', () => handMade({ alg: 'HS256', typ: 'JWT' }, claims({ iat: nowSeconds - 7200, exp: nowSeconds + 3600 }))],
    ['a customer role', () => handMade({ alg: 'HS256', typ: 'JWT' }, claims({ role: 'customer' }))],
    ['no token version', () => handMade({ alg: 'HS256', typ: 'JWT' }, { ...claims(), ver: undefined })],
    ['a modified payload', () => {
      const [header, , signature] = signAdminToken('admin', 0, SECRET, TTL, NOW).split('.');
      return `${header}.${b64(claims({ sub: 'root' }))}.${signature}`;
    }],
    ['over 4 KB, validly signed', () => signAdminToken(`admin${'x'.repeat(4000)}`, 0, SECRET, TTL, NOW)],
    ['garbage', () => 'not.a.jwt'],
    ['an empty string', () => ''],
    ['three dots', () => '...'],
  ];
  it.each(refused)('refuses %s', (_name, make) => {
    expect(() => verify(make())).not.toThrow();
    expect(verify(make())).toBeNull();
  });

  it('accepts none of it with a weak or empty secret, and will not sign with one', () => {
    const token = signAdminToken('admin', 0, SECRET, TTL, NOW);
    expect(verifyAdminToken(token, '', TTL, NOW)).toBeNull();
    expect(verifyAdminToken(token, SECRET.slice(0, 31), TTL, NOW)).toBeNull();
    expect(() => signAdminToken('admin', 0, '', TTL, NOW)).toThrow();
    expect(() => signAdminToken('admin', 0, 'short-secret', TTL, NOW)).toThrow(/32 bytes/);
    expect(isStrongSecret('a'.repeat(32))).toBe(true);
    expect(isStrongSecret('a'.repeat(31))).toBe(false);
  });
});
