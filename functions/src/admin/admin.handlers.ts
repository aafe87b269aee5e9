import type { Request, Response } from 'express';
import { AdminLoginSchema, canonicalAdminUsername, OTP_REQUIRED, type AdminLoginResponse, type AdminLogoutResponse, type AdminStats } from '@bookstore/contract';
import { ADMIN_TOKEN_TTL_SECONDS, HASH_CONCURRENCY, HASH_QUEUE } from '../config';
import { jwtSecret, requirePermission, requireStaff } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { signAdminToken } from '../lib/jwt';
import { decoyHash, hashPassword, needsRehash, verifyPassword } from '../lib/passwords';
import { jsonBody, parseWith } from '../lib/validate';
import { findAdmin, roleOf, upgradePasswordHash } from './admins.repo';
import { clientAddress } from './client-address';
import { deviceSetCookie, trustedDevice } from './device-cookie';
import { createHashGate } from './hash-gate';
import { reserveSignIn } from './login-limits';
import { consumeLoginOtp, signOut } from './staff.repo';
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
  const budget = await reserveSignIn(username, () => clientAddress(req), trustedDevice(cookies, username, secret));
  const admin = await findAdmin(username);
  // An unknown user costs the same hash as a known one, so timing does not reveal usernames.
  const valid = await hashing
    .run(async () => verifyPassword(login.password, admin?.passwordHash ?? (await decoyHash())))
    .catch(async (error: unknown) => {
      await budget.unchecked(); // a full gate (503) judged no password: a flood of them must not use up the owner's budget
      throw error;
    });
  // A disabled person, or a document with no role, is answered like a wrong password.
  if (!admin || !valid || admin.disabled || !roleOf(admin)) throw new HttpError(401, 'Invalid credentials');
  // Two-factor sign-in: the password was right; without a fresh code the attempt still counts as a
  // failure (the throttle above), so codes cannot be guessed faster than passwords.
  if (admin.totpSecret) {
    if (!login.otp) throw new HttpError(401, 'Enter the 6-digit code from your authenticator app', { code: OTP_REQUIRED });
    if (!(await consumeLoginOtp(username, login.otp))) throw new HttpError(401, 'That code is not valid: enter the current code', { code: OTP_REQUIRED });
  }
  await budget.succeeded();
  // A hash made with older scrypt parameters is redone now, while the password is at hand (when the
  // hash gate is full, at a later sign-in).
  if (needsRehash(admin.passwordHash)) {
    const upgraded = await hashing.run(() => hashPassword(login.password)).catch(() => null);
    if (upgraded) await upgradePasswordHash(username, admin.passwordHash, upgraded);
  }
  const token = signAdminToken(admin.username, admin.tokenVersion ?? 0, secret, ADMIN_TOKEN_TTL_SECONDS);
  res.setHeader('Set-Cookie', deviceSetCookie(cookies, username, secret));
  res.json({
    message: 'Admin Authenticated successfully',
    token,
    expiresIn: ADMIN_TOKEN_TTL_SECONDS,
    user: { username: admin.username, role: 'admin' },
  } satisfies AdminLoginResponse);
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
  const stats = await readStats();
  noStore(res);
  res.json(stats satisfies AdminStats);
}
