import {
  discountFromStored, discountVerdict, type Discount, type DiscountedBook, type DiscountRedemption, type DiscountsPage,
  type ParsedDiscountCreate, type RedemptionsPage, type StoredDiscount, fromCents,
} from '@bookstore/contract';
import { FieldPath, FieldValue, type Query, type Transaction } from 'firebase-admin/firestore';
import { appendAudit, openAudit, type AuditActor } from '../admin/audit.repo';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { decodePageCursor, encodePageCursor } from '../lib/page-cursor';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';

// Discount codes (issue 40): discounts/<CODE> holds the rule and `redemptions`, the orders that hold
// one now. An order reads the code in its own transaction and writes redemptions + 1 with it, so a
// limit holds under any concurrency: two orders for the last redemption both read it, one commit
// wins, the other runs again and reads it used up (409 DISCOUNT_EXHAUSTED). One redemption document
// per order (redemptions/<orderId>, for the admin page) and, for a once-per-customer code, one per
// customer (customers/<uid>) read in the same transaction. A cancel gives it back in the order's
// cancel transaction (its status is read there, so it happens once). A flash sale's one hot document
// is measured in BENCHMARKS.md (scripts/bench-discount.ts), with the rate past which to shard it.

export const discounts = () => db().collection('discounts');
const redemptionRef = (code: string, orderId: string) => discounts().doc(code).collection('redemptions').doc(orderId);
const customerRef = (code: string, uid: string) => discounts().doc(code).collection('customers').doc(uid);

export async function createDiscount(actor: AuditActor, input: ParsedDiscountCreate): Promise<Discount> {
  const ref = discounts().doc(input.code);
  const at = new Date().toISOString();
  const doc: StoredDiscount = {
    code: input.code,
    percentOffBp: input.percentOff !== undefined ? Math.round(input.percentOff * 100) : null,
    amountOffCents: input.amountOff ?? null,
    minSubtotalCents: input.minSubtotal ?? 0,
    maxRedemptions: input.maxRedemptions ?? null,
    oncePerCustomer: input.oncePerCustomer,
    startsAt: input.startsAt ?? null,
    endsAt: input.endsAt ?? null,
    categories: input.categories ?? [],
    paused: false,
    redemptions: 0,
    createdAt: at,
    updatedAt: at,
    createdBy: actor.username,
  };
  const { createdAt: _c, updatedAt: _u, createdBy: _b, redemptions: _r, ...rule } = doc;
  try {
    // A transaction: the audit event is a link of the chain, whose head it reads (decision 036).
    await db().runTransaction(async (tx) => {
      const log = await openAudit(tx);
      tx.create(ref, doc);
      appendAudit(log, actor, { action: 'discount.create', target: `discounts/${input.code}`, changes: Object.fromEntries(Object.entries(rule).map(([k, v]) => [k, { before: null, after: v }])) }, at);
    });
  } catch (error) {
    if ((error as { code?: number }).code === 6 /* ALREADY_EXISTS */) throw new HttpError(409, `The discount code ${input.code} already exists`, { code: 'DISCOUNT_EXISTS' });
    throw error;
  }
  return discountFromStored(doc);
}

export async function setPaused(actor: AuditActor, code: string, paused: boolean): Promise<Discount> {
  const ref = discounts().doc(code);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    const doc = snap.data() as StoredDiscount | undefined;
    if (!doc) throw new HttpError(404, 'Discount code not found');
    if (doc.paused === paused) return discountFromStored(doc);
    const log = await openAudit(tx);
    const at = new Date().toISOString();
    tx.update(ref, { paused, updatedAt: at });
    appendAudit(log, actor, { action: 'discount.pause', target: `discounts/${code}`, changes: { paused: { before: doc.paused, after: paused } } }, at);
    return discountFromStored({ ...doc, paused, updatedAt: at });
  });
}

export async function getDiscount(code: string): Promise<StoredDiscount | undefined> {
  const snap = await discounts().doc(code).get();
  countReads(1);
  return snap.data() as StoredDiscount | undefined;
}


/** Newest first, one query per page ((createdAt, id) cursor). */
async function pageOf<T>(base: Query, field: string, limit: number, cursor: string | undefined, map: (id: string, data: Record<string, unknown>) => T): Promise<{ items: T[]; nextCursor: string | null }> {
  let q = base.orderBy(field, 'desc').orderBy(FieldPath.documentId(), 'desc');
  if (cursor) {
    const [at, id] = decodePageCursor(cursor);
    q = q.startAfter(at, id);
  }
  const snap = await runQuery(q.limit(limit + 1));
  const docs = snap.docs.slice(0, limit);
  const last = docs[docs.length - 1];
  return { items: docs.map((d) => map(d.id, d.data())), nextCursor: snap.docs.length > limit && last ? encodePageCursor([String(last.get(field)), last.id]) : null };
}

export async function listDiscounts(limit: number, cursor?: string): Promise<DiscountsPage> {
  const page = await pageOf(discounts(), 'createdAt', limit, cursor, (_id, d) => discountFromStored(d as unknown as StoredDiscount));
  return { discounts: page.items, nextCursor: page.nextCursor };
}

interface RedemptionDoc {
  orderId: string;
  uid: string;
  email: string;
  cents: number;
  at: string;
  returnedAt: string | null;
}

export async function listRedemptions(code: string, limit: number, cursor?: string): Promise<RedemptionsPage> {
  const page = await pageOf(discounts().doc(code).collection('redemptions'), 'at', limit, cursor, (_id, d): DiscountRedemption => {
    const r = d as unknown as RedemptionDoc;
    return { orderId: r.orderId, email: r.email, discount: fromCents(r.cents), at: r.at, returnedAt: r.returnedAt };
  });
  return { redemptions: page.items, nextCursor: page.nextCursor };
}

/** What an order's transaction read of its code; `write` records the redemption once its writes start. */
export interface StagedRedemption {
  code: string;
  cents: number;
  write(orderId: string, email: string, at: string): void;
}

/**
 * Reads `code` (and, for a once-per-customer code, this customer's use) in the order's transaction,
 * and answers what it takes off `books`, or throws the refusal (404 unknown, 422 not valid now or for
 * this cart, 409 DISCOUNT_EXHAUSTED past its limit). Reads only: call before the transaction writes.
 */
export async function stageRedemption(tx: Transaction, code: string, uid: string, books: readonly DiscountedBook[], now: string): Promise<StagedRedemption> {
  const ref = discounts().doc(code);
  const [snap, used] = await tx.getAll(ref, customerRef(code, uid));
  countReads(2);
  const doc = snap!.data() as StoredDiscount | undefined;
  const verdict = discountVerdict(doc, books, now, Boolean(doc?.oncePerCustomer && used!.exists));
  if (!verdict.ok) throw new HttpError(verdict.status, verdict.message, { code: verdict.code });
  return {
    code,
    cents: verdict.cents,
    write(orderId, email, at) {
      // The count read above, plus one: a concurrent order that read the same count cannot also commit.
      tx.update(ref, { redemptions: doc!.redemptions + 1 });
      tx.create(redemptionRef(code, orderId), { orderId, uid, email, cents: verdict.cents, at, returnedAt: null } satisfies RedemptionDoc);
      if (doc!.oncePerCustomer) tx.set(customerRef(code, uid), { orderId, at });
    },
  };
}

/** A cancelled or refused order gives its redemption back, in the transaction that moves it (once: that transaction read its status). */
export function giveBackRedemption(tx: Transaction, code: string, orderId: string, uid: string, at: string): void {
  tx.update(discounts().doc(code), { redemptions: FieldValue.increment(-1) });
  tx.update(redemptionRef(code, orderId), { returnedAt: at });
  tx.delete(customerRef(code, uid));
}
