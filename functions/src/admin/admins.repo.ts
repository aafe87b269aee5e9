import { createHash } from 'node:crypto';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS } from '../config';

export interface AdminDoc {
  username: string;
  passwordHash: string;
  role: 'admin';
}

export const admins = () => db().collection('admins');

export async function findAdmin(username: string): Promise<AdminDoc | null> {
  const snap = await admins().doc(username.toLowerCase()).get();
  return snap.exists ? (snap.data() as AdminDoc) : null;
}

interface AttemptDoc {
  failures: number;
  windowStart: number;
}

const attemptRef = (username: string) =>
  db().collection('loginAttempts').doc(createHash('sha256').update(username.toLowerCase()).digest('hex'));

/**
 * Takes one of the 5 attempts a username has per 15 minutes before the password is checked, in a
 * transaction, so parallel guesses cannot slip past the limit. Keyed by username only: a client's
 * X-Forwarded-For cannot reset it.
 */
export async function reserveLoginAttempt(username: string, now = Date.now()): Promise<void> {
  const ref = attemptRef(username);
  await db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    const current = snap.exists ? (snap.data() as AttemptDoc) : null;
    const fresh = !current || now - current.windowStart >= LOGIN_WINDOW_MS;
    const state = fresh ? { failures: 0, windowStart: now } : current;
    if (state.failures >= LOGIN_MAX_FAILURES) {
      const retryAfter = Math.max(1, Math.ceil((state.windowStart + LOGIN_WINDOW_MS - now) / 1000));
      throw new HttpError(429, 'Too many login attempts. Try again later.', {}, { 'Retry-After': String(retryAfter) });
    }
    tx.set(ref, { failures: state.failures + 1, windowStart: state.windowStart });
  });
}

/** A successful login gives the username its attempts back. */
export async function clearLoginAttempts(username: string): Promise<void> {
  await attemptRef(username).delete();
}
