import { describe, expect, it } from 'vitest';
import { signAdminToken, verifyAdminToken } from './jwt';

const SECRET = 'test-secret-of-enough-length';

describe('admin JWT', () => {
  it('round-trips and expires after its lifetime', () => {
    const now = Date.UTC(2026, 0, 1);
    const token = signAdminToken('admin', SECRET, 3600, now);
    expect(verifyAdminToken(token, SECRET, now + 3599_000)?.sub).toBe('admin');
    expect(verifyAdminToken(token, SECRET, now + 3600_000)).toBeNull();
  });

  it('refuses other secrets, other algorithms, tampering and an empty secret', () => {
    const token = signAdminToken('admin', SECRET, 3600);
    const [, payload, signature] = token.split('.');
    expect(verifyAdminToken(token, 'other')).toBeNull();
    expect(verifyAdminToken(token, '')).toBeNull();
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    expect(verifyAdminToken(none, SECRET)).toBeNull();
    const hs512 = `${Buffer.from('{"alg":"HS512","typ":"JWT"}').toString('base64url')}.${payload}.${signature}`;
    expect(verifyAdminToken(hs512, SECRET)).toBeNull();
    const forged = Buffer.from(JSON.stringify({ sub: 'root', role: 'admin', aud: 'bookstore-admin', iat: 0, exp: 9e9 })).toString('base64url');
    expect(verifyAdminToken(`${token.split('.')[0]}.${forged}.${signature}`, SECRET)).toBeNull();
    expect(() => signAdminToken('admin', '', 3600)).toThrow();
  });
});
