import type { Request, Response } from 'express';
import { AdminLoginSchema } from '@bookstore/contract';
import { ADMIN_TOKEN_TTL_SECONDS } from '../config';
import { jwtSecret, requireAdmin } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { signAdminToken } from '../lib/jwt';
import { decoyHash, verifyPassword } from '../lib/passwords';
import { jsonBody, parseWith } from '../lib/validate';
import { clearLoginAttempts, findAdmin, reserveLoginAttempt } from './admins.repo';
import { readStats } from './stats.repo';

// POST /api/auth/admin
export async function adminLogin(req: Request, res: Response) {
  noStore(res);
  const { username, password } = parseWith(AdminLoginSchema, jsonBody(req));
  const secret = jwtSecret();
  if (!secret) throw new HttpError(503, 'Admin sign-in is not configured');
  await reserveLoginAttempt(username);
  const admin = await findAdmin(username);
  // An unknown user costs the same hash as a known one, so timing does not reveal usernames.
  const valid = await verifyPassword(password, admin?.passwordHash ?? (await decoyHash()));
  if (!admin || !valid) throw new HttpError(401, 'Invalid credentials');
  await clearLoginAttempts(username);
  const token = signAdminToken(admin.username, secret, ADMIN_TOKEN_TTL_SECONDS);
  res.json({ message: 'Admin Authenticated successfully', token, user: { username: admin.username, role: 'admin' } });
}

// GET /api/admin
export async function adminStats(req: Request, res: Response) {
  requireAdmin(req);
  const stats = await readStats();
  noStore(res);
  res.json(stats);
}
