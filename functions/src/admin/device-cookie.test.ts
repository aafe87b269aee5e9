import { describe, expect, it } from 'vitest';
import { DEVICE_TTL_SECONDS, deviceSetCookie, trustedDevice } from './device-cookie';

const SECRET = 'a'.repeat(64);
const NOW = Date.UTC(2026, 10, 25, 12);
/** The Cookie header a browser sends back for a Set-Cookie value. */
const cookieFrom = (setCookie: string) => setCookie.split(';')[0]!;

describe('device cookie', () => {
  it('is HttpOnly, Secure, SameSite=Strict, sent only to the sign-in route, and proves the username it was issued for', () => {
    const set = deviceSetCookie(undefined, 'sam', SECRET, NOW);
    expect(set).toMatch(/^__session=[A-Za-z0-9_.~-]+; Path=\/api\/auth\/admin; Max-Age=7776000; HttpOnly; Secure; SameSite=Strict$/);
    const device = trustedDevice(cookieFrom(set), 'sam', SECRET, NOW);
    expect(device).toMatchObject({ username: 'sam', exp: NOW / 1000 + DEVICE_TTL_SECONDS });
    expect(device!.nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(trustedDevice(cookieFrom(set), 'admin', SECRET, NOW)).toBeNull();
  });

  it('is refused when altered, signed with another key, expired or malformed', () => {
    const cookie = cookieFrom(deviceSetCookie(undefined, 'sam', SECRET, NOW));
    const token = cookie.slice('__session='.length);
    const [user, nonce, exp, mac] = token.split('.') as [string, string, string, string];
    const forged = (parts: string[]) => `__session=${parts.join('.')}`;
    expect(trustedDevice(forged([Buffer.from('admin').toString('base64url'), nonce, exp, mac]), 'admin', SECRET, NOW)).toBeNull();
    expect(trustedDevice(forged([user, nonce, String(Number(exp) + 1), mac]), 'sam', SECRET, NOW)).toBeNull();
    expect(trustedDevice(forged([user, nonce, exp, `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`]), 'sam', SECRET, NOW)).toBeNull();
    expect(trustedDevice(cookie, 'sam', 'b'.repeat(64), NOW)).toBeNull();
    expect(trustedDevice(cookie, 'sam', SECRET, NOW + DEVICE_TTL_SECONDS * 1000)).toBeNull();
    const oversized = `${cookie}; padding=${'x'.repeat(4096)}`; // a valid device inside a header over 4 KB
    for (const bad of ['', '__session=', '__session=a.b.c', `__session=${token}.x`, `__session=${'x'.repeat(5000)}`, `other=${token}`, oversized]) {
      expect(trustedDevice(bad, 'sam', SECRET, NOW), bad.slice(0, 40)).toBeNull();
    }
  });

  it('is found in any __session of the header (one planted first does not hide it)', () => {
    const planted = cookieFrom(deviceSetCookie(undefined, 'sam', 'b'.repeat(64), NOW));
    const real = cookieFrom(deviceSetCookie(undefined, 'sam', SECRET, NOW));
    expect(trustedDevice(`${planted}; ${real}`, 'sam', SECRET, NOW)?.username).toBe('sam');
    const merged = cookieFrom(deviceSetCookie(`${real}; ${real}`, 'ann', SECRET, NOW)).slice('__session='.length).split('~');
    expect(merged).toHaveLength(2); // ann's new device and sam's, once
  });

  it('is found among other cookies, and one browser keeps the devices of up to 4 usernames, newest first', () => {
    let header: string | undefined;
    for (const name of ['ann', 'bob', 'cat', 'dan', 'eve']) header = `theme=dark; ${cookieFrom(deviceSetCookie(header, name, SECRET, NOW))}; lang=en`;
    for (const name of ['bob', 'cat', 'dan', 'eve']) expect(trustedDevice(header, name, SECRET, NOW)?.username).toBe(name);
    expect(trustedDevice(header, 'ann', SECRET, NOW)).toBeNull(); // the oldest made room
    const again = cookieFrom(deviceSetCookie(header, 'cat', SECRET, NOW));
    expect(trustedDevice(again, 'cat', SECRET, NOW)!.nonce).not.toBe(trustedDevice(header, 'cat', SECRET, NOW)!.nonce); // a fresh device each sign-in
    expect(again.slice('__session='.length).split('~')).toHaveLength(4);
  });
});
