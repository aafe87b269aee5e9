import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { isLoopbackHost } from '../config';

export type ScryptParams = { N: number; r: number; p: number; maxmem: number };
// OWASP's scrypt minimum is N=2^17, r=8, p=1 (128 MiB per hash) or one of its listed equivalents;
// we take N=2^15, r=8, p=3: the same work in 32 MiB, so a 256 MiB instance still runs the hash gate's
// two at once (measured here: about 0.3 s of one core per sign-in, no resident memory kept after).
// Hashes made with other parameters still verify, and are redone at the next sign-in (needsRehash).
export const OWASP_PARAMS: ScryptParams = { N: 2 ** 15, r: 8, p: 3, maxmem: 64 * 1024 * 1024 };
// `npm test` only: its suite signs in about a thousand times, and at 0.3 s of one core of two each
// that was a minute of the run (issue 37). The same code, a thousandth of the work.
const TEST_RUN_PARAMS: ScryptParams = { N: 2 ** 10, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/**
 * Today's parameters, read at each use (the test script asks after the seed has loaded this module):
 * the test run's cheap ones when `npm test` asks (BOOKSTORE_TEST_CHEAP_HASH=1) and the data is a
 * local emulator's (FIRESTORE_EMULATOR_HOST on loopback: a deployed shop with that reads no real
 * database, so it cannot hold real staff); OWASP's everywhere else, `npm start` too.
 */
export function scryptParams(env: NodeJS.ProcessEnv = process.env): ScryptParams {
  const emulatedData = Boolean(env.FIRESTORE_EMULATOR_HOST && isLoopbackHost(env.FIRESTORE_EMULATOR_HOST));
  return env.BOOKSTORE_TEST_CHEAP_HASH === '1' && emulatedData ? TEST_RUN_PARAMS : OWASP_PARAMS;
}
const KEY_LENGTH = 64;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64. */
export async function hashPassword(password: string, params: ScryptParams = scryptParams()): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether a stored hash was made with other parameters than today's (then redo it at sign-in). */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split('$');
  const today = scryptParams();
  return scheme !== 'scrypt' || Number(n) !== today.N || Number(r) !== today.r || Number(p) !== today.p;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  try {
    const key = await scrypt(password, Buffer.from(salt, 'base64'), {
      N: Number(n), r: Number(r), p: Number(p), maxmem: OWASP_PARAMS.maxmem,
    });
    return key.length === expected.length && timingSafeEqual(key, expected);
  } catch {
    return false; // a corrupt stored hash never logs anyone in
  }
}

// Checked against when the username is unknown, so both cases cost one full hash.
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  return (decoy ??= hashPassword(randomBytes(16).toString('hex')));
}
