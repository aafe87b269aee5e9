import { PROOF_MAX_AGE_MS, type StaffCreate, type StaffMember, type StaffPatch } from '@bookstore/contract';
import { FieldValue, type Transaction } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { admins, roleOf, type AdminDoc } from './admins.repo';
import { appendAudit, changedFields, logChainHead, openAudit, recordAudit, type AuditActor } from './audit.repo';
import { matchTotp, newTotpSecret } from './totp';

// Staff accounts (admins/<username>): every change runs in a transaction that also appends its
// audit event. Password hashes are made by the caller, outside the transaction (32 MiB, ~100 ms).

export function toMember(doc: AdminDoc): StaffMember {
  return {
    username: doc.username,
    displayName: doc.displayName ?? doc.username,
    role: roleOf(doc) ?? 'bookseller',
    disabled: doc.disabled === true,
    totpEnabled: Boolean(doc.totpSecret),
  };
}

/** What the audit log records of a member: never a hash or a secret. */
const AUDITED = ['displayName', 'role', 'disabled', 'totpEnabled'] as const;
const audited = (doc: AdminDoc | null) => (doc ? { ...toMember(doc) } : null);

/** Every staff member, by username (a shop has a handful: one small read, no index). */
export async function listStaff(): Promise<StaffMember[]> {
  const snap = await runQuery(admins().orderBy('username'));
  return snap.docs.map((doc) => toMember(doc.data() as AdminDoc));
}

/** Active owners left if `changed` replaced `username`'s document (null: deleted). */
async function ownersAfter(tx: Transaction, username: string, changed: AdminDoc | null): Promise<number> {
  const all = await tx.get(admins());
  countReads(all.size);
  const docs = all.docs.map((d) => (d.id === username ? changed : (d.data() as AdminDoc)));
  return docs.filter((d) => d && !d.disabled && roleOf(d) === 'owner').length;
}

const LAST_OWNER = 'The shop needs at least one active owner';

export async function createStaff(actor: AuditActor, input: Omit<StaffCreate, 'password'>, passwordHash: string): Promise<StaffMember> {
  const ref = admins().doc(input.username);
  const doc: AdminDoc = { username: input.username, displayName: input.displayName, role: input.role, passwordHash, tokenVersion: 0, disabled: false };
  return db().runTransaction(async (tx) => {
    const existing = await tx.get(ref);
    countReads(1);
    const log = await openAudit(tx);
    if (existing.exists) throw new HttpError(409, 'That username is taken', { details: { username: ['That username is taken'] } });
    tx.create(ref, doc);
    appendAudit(log, actor, { action: 'staff.create', target: `admins/${input.username}`, changes: changedFields(null, audited(doc), AUDITED) });
    return toMember(doc);
  });
}

/** Applies a patch; a role change, disabling or a new password bumps the token version (ends their sessions). */
export async function updateStaff(actor: AuditActor, username: string, patch: Omit<StaffPatch, 'password'>, passwordHash?: string): Promise<StaffMember> {
  const ref = admins().doc(username);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    if (!snap.exists) throw new HttpError(404, 'Staff member not found');
    const log = await openAudit(tx);
    const before = snap.data() as AdminDoc;
    const after: AdminDoc = {
      ...before,
      ...(patch.displayName !== undefined ? { displayName: patch.displayName } : {}),
      ...(patch.role !== undefined ? { role: patch.role } : {}),
      ...(patch.disabled !== undefined ? { disabled: patch.disabled } : {}),
      ...(passwordHash ? { passwordHash } : {}),
    };
    const roleChanged = roleOf(before) !== roleOf(after);
    const resetTotp = patch.resetTotp === true && Boolean(before.totpSecret || before.totpPending);
    if (resetTotp) {
      delete after.totpSecret;
      delete after.totpPending;
    }
    const disabling = after.disabled === true && before.disabled !== true;
    const revoke = roleChanged || disabling || Boolean(passwordHash) || resetTotp;
    // Device cookies (their sign-in budget) end with a new password, a two-factor reset or disabling.
    const voidDevices = disabling || Boolean(passwordHash) || resetTotp;
    if ((roleChanged || after.disabled) && roleOf(before) === 'owner' && (await ownersAfter(tx, username, after)) === 0) {
      throw new HttpError(409, LAST_OWNER);
    }
    const changes = changedFields(audited(before), audited(after), AUDITED);
    if (passwordHash) changes.password = { before: '(set)', after: '(changed)' };
    tx.update(ref, {
      displayName: after.displayName ?? username,
      role: after.role,
      disabled: after.disabled === true,
      passwordHash: after.passwordHash,
      ...(resetTotp ? { totpSecret: FieldValue.delete(), totpPending: FieldValue.delete(), totpLastStep: FieldValue.delete() } : {}),
      ...(revoke ? { tokenVersion: FieldValue.increment(1) } : {}),
      ...(voidDevices ? { deviceEpoch: FieldValue.increment(1) } : {}),
    });
    appendAudit(log, actor, { action: 'staff.update', target: `admins/${username}`, changes });
    return toMember(after);
  });
}

export async function deleteStaff(actor: AuditActor, username: string): Promise<StaffMember> {
  const ref = admins().doc(username);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    if (!snap.exists) throw new HttpError(404, 'Staff member not found');
    const log = await openAudit(tx);
    const before = snap.data() as AdminDoc;
    if (roleOf(before) === 'owner' && !before.disabled && (await ownersAfter(tx, username, null)) === 0) throw new HttpError(409, LAST_OWNER);
    tx.delete(ref);
    appendAudit(log, actor, { action: 'staff.delete', target: `admins/${username}`, changes: changedFields(audited(before), null, AUDITED) });
    return toMember(before);
  });
}

/** Sign-out: every token of this person ends (the token version moves on). */
export async function signOut(actor: AuditActor): Promise<void> {
  const ref = admins().doc(actor.username);
  await db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (!snap.exists) return;
    const log = await openAudit(tx);
    tx.update(ref, { tokenVersion: FieldValue.increment(1) });
    appendAudit(log, actor, { action: 'staff.sign-out', target: `admins/${actor.username}` });
  });
}

// ---- Two-factor sign-in --------------------------------------------------------------------------

async function ownDoc(tx: Transaction, username: string): Promise<AdminDoc> {
  const snap = await tx.get(admins().doc(username));
  countReads(1);
  if (!snap.exists) throw new HttpError(401, 'Invalid or expired admin token');
  return snap.data() as AdminDoc;
}

const badCode = () => new HttpError(400, 'That code is not valid: enter the current code from your app', { details: { otp: ['That code is not valid'] } });

/** Starts (or restarts) enrolment: a new pending secret; two-factor sign-in is not on until confirmed. */
export async function startTotp(actor: AuditActor): Promise<string> {
  const secret = newTotpSecret();
  await db().runTransaction(async (tx) => {
    const doc = await ownDoc(tx, actor.username);
    const log = await openAudit(tx);
    if (doc.totpSecret) throw new HttpError(409, 'Two-factor sign-in is already on');
    tx.update(admins().doc(actor.username), { totpPending: secret });
    appendAudit(log, actor, { action: 'totp.start', target: `admins/${actor.username}` });
  });
  return secret;
}

/** Turns two-factor sign-in on with a code of the pending secret; that code's step counts as used. */
export async function confirmTotp(actor: AuditActor, otp: string, now = Date.now()): Promise<void> {
  await db().runTransaction(async (tx) => {
    const doc = await ownDoc(tx, actor.username);
    const log = await openAudit(tx);
    if (doc.totpSecret) throw new HttpError(409, 'Two-factor sign-in is already on');
    if (!doc.totpPending) throw new HttpError(409, 'Start two-factor setup first');
    const step = matchTotp(doc.totpPending, otp, now);
    if (step === null) throw badCode();
    tx.update(admins().doc(actor.username), { totpSecret: doc.totpPending, totpPending: FieldValue.delete(), totpLastStep: step, deviceEpoch: FieldValue.increment(1) });
    appendAudit(log, actor, { action: 'totp.enable', target: `admins/${actor.username}`, changes: { totpEnabled: { before: false, after: true } } });
  });
}

/** Turns it off with a current code (not one already used); false, and nothing written, for a wrong one. */
export async function disableTotp(actor: AuditActor, otp: string, now = Date.now()): Promise<boolean> {
  return db().runTransaction(async (tx) => {
    const doc = await ownDoc(tx, actor.username);
    const log = await openAudit(tx);
    if (!doc.totpSecret) throw new HttpError(409, 'Two-factor sign-in is not on');
    if (matchTotp(doc.totpSecret, otp, now, doc.totpLastStep ?? -1) === null) return false;
    tx.update(admins().doc(actor.username), { totpSecret: FieldValue.delete(), totpLastStep: FieldValue.delete(), deviceEpoch: FieldValue.increment(1) });
    appendAudit(log, actor, { action: 'totp.disable', target: `admins/${actor.username}`, changes: { totpEnabled: { before: true, after: false } } });
    return true;
  });
}

/**
 * At sign-in: true if `otp` is a current code of this person's secret not used before; its step
 * is then recorded in the same transaction, so a code seen over a shoulder cannot be replayed,
 * even by two sign-ins racing each other.
 */
export async function consumeLoginOtp(username: string, otp: string, now = Date.now()): Promise<boolean> {
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(admins().doc(username));
    countReads(1);
    const doc = snap.exists ? (snap.data() as AdminDoc) : null;
    if (!doc?.totpSecret) return false;
    const step = matchTotp(doc.totpSecret, otp, now, doc.totpLastStep ?? -1);
    if (step === null) return false;
    tx.update(snap.ref, { totpLastStep: step });
    return true;
  });
}


// ---- Proofs for sensitive actions (issue 36) ----------------------------------------------------

/**
 * A session proved it is its person (a sign-in, or the password and code entered again): its proof
 * time is stored under its key, proofs older than PROOF_MAX_AGE_MS are dropped (the map stays a
 * few entries), and the audit event is written in the same transaction.
 */
export async function recordProof(actor: AuditActor, key: string, action: 'staff.sign-in' | 'staff.reauth', changes: Record<string, { before: unknown; after: unknown }> = {}, now = Date.now()): Promise<number> {
  const ref = admins().doc(actor.username);
  const head = await db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    const log = await openAudit(tx);
    if (snap.exists) {
      const kept = Object.entries((snap.data() as AdminDoc).proofs ?? {}).filter(([, at]) => typeof at === 'number' && now - at < PROOF_MAX_AGE_MS);
      tx.update(ref, { proofs: Object.fromEntries([...kept, [key, now]]) });
    }
    appendAudit(log, actor, { action, target: `admins/${actor.username}`, changes });
    return log.head;
  });
  logChainHead(head);
  return now;
}

/** A failed sign-in (or re-entry) of an existing staff member: who was tried, why it failed, from where. */
export async function recordFailedSignIn(actor: AuditActor, reason: 'password' | 'code' | 'disabled', from: string, via: 'sign-in' | 'reauth' | 'totp-off' | 'approval'): Promise<void> {
  await recordAudit(actor, {
    action: 'staff.sign-in-failed',
    target: `admins/${actor.username}`,
    changes: { reason: { before: null, after: reason }, from: { before: null, after: from }, via: { before: null, after: via } },
  });
}
