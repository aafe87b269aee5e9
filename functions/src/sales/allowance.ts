import { DEFAULT_COUNTER_ALLOWANCE_CENTS, fromCents, MANAGER_APPROVAL_REQUIRED } from '@bookstore/contract';
import { FieldValue, type DocumentSnapshot, type Transaction } from 'firebase-admin/firestore';
import { appendAudit, openAudit, type AuditActor } from '../admin/audit.repo';
import { settingsRef } from '../admin/settings.repo';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { countReads } from '../lib/read-counter';
import type { TillAuthority } from './approval';

// A bookseller's counter allowance (issue 55): the value they issue or pay out at the counter
// (gift cards sold, store credit, refunds in cash or on the terminal) is limited per till and shop
// day by settings/shop `counterAllowanceCents` (DEFAULT_COUNTER_ALLOWANCE_CENTS). Past it, and for
// any return of a sale from an earlier shop day or another till, the answer is 403
// MANAGER_APPROVAL_REQUIRED and nothing changes; the till resends with a manager's approval.
// The used value is a counter document per till, day and bookseller, read and moved in the sale's
// own transaction: two sales at once both read it, one commit wins and the other runs again and
// sees the first's value. Value a manager approved does not count (the manager answers for it).

export const allowances = () => db().collection('counterAllowances');

/** What a bookseller used of their allowance on this till this shop day. */
export interface AllowanceDoc {
  username: string;
  tillId: string;
  day: string;
  usedCents: number;
}

export const allowanceFrom = (snap: DocumentSnapshot | undefined): number => {
  const stored = snap?.exists ? (snap.data() as { counterAllowanceCents?: unknown }).counterAllowanceCents : undefined;
  return typeof stored === 'number' && Number.isInteger(stored) && stored >= 0 ? stored : DEFAULT_COUNTER_ALLOWANCE_CENTS;
};

export async function readCounterAllowance(): Promise<number> {
  const snap = await settingsRef().get();
  countReads(1);
  return allowanceFrom(snap);
}

/** Saves the allowance (settings/shop counterAllowanceCents) and its audit event in one transaction. */
export async function saveCounterAllowance(actor: AuditActor, cents: number): Promise<number> {
  return db().runTransaction(async (tx) => {
    const before = allowanceFrom(await tx.get(settingsRef()));
    const log = await openAudit(tx);
    tx.set(settingsRef(), { counterAllowanceCents: cents }, { merge: true });
    appendAudit(log, actor, { action: 'settings.update', target: 'settings/shop', changes: { counterAllowanceCents: { before, after: cents } } });
    return cents;
  });
}

/**
 * The counter document of the allowance used. Per till and shop day: there are no shifts yet; when
 * there are, this is the one place that names the period (a shift id instead of the day).
 */
export async function counterAllowanceUsed(tx: Transaction, period: { day: string; tillId: string; username: string }) {
  const ref = allowances().doc(`${period.day}_${period.tillId}_${period.username}`);
  const snap = await tx.get(ref);
  countReads(1);
  return { ref, usedCents: snap.exists ? (snap.data() as AllowanceDoc).usedCents : 0 };
}

const approvalRequired = (message: string) => new HttpError(403, message, { code: MANAGER_APPROVAL_REQUIRED });

export interface StagedAllowance {
  /** Counts the value against the allowance (with the transaction's other writes). */
  write(): void;
}

/**
 * Checks, in the sale's or return's transaction and before its writes, that a limited bookseller
 * may issue or pay out `valueCents` on this till this day (and, for `needsApproval`, whatever the
 * value: a return of another day's or till's sale); 403 MANAGER_APPROVAL_REQUIRED otherwise.
 */
export async function stageAllowance(
  tx: Transaction, who: TillAuthority, use: { day: string; tillId: string; valueCents: number; needsApproval?: string },
): Promise<StagedAllowance> {
  if (!who.limited) return { write: () => {} };
  if (use.needsApproval) throw approvalRequired(use.needsApproval);
  if (use.valueCents <= 0) return { write: () => {} };
  const [settings, used] = await Promise.all([tx.get(settingsRef()), counterAllowanceUsed(tx, { day: use.day, tillId: use.tillId, username: who.allowanceOf })]);
  countReads(1);
  const limit = allowanceFrom(settings);
  if (used.usedCents + use.valueCents > limit) {
    throw approvalRequired(`A bookseller may issue or pay out $${fromCents(limit).toFixed(2)} a day on a till ($${fromCents(used.usedCents).toFixed(2)} so far): a manager must approve this`);
  }
  return {
    write() {
      tx.set(used.ref, { username: who.allowanceOf, tillId: use.tillId, day: use.day, usedCents: FieldValue.increment(use.valueCents) }, { merge: true });
    },
  };
}
