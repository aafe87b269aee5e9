import type { Request, Response } from 'express';
import { openProblemCount } from '../payments/problems.repo';
import {
  AdminLoginSchema, canonicalAdminUsername, OTP_REQUIRED, PROOF_MAX_AGE_MS, ReauthSchema, type AdminLoginResponse, type AdminLogoutResponse, type AdminStats, type ReauthResponse,
} from '@bookstore/contract';
import { ADMIN_TOKEN_TTL_SECONDS, HASH_CONCURRENCY, HASH_QUEUE } from '../config';
import { bearerToken, jwtSecret, requirePermission, requireStaff, sessionKey } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { signAdminToken } from '../lib/jwt';
import { decoyHash, hashPassword, needsRehash, verifyPassword } from '../lib/passwords';
import { jsonBody, parseWith } from '../lib/validate';
import { findAdmin, roleOf, upgradePasswordHash, type AdminDoc } from './admins.repo';
import { clientAddress } from './client-address';
import { deviceSetCookie, trustedDevice } from './device-cookie';
import { createHashGate } from './hash-gate';
import { reserveSignIn, type SignInBudget } from './login-limits';
import { consumeLoginOtp, recordFailedSignIn, recordProof, signOut } from './staff.repo';
import { readStats } from './stats.repo';

const hashing = createHashGate(HASH_CONCURRENCY, HASH_QUEUE);

// POST /api/auth/admin
export async function adminLogin(req: Request, res: Response) {
  noStore(res);
  const login = parseWith(AdminLoginSchema, jsonBody(req));
  const secret = jwtSecret();
  if (!secret) throw new HttpError(503, 'Admin sign-in is not configured');
  // A name outside the canonical form names no admin: no counter, no lookup, no hash.
  const username = canonicalAdminUsername(login.username);
  if (!username) throw new HttpError(401, 'Invalid credentials');
  const cookies = req.headers.cookie;
  // Read before the budgets: a device cookie counts only while it carries the person's current epoch.
  const admin = await findAdmin(username);
  const budget = await reserveSignIn(username, () => clientAddress(req), trustedDevice(cookies, username, secret, admin ? (admin.deviceEpoch ?? 0) : null));
  await checkPassword(login.password, admin, budget, 'sign-in', req);
  // Two-factor sign-in: the password was right; without a fresh code the attempt still counts as a
  // failure (the throttle above), so codes cannot be guessed faster than passwords.
  await checkCode(admin!, login.otp, 'sign-in', req);
  await budget.succeeded();
  // A hash made with older scrypt parameters is redone now, while the password is at hand (when the
  // hash gate is full, at a later sign-in).
  if (needsRehash(admin!.passwordHash)) {
    const upgraded = await hashing.run(() => hashPassword(login.password)).catch(() => null);
    if (upgraded) await upgradePasswordHash(username, admin!.passwordHash, upgraded);
  }
  const token = signAdminToken(admin!.username, admin!.tokenVersion ?? 0, secret, ADMIN_TOKEN_TTL_SECONDS);
  // A sign-in is a proof for this session's sensitive actions (issue 36), and an audit event.
  await recordProof({ username, role: roleOf(admin!)! }, sessionKey(token), 'staff.sign-in', { from: { before: null, after: clientAddress(req) } });
  res.setHeader('Set-Cookie', deviceSetCookie(cookies, username, secret, admin!.deviceEpoch ?? 0));
  res.json({
    message: 'Admin Authenticated successfully',
    token,
    expiresIn: ADMIN_TOKEN_TTL_SECONDS,
    user: { username: admin!.username, role: 'admin' },
  } satisfies AdminLoginResponse);
}

/**
 * The password against the stored hash, through the hash gate; an unknown user costs the same hash
 * as a known one, so timing does not reveal usernames. A wrong one (or a disabled person, or a
 * document with no role) is 401 'Invalid credentials', audited when the person exists.
 */
async function checkPassword(password: string, admin: AdminDoc | null, budget: SignInBudget, via: 'sign-in' | 'reauth' | 'approval', req: Request): Promise<void> {
  const valid = await hashing
    .run(async () => verifyPassword(password, admin?.passwordHash ?? (await decoyHash())))
    .catch(async (error: unknown) => {
      await budget.unchecked(); // a full gate (503) judged no password: a flood of them must not use up the owner's budget
      throw error;
    });
  const role = admin ? roleOf(admin) : null;
  if (admin && role && (!valid || admin.disabled)) await recordFailedSignIn({ username: admin.username, role }, valid ? 'disabled' : 'password', clientAddress(req), via);
  if (!admin || !valid || admin.disabled || !role) throw new HttpError(401, 'Invalid credentials');
}

/** With two-factor sign-in on, a current code not used before (its step is then spent). */
async function checkCode(admin: AdminDoc, otp: string | undefined, via: 'sign-in' | 'reauth' | 'approval', req: Request): Promise<void> {
  if (!admin.totpSecret) return;
  if (!otp) throw new HttpError(401, 'Enter the 6-digit code from your authenticator app', { code: OTP_REQUIRED });
  if (!(await consumeLoginOtp(admin.username, otp))) {
    await recordFailedSignIn({ username: admin.username, role: roleOf(admin)! }, 'code', clientAddress(req), via);
    throw new HttpError(401, 'That code is not valid: enter the current code', { code: OTP_REQUIRED });
  }
}

// POST /api/auth/admin/reauth {password, otp?}: the signed-in person proves it is still them, for
// this session's sensitive actions over the next PROOF_MAX_AGE_MS (issue 36). Under /api/auth/admin
// so the browser sends its device cookie; guesses are throttled exactly as sign-ins are (the same
// budgets: a stolen token buys no extra guesses at its person's password).
export async function adminReauth(req: Request, res: Response) {
  noStore(res);
  const actor = requireStaff(req);
  const token = bearerToken(req)!;
  const { password, otp } = parseWith(ReauthSchema, jsonBody(req));
  const secret = jwtSecret();
  const admin = await findAdmin(actor.username);
  const budget = await reserveSignIn(actor.username, () => clientAddress(req), trustedDevice(req.headers.cookie, actor.username, secret, admin ? (admin.deviceEpoch ?? 0) : null));
  await checkPassword(password, admin, budget, 'reauth', req);
  await checkCode(admin!, otp, 'reauth', req);
  await budget.succeeded();
  const at = await recordProof(actor, sessionKey(token), 'staff.reauth', { from: { before: null, after: clientAddress(req) } });
  res.json({ message: 'Confirmed', validUntil: at + PROOF_MAX_AGE_MS } satisfies ReauthResponse);
}

/**
 * Another staff member's credentials given on a till (a manager's approval, issue 55), checked
 * exactly as a sign-in checks them: the same throttle (this client's address and the username's
 * ceiling), hash gate, failed-attempt audit and two-factor code (spent once). 401 when wrong, 429
 * when throttled. Returns the person; what their role may approve is the caller's to check.
 */
export async function verifyStaffCredentials(req: Request, typed: { username: string; password: string; otp?: string }): Promise<AdminDoc> {
  const username = canonicalAdminUsername(typed.username);
  if (!username) throw new HttpError(401, 'Invalid credentials');
  const admin = await findAdmin(username);
  const budget = await reserveSignIn(username, () => clientAddress(req), null);
  await checkPassword(typed.password, admin, budget, 'approval', req);
  await checkCode(admin!, typed.otp, 'approval', req);
  await budget.succeeded();
  return admin!;
}

// POST /api/auth/admin/logout
export async function adminLogout(req: Request, res: Response) {
  const actor = requireStaff(req);
  await signOut(actor);
  noStore(res);
  res.json({ message: 'Logged out' } satisfies AdminLogoutResponse);
}

// GET /api/admin
export async function adminStats(req: Request, res: Response) {
  requirePermission(req, 'reports.view');
  const [stats, paymentProblems] = await Promise.all([readStats(), openProblemCount()]);
  noStore(res);
  res.json({ ...stats, paymentProblems } satisfies AdminStats);
}
