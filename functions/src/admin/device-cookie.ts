import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// OWASP's device cookie ("Slow Down Online Guessing Attacks with Device Cookies"): a browser that
// has signed in as a username carries a signed proof of it. Its failed attempts count against a
// small budget of its own, so a guessing spray at that username from anywhere else, which fills the
// username's ceiling and locks out every untrusted client, does not lock out the staff member's own
// browser. The cookie proves only "this browser signed in as X before"; it grants nothing else.
// Issue 36: every cookie of a username shares one budget (login-limits.ts), and each carries the
// person's `deviceEpoch`, which a new password, turning two-factor sign-in on or off (or an owner's
// reset of it) and disabling the person bump: every cookie issued before then is void.

/** The one cookie Firebase Hosting forwards to a function (it strips every other). */
export const DEVICE_COOKIE = '__session';
/** Sent only to the sign-in route (and logout under it): never to the catalogue or the CDN. */
export const DEVICE_COOKIE_PATH = '/api/auth/admin';
export const DEVICE_TTL_SECONDS = 90 * 24 * 3600;
/** Usernames one browser is remembered for (a shared counter computer), newest first. */
const MAX_DEVICES = 4;
const MAX_COOKIE_HEADER = 4096;

export interface Device {
  username: string;
  /** Random, per sign-in: the device's own failure budget is keyed on it. */
  nonce: string;
  /** Seconds since the epoch. */
  exp: number;
  /** The person's deviceEpoch when it was issued: valid only while the stored one is the same. */
  epoch: number;
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const mac = (payload: string, secret: string) =>
  createHmac('sha256', secret).update(`bookstore device cookie\n${payload}`).digest('base64url');

function sign(device: Device, secret: string): string {
  const payload = `${b64(device.username)}.${device.nonce}.${device.exp}.${device.epoch}`;
  return `${payload}.${mac(payload, secret)}`;
}

/** A well-signed, unexpired device (a cookie from before issue 36, without an epoch, is none). */
function verify(token: string, secret: string, nowSeconds: number): Device | null {
  const parts = token.split('.');
  if (parts.length !== 5) return null;
  const [user, nonce, exp, epoch, signature] = parts as [string, string, string, string, string];
  const expected = Buffer.from(mac(`${user}.${nonce}.${exp}.${epoch}`, secret));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const expires = Number(exp);
  const era = Number(epoch);
  if (!Number.isSafeInteger(expires) || expires <= nowSeconds || !Number.isSafeInteger(era) || era < 0) return null;
  return { username: Buffer.from(user, 'base64url').toString('utf8'), nonce, exp: expires, epoch: era };
}

/**
 * The `__session` tokens of a Cookie header, from every `__session` in it (a cookie planted from a
 * sibling domain may come first), none for a header over 4 KB.
 */
function tokensOf(cookieHeader: string | undefined): string[] {
  if (!cookieHeader || cookieHeader.length > MAX_COOKIE_HEADER) return [];
  return cookieHeader
    .split(';')
    .map((pair) => pair.trim().split('='))
    .filter(([name]) => name === DEVICE_COOKIE)
    .flatMap(([, ...value]) => value.join('=').split('~'))
    .filter((token) => /^[A-Za-z0-9_.-]{1,400}$/.test(token))
    .slice(0, 2 * MAX_DEVICES);
}

/**
 * The valid device cookie this request carries for `username`, if any: signed by us, unexpired, and
 * of the person's current `epoch` (null for a person who does not exist: no cookie is trusted then).
 */
export function trustedDevice(cookieHeader: string | undefined, username: string, secret: string, epoch: number | null, now = Date.now()): Device | null {
  if (epoch === null) return null;
  for (const token of tokensOf(cookieHeader)) {
    const device = verify(token, secret, Math.floor(now / 1000));
    if (device?.username === username && device.epoch === epoch) return device;
  }
  return null;
}

/**
 * The Set-Cookie header after a successful sign-in as `username`: a fresh device for it, first,
 * and the browser's other valid devices (other usernames) after it.
 */
export function deviceSetCookie(cookieHeader: string | undefined, username: string, secret: string, epoch: number, now = Date.now()): string {
  const nowSeconds = Math.floor(now / 1000);
  const seen = new Set([username]);
  const others = tokensOf(cookieHeader).filter((token) => {
    const device = verify(token, secret, nowSeconds);
    if (!device || seen.has(device.username)) return false;
    seen.add(device.username);
    return true;
  });
  const fresh = sign({ username, nonce: randomBytes(16).toString('base64url'), exp: nowSeconds + DEVICE_TTL_SECONDS, epoch }, secret);
  const value = [fresh, ...others].slice(0, MAX_DEVICES).join('~');
  return `${DEVICE_COOKIE}=${value}; Path=${DEVICE_COOKIE_PATH}; Max-Age=${DEVICE_TTL_SECONDS}; HttpOnly; Secure; SameSite=Strict`;
}
