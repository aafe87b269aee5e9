import { createHash } from 'node:crypto';
import { ROLES, type Role } from '@bookstore/contract';
import { Timestamp, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { countReads } from '../lib/read-counter';
import { LOGIN_FIRST_DELAY_MS, LOGIN_FORGET_MS, LOGIN_FREE_FAILURES, LOGIN_MAX_DELAY_MS } from '../config';

/** A staff member, admins/<username> (the collection kept its first name: one shared admin). */
export interface AdminDoc {
  username: string;
  passwordHash: string;
  /** 'admin': a document from before staff roles (issue 24), read as an owner. */
  role: Role | 'admin';
  displayName?: string;
  disabled?: boolean;
  /**
   * Put in every token as `ver`; bumped by logout, a new password, a role change and disabling,
   * so every token issued before stops working on its next call. Absent means 0.
   */
  tokenVersion?: number;
  /** Base32 TOTP secret once two-factor sign-in is on; `totpPending` while it is being set up. */
  totpSecret?: string;
  totpPending?: string;
  /** The last TOTP step accepted: a code (or an older one) is never accepted twice. */
  totpLastStep?: number;
  /** Only the local demo owner (scripts/lib/seed.ts, emulators only): the shop's 2FA rule skips it. */
  totpExempt?: boolean;
}

/** The role a stored document grants, or null when it names none (never a guess upwards). */
export function roleOf(doc: Pick<AdminDoc, 'role'>): Role | null {
  if (doc.role === 'admin') return 'owner';
  return (ROLES as readonly string[]).includes(doc.role) ? doc.role : null;
}

export const admins = () => db().collection('admins');

/**
 * Replaces a password hash made with older parameters, unless the password changed meanwhile (a
 * reset between the sign-in's read and this write must not be undone with the old password).
 */
export async function upgradePasswordHash(username: string, oldHash: string, newHash: string): Promise<void> {
  const ref = admins().doc(username);
  await db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (snap.exists && (snap.data() as AdminDoc).passwordHash === oldHash) tx.update(ref, { passwordHash: newHash });
  });
  countReads(1);
}

/** `username` must be canonical (contract's AdminUsernameSchema): it is the document id. */
export async function findAdmin(username: string): Promise<AdminDoc | null> {
  const snap = await admins().doc(username).get();
  countReads(1);
  return snap.exists ? (snap.data() as AdminDoc) : null;
}


// Login throttling, per username AND client address. The counter lives in loginAttempts/<sha256>,
// carries an `expireAt` for Firestore's TTL policy (firestore.indexes.json) and is forgotten after
// a quiet day, so guesses at made-up names leave only documents that delete themselves.

interface AttemptDoc {
  failures: number;
  blockedUntil: number; // ms since the epoch
  lastAt: number;
  expireAt: Timestamp;
}

/** Every throttled sign-in's answer (429), whichever budget refused it. */
export const TOO_MANY_ATTEMPTS = 'Too many login attempts. Try again later.';

const attemptRef = (username: string, address: string) =>
  db().collection('loginAttempts').doc(createHash('sha256').update(`${username}\n${address}`).digest('hex'));

/** How long a key must wait after its n-th failure: nothing for the first few, then doubling up to the ceiling. */
export function loginDelayMs(failures: number): number {
  if (failures < LOGIN_FREE_FAILURES) return 0;
  return Math.min(LOGIN_MAX_DELAY_MS, LOGIN_FIRST_DELAY_MS * 2 ** (failures - LOGIN_FREE_FAILURES));
}

/**
 * Takes one attempt for (username, address) before the password is checked, in a transaction,
 * counting it as a failure until a success clears it: parallel guesses cannot slip past the
 * delay. An attempt during the delay gets 429 with Retry-After and costs no hash.
 */
export async function reserveLoginAttempt(username: string, address: string, now = Date.now()): Promise<void> {
  const ref = attemptRef(username, address);
  const refuseIfWaiting = (snap: DocumentSnapshot) => {
    const stored = snap.exists ? (snap.data() as AttemptDoc) : null;
    const current = stored && now - stored.lastAt < LOGIN_FORGET_MS ? stored : null;
    if (current && current.blockedUntil > now) {
      const retryAfter = Math.max(1, Math.ceil((current.blockedUntil - now) / 1000));
      throw new HttpError(429, TOO_MANY_ATTEMPTS, {}, { 'Retry-After': String(retryAfter) });
    }
    return current;
  };
  // A key that must wait is refused on a plain read: a flood of guesses takes no transaction lock,
  // so it cannot queue the attempts behind it (the delay only grows; a success deletes the document).
  refuseIfWaiting(await ref.get());
  await db().runTransaction(async (tx) => {
    const current = refuseIfWaiting(await tx.get(ref));
    const failures = (current?.failures ?? 0) + 1;
    const blockedUntil = now + loginDelayMs(failures);
    tx.set(ref, { failures, blockedUntil, lastAt: now, expireAt: Timestamp.fromMillis(Math.max(blockedUntil, now) + LOGIN_FORGET_MS) });
  }).catch((error: unknown) => {
    // Contention on one budget is many guesses at once: refuse this one (fail closed), never a 500.
    if (isAborted(error)) throw new HttpError(429, TOO_MANY_ATTEMPTS, {}, { 'Retry-After': '1' });
    throw error;
  });
  countReads(2);
}

/** Firestore gave up on a transaction its retries could not commit (gRPC ABORTED: lock timeout, contention). */
const isAborted = (error: unknown) => (error as { code?: unknown })?.code === 10;

/** A successful login gives this username and address their attempts back. */
export async function clearLoginAttempts(username: string, address: string): Promise<void> {
  await attemptRef(username, address).delete();
}
