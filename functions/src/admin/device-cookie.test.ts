import { describe, expect, it } from 'vitest';
import { DEVICE_TTL_SECONDS, deviceSetCookie, trustedDevice } from './device-cookie';

const SECRET = 'a'.repeat(64);
const NOW = Date.UTC(2026, 10, 25, 12);
/** The Cookie header a browser sends back for a Set-Cookie value. */
const cookieFrom = (setCookie: string) => setCookie.split(';')[0]!;

describe('device cookie', () => {
  it('is HttpOnly, Secure, SameSite=Strict, sent only to the sign-in route, and proves the username it was issued for', () => {
    const set = deviceSetCookie(undefined, 'sam', SECRET, 0, NOW);
    expect(set).toMatch(/^__session=[A-Za-z0-9_.~-]+; Path=\/api\/auth\/admin; Max-Age=7776000; HttpOnly; Secure; SameSite=Strict$/);
    const device = trustedDevice(cookieFrom(set), 'sam', SECRET, 0, NOW);
    expect(device).toMatchObject({ username: 'sam', exp: NOW / 1000 + DEVICE_TTL_SECONDS });
    expect(device!.nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(trustedDevice(cookieFrom(set), 'admin', SECRET, 0, NOW)).toBeNull();
  });

  it('is refused when altered, signed with another key, expired or malformed', () => {
    const cookie = cookieFrom(deviceSetCookie(undefined, 'sam', SECRET, 0, NOW));
    const token = cookie.slice('__session='.length);
    const [user, nonce, exp, epoch, mac] = token.split('.') as [string, string, string, string, string];
    const forged = (parts: string[]) => `__session=${parts.join('.')}`;
    expect(trustedDevice(forged([Buffer.from('admin').toString('base64url'), nonce, exp, epoch, mac]), 'admin', SECRET, 0, NOW)).toBeNull();
    expect(trustedDevice(forged([user, nonce, String(Number(exp) + 1), epoch, mac]), 'sam', SECRET, 0, NOW)).toBeNull();
    expect(trustedDevice(forged([user, nonce, exp, epoch, `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`]), 'sam', SECRET, 0, NOW)).toBeNull();
    expect(trustedDevice(cookie, 'sam', 'b'.repeat(64), 0, NOW)).toBeNull();
    expect(trustedDevice(cookie, 'sam', SECRET, 0, NOW + DEVICE_TTL_SECONDS * 1000)).toBeNull();
    const oversized = `${cookie}; padding=${'x'.repeat(4096)}`; // a valid device inside a header over 4 KB
    for (const bad of ['', '__session=', '__session=a.b.c', `__session=${token}.x`, `__session=${'x'.repeat(5000)}`, `other=${token}`, oversized]) {
      expect(trustedDevice(bad, 'sam', SECRET, 0, NOW), bad.slice(0, 40)).toBeNull();
    }
  });

  it('is void once the person\'s device epoch moved on (a new password, two-factor on or off, disabled), and for no one (issue 36)', () => {
    const cookie = cookieFrom(deviceSetCookie(undefined, 'sam', SECRET, 3, NOW));
    const token = cookie.slice('__session='.length);
    expect(trustedDevice(cookie, 'sam', SECRET, 3, NOW)?.epoch).toBe(3);
    expect(trustedDevice(cookie, 'sam', SECRET, 4, NOW)).toBeNull();
    expect(trustedDevice(cookie, 'sam', SECRET, null, NOW)).toBeNull();
    // Its epoch rewritten to the current one: the signature no longer holds.
    const [user, nonce, exp, , mac] = token.split('.') as [string, string, string, string, string];
    expect(trustedDevice(`__session=${[user, nonce, exp, '4', mac].join('.')}`, 'sam', SECRET, 4, NOW)).toBeNull();
    // A cookie of the old shape (no epoch) is no device.
    expect(trustedDevice(`__session=${[user, nonce, exp, mac].join('.')}`, 'sam', SECRET, 0, NOW)).toBeNull();
  });

  it('is found in any __session of the header (one planted first does not hide it)', () => {
    const planted = cookieFrom(deviceSetCookie(undefined, 'sam', 'b'.repeat(64), 0, NOW));
    const real = cookieFrom(deviceSetCookie(undefined, 'sam', SECRET, 0, NOW));
    expect(trustedDevice(`${planted}; ${real}`, 'sam', SECRET, 0, NOW)?.username).toBe('sam');
    const merged = cookieFrom(deviceSetCookie(`${real}; ${real}`, 'ann', SECRET, 0, NOW)).slice('__session='.length).split('~');
    expect(merged).toHaveLength(2); // ann's new device and sam's, once
  });

  it('is found among other cookies, and one browser keeps the devices of up to 4 usernames, newest first', () => {
    let header: string | undefined;
    for (const name of ['ann', 'bob', 'cat', 'dan', 'eve']) header = `theme=dark; ${cookieFrom(deviceSetCookie(header, name, SECRET, 0, NOW))}; lang=en`;
    for (const name of ['bob', 'cat', 'dan', 'eve']) expect(trustedDevice(header, name, SECRET, 0, NOW)?.username).toBe(name);
    expect(trustedDevice(header, 'ann', SECRET, 0, NOW)).toBeNull(); // the oldest made room
    const again = cookieFrom(deviceSetCookie(header, 'cat', SECRET, 0, NOW));
    expect(trustedDevice(again, 'cat', SECRET, 0, NOW)!.nonce).not.toBe(trustedDevice(header, 'cat', SECRET, 0, NOW)!.nonce); // a fresh device each sign-in
    expect(again.slice('__session='.length).split('~')).toHaveLength(4);
  });
});
