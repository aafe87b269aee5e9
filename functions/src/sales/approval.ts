import { APPROVAL_REFUSED, can, SALE_BY_NOT_STAFF, type Approval, type Role, type SaleActor } from '@bookstore/contract';
import type { Request } from 'express';
import { verifyStaffCredentials } from '../admin/admin.handlers';
import { findAdmin, roleOf } from '../admin/admins.repo';
import type { AuditActor } from '../admin/audit.repo';
import type { StaffActor } from '../lib/auth';
import { HttpError } from '../lib/http-error';

// Who stands behind a counter sale or return (issue 55): the person who made it (for a sale queued
// offline, who was signed in then: its `by`), who sent it (recordedBy, when another), and the owner
// or manager who approved it on the till. Owners and managers are not limited; a bookseller's value
// is (allowance.ts), unless a manager approves.

/** Owners and managers approve at the till and are not limited: the roles that may refund (SECURITY.md). */
export const mayApprove = (role: Role) => can(role, 'orders.refund');

export type CounterActor = AuditActor & { displayName: string };

export interface TillAuthority {
  /** Whom the sale or return is recorded under. */
  maker: CounterActor;
  /** Who sent it, when not the maker (a queued sale synced under another person). */
  recordedBy?: SaleActor;
  /** The owner or manager who approved it with their password on the till. */
  approvedBy?: SaleActor;
  /** Whether a bookseller's allowance applies (no approval, and a bookseller made or sent it). */
  limited: boolean;
  /** Whose allowance it counts against: the bookseller among maker and sender. */
  allowanceOf: string;
}

const refused = (message: string) => new HttpError(403, message, { code: APPROVAL_REFUSED });

/** The approval's person, checked as a sign-in (wrong: 403 APPROVAL_REFUSED; throttled: 429), who must be an owner or manager. */
export async function verifyApproval(req: Request, approval: Approval): Promise<SaleActor> {
  let admin;
  try {
    admin = await verifyStaffCredentials(req, { username: approval.username, password: approval.password, ...(approval.code ? { otp: approval.code } : {}) });
  } catch (error) {
    // 401 would tell the till its own session ended: the approval failed, not the session.
    if (error instanceof HttpError && error.status === 401) {
      throw refused(error.extra.code === 'OTP_REQUIRED' ? "Enter the manager's current 6-digit code" : 'The approval was refused: check the manager’s username and password');
    }
    throw error;
  }
  const role = roleOf(admin);
  if (!role || !mayApprove(role)) throw refused('Only an owner or a manager can approve this');
  return { username: admin.username, name: admin.displayName ?? admin.username };
}

/** The maker a queued sale names (`by`): an active staff member who may sell, else 403 SALE_BY_NOT_STAFF. */
async function makerOf(by: string): Promise<CounterActor> {
  const admin = await findAdmin(by).catch(() => null);
  const role = admin ? roleOf(admin) : null;
  if (!admin || admin.disabled || !role || !can(role, 'sales.counter')) {
    throw new HttpError(403, 'This sale names a maker who is not an active staff member allowed to sell: nothing was recorded', { code: SALE_BY_NOT_STAFF });
  }
  return { username: admin.username, role, displayName: admin.displayName ?? admin.username };
}

/** Who stands behind this request: the maker (`by`, else the caller), the sender, the approver. */
export async function tillAuthority(req: Request, caller: StaffActor, input: { by?: string; approval?: Approval }): Promise<TillAuthority> {
  const sender: CounterActor = { username: caller.username, role: caller.role, displayName: caller.displayName };
  const maker = input.by && input.by !== caller.username ? await makerOf(input.by) : sender;
  const approvedBy = input.approval ? await verifyApproval(req, input.approval) : undefined;
  // Limited unless both the maker and the sender may approve themselves: a bookseller cannot lift
  // their limit by naming a manager as the maker of a queued sale.
  const bookseller = [maker, sender].find((p) => !mayApprove(p.role));
  return {
    maker,
    ...(maker !== sender ? { recordedBy: { username: sender.username, name: sender.displayName } } : {}),
    ...(approvedBy ? { approvedBy } : {}),
    limited: !approvedBy && bookseller !== undefined,
    allowanceOf: (bookseller ?? maker).username,
  };
}

/** Who stands behind a counter write, as stored on the sale or return and named in its audit event. */
export const authorityFields = (who: Pick<TillAuthority, 'recordedBy' | 'approvedBy'>) => ({
  ...(who.recordedBy ? { recordedBy: who.recordedBy } : {}),
  ...(who.approvedBy ? { approvedBy: who.approvedBy } : {}),
});
export const authorityChanges = (who: Pick<TillAuthority, 'recordedBy' | 'approvedBy'>) => ({
  ...(who.recordedBy ? { recordedBy: { before: null, after: who.recordedBy.username } } : {}),
  ...(who.approvedBy ? { approvedBy: { before: null, after: who.approvedBy.username } } : {}),
});
