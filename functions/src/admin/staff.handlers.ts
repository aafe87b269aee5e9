import type { Request, Response } from 'express';
import {
  AdminUsernameSchema, AuditQuerySchema, FulfilmentSettingsSchema, OtpBodySchema, POLICY, ShopSettingsSchema, StaffCreateSchema, StaffPatchSchema,
  type AuditPage, type FulfilmentSettings, type FulfilmentSettingsResponse, type Me, type ShopSettings, type StaffMember, type StaffMutationResponse, type TotpEnrolment,
} from '@bookstore/contract';
import { requirePermission, requireRecentProof, requireSensitive, requireStaff } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { hashPassword } from '../lib/passwords';
import { jsonBody, parseWith } from '../lib/validate';
import { auditPage } from './audit.repo';
import { clientAddress } from './client-address';
import { reserveSignIn } from './login-limits';
import { readFulfilment, readSettings, saveFulfilment, saveSettings } from './settings.repo';
import * as staff from './staff.repo';
import { otpauthUrl } from './totp';

// Staff accounts, the signed-in person's profile and two-factor setup, the audit log and the
// shop's settings. Issue 24; docs/decisions/021-staff-accounts.md.

const TOTP_ISSUER = 'Bookstore';

function usernameParam(req: Request): string {
  const result = AdminUsernameSchema.safeParse(req.params.username);
  if (!result.success) throw new HttpError(404, 'Staff member not found');
  return result.data;
}

// GET /api/admin/me
export async function me(req: Request, res: Response) {
  const actor = requireStaff(req);
  noStore(res);
  res.json({
    username: actor.username,
    displayName: actor.displayName,
    role: actor.role,
    disabled: false,
    totpEnabled: actor.totpEnabled,
    totpSetupRequired: actor.totpSetupRequired,
    permissions: [...POLICY[actor.role]],
  } satisfies Me);
}

// POST /api/admin/me/totp -> a new secret to scan; on only after /confirm
// Setting up two-factor sign-in needs a recent proof (issue 36): a stolen token alone must not be
// able to bind its own authenticator to the account.
export async function startTotp(req: Request, res: Response) {
  const actor = requireStaff(req);
  requireRecentProof(req);
  const secret = await staff.startTotp(actor);
  noStore(res);
  res.json({ secret, otpauthUrl: otpauthUrl(TOTP_ISSUER, actor.username, secret) } satisfies TotpEnrolment);
}

// POST /api/admin/me/totp/confirm {otp}
export async function confirmTotp(req: Request, res: Response) {
  const actor = requireStaff(req);
  requireRecentProof(req);
  const { otp } = parseWith(OtpBodySchema, jsonBody(req));
  await staff.confirmTotp(actor, otp);
  noStore(res);
  res.json({ message: 'Two-factor sign-in is on' });
}

// DELETE /api/admin/me/totp {otp}: a recent proof, and a current code, guessed no faster than a
// sign-in: each try takes a slot of the sign-in budgets (this route gets no device cookie, so the
// per-address delay and the username's ceiling), and a wrong code keeps it and is audited.
export async function disableTotp(req: Request, res: Response) {
  const actor = requireStaff(req);
  requireRecentProof(req);
  const { otp } = parseWith(OtpBodySchema, jsonBody(req));
  const from = clientAddress(req);
  const budget = await reserveSignIn(actor.username, () => from, null);
  const turnedOff = await staff.disableTotp(actor, otp).catch(async (error: unknown) => {
    await budget.unchecked(); // not on (409), or an outage: no code was judged
    throw error;
  });
  if (!turnedOff) {
    await staff.recordFailedSignIn(actor, 'code', from, 'totp-off');
    throw new HttpError(400, 'That code is not valid: enter the current code from your app', { details: { otp: ['That code is not valid'] } });
  }
  await budget.succeeded();
  noStore(res);
  res.json({ message: 'Two-factor sign-in is off' });
}

// GET /api/admin/staff
export async function listStaff(req: Request, res: Response) {
  requirePermission(req, 'staff.manage');
  const list = await staff.listStaff();
  noStore(res);
  res.json(list satisfies StaffMember[]);
}

// POST /api/admin/staff {username, displayName, role, password}
export async function createStaff(req: Request, res: Response) {
  const actor = requireSensitive(req, 'staff.manage');
  const { password, ...input } = parseWith(StaffCreateSchema, jsonBody(req));
  const member = await staff.createStaff(actor, input, await hashPassword(password));
  noStore(res);
  res.status(201).json({ message: 'Staff member created', staff: member } satisfies StaffMutationResponse);
}

// PATCH /api/admin/staff/:username {displayName?, role?, disabled?, password?}
export async function updateStaff(req: Request, res: Response) {
  const actor = requirePermission(req, 'staff.manage');
  const username = usernameParam(req);
  const { password, ...patch } = parseWith(StaffPatchSchema, jsonBody(req));
  // A role, a password, a two-factor reset or disabling needs a recent proof (disabling: issue 55,
  // a stolen token must not lock the shop's staff out); a display name or enabling does not.
  if (patch.role !== undefined || password !== undefined || patch.resetTotp || patch.disabled === true) requireRecentProof(req);
  const member = await staff.updateStaff(actor, username, patch, password ? await hashPassword(password) : undefined);
  noStore(res);
  res.json({ message: 'Staff member updated', staff: member } satisfies StaffMutationResponse);
}

// DELETE /api/admin/staff/:username
export async function deleteStaff(req: Request, res: Response) {
  const actor = requireSensitive(req, 'staff.manage'); // a recent proof (issue 55)
  const member = await staff.deleteStaff(actor, usernameParam(req));
  noStore(res);
  res.json({ message: 'Staff member deleted', staff: member } satisfies StaffMutationResponse);
}

// GET /api/admin/audit?actor=&action=&cursor=&limit=
export async function listAudit(req: Request, res: Response) {
  requirePermission(req, 'audit.view');
  const query = parseWith(AuditQuerySchema, req.query);
  const page = await auditPage(query);
  noStore(res);
  res.json(page satisfies AuditPage);
}

// GET /api/admin/settings
export async function getSettings(req: Request, res: Response) {
  requirePermission(req, 'settings.manage');
  const settings = await readSettings();
  noStore(res);
  res.json(settings satisfies ShopSettings);
}

// PUT /api/admin/settings {requireTotp}
export async function putSettings(req: Request, res: Response) {
  const actor = requireSensitive(req, 'settings.manage');
  const next = parseWith(ShopSettingsSchema, jsonBody(req));
  const saved = await saveSettings(actor, next);
  noStore(res);
  res.json(saved satisfies ShopSettings);
}

// GET /api/admin/settings/fulfilment (owner, manager)
export async function getFulfilment(req: Request, res: Response) {
  requirePermission(req, 'settings.fulfilment');
  const settings = await readFulfilment();
  noStore(res);
  res.json({ settings } satisfies FulfilmentSettingsResponse);
}

// PUT /api/admin/settings/fulfilment {pickup, local, post, defaultWeightGrams, tax} (money in cents)
export async function putFulfilment(req: Request, res: Response) {
  const actor = requireSensitive(req, 'settings.fulfilment');
  const next = parseWith(FulfilmentSettingsSchema, jsonBody(req)) as FulfilmentSettings;
  const settings = await saveFulfilment(actor, next);
  noStore(res);
  res.json({ message: 'Settings saved', settings } satisfies FulfilmentSettingsResponse);
}
