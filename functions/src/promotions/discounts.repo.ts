import {
  DISCOUNT_NEEDS_CUSTOMER, discountFromStored, discountVerdict, shardAllowances, type Discount, type DiscountedBook, type DiscountRedemption, type DiscountsPage,
  type ParsedDiscountCreate, type RedemptionsPage, type StoredDiscount, fromCents,
} from '@bookstore/contract';
import { randomInt } from 'node:crypto';
import { FieldPath, FieldValue, type Query, type Transaction } from 'firebase-admin/firestore';
import { appendAudit, openAudit, type AuditActor } from '../admin/audit.repo';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { decodePageCursor, encodePageCursor } from '../lib/page-cursor';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { isAlreadyExists } from '../lib/errors';

// Discount codes (issue 40): discounts/<CODE> holds the rule and `redemptions`, the orders that hold
// one now. An order reads the code in its own transaction and writes redemptions + 1 with it, so a
// limit holds under any concurrency: two orders for the last redemption both read it, one commit
// wins, the other runs again and reads it used up (409 DISCOUNT_EXHAUSTED). One redemption document
// per order (redemptions/<orderId>, for the admin page) and, for a once-per-customer code, one per
// customer (customers/<uid>) read in the same transaction. A cancel gives it back in the order's
// cancel transaction (its status is read there, so it happens once). A flash sale's one hot document
// is measured in BENCHMARKS.md (bench/flash-sale.ts), with the rate past which to shard it.
//
// Sharded (created with `shards: N`, decision 040): the uses are counted in N documents
// `discounts/<CODE>/shards/<k>` `{allowance, used}` instead of the code's own `redemptions`, so
// concurrent orders write different documents. An order reads the code (the rule: never written by
// orders, so no contention) and the shards from a random one on, in its transaction, until one has
// uses left, and counts in it (read + 1, exact per shard: the sum never passes maxRedemptions); none
// left is 409 DISCOUNT_EXHAUSTED. The order keeps its shard, so a cancel gives back to that one.

export const discounts = () => db().collection('discounts');
const redemptionRef = (code: string, orderId: string) => discounts().doc(code).collection('redemptions').doc(orderId);
const customerRef = (code: string, uid: string) => discounts().doc(code).collection('customers').doc(uid);
const shardRef = (code: string, k: number) => discounts().doc(code).collection('shards').doc(String(k));

interface ShardDoc {
  allowance: number;
  used: number;
}

/** A sharded code's redemptions: the sum of its shards' (N reads). */
async function withShardCount(doc: StoredDiscount): Promise<StoredDiscount> {
  const n = doc.shards ?? 1;
  if (n <= 1) return doc;
  const snaps = await db().getAll(...Array.from({ length: n }, (_, k) => shardRef(doc.code, k)));
  countReads(snaps.length);
  return { ...doc, redemptions: snaps.reduce((sum, s) => sum + ((s.data() as ShardDoc | undefined)?.used ?? 0), 0) };
}

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
    ...(input.shards && input.shards > 1 ? { shards: input.shards } : {}),
    createdAt: at,
    updatedAt: at,
    createdBy: actor.username,
  };
  const { createdAt: _c, updatedAt: _u, createdBy: _b, redemptions: _r, ...rule } = doc;
  const allowances = doc.shards ? shardAllowances(doc.maxRedemptions!, doc.shards) : [];
  try {
    // A transaction: the audit event is a link of the chain, whose head it reads (decision 036).
    await db().runTransaction(async (tx) => {
      const log = await openAudit(tx);
      tx.create(ref, doc);
      allowances.forEach((allowance, k) => tx.create(shardRef(input.code, k), { allowance, used: 0 } satisfies ShardDoc));
      appendAudit(log, actor, { action: 'discount.create', target: `discounts/${input.code}`, changes: Object.fromEntries(Object.entries(rule).map(([k, v]) => [k, { before: null, after: v }])) }, at);
    });
  } catch (error) {
    if (isAlreadyExists(error)) throw new HttpError(409, `The discount code ${input.code} already exists`, { code: 'DISCOUNT_EXISTS' });
    throw error;
  }
  return discountFromStored(doc);
}

export async function setPaused(actor: AuditActor, code: string, paused: boolean): Promise<Discount> {
  const ref = discounts().doc(code);
  return db().runTransaction(async (tx): Promise<StoredDiscount> => {
    const snap = await tx.get(ref);
    countReads(1);
    const doc = snap.data() as StoredDiscount | undefined;
    if (!doc) throw new HttpError(404, 'Discount code not found');
    if (doc.paused === paused) return doc;
    const log = await openAudit(tx);
    const at = new Date().toISOString();
    tx.update(ref, { paused, updatedAt: at });
    appendAudit(log, actor, { action: 'discount.pause', target: `discounts/${code}`, changes: { paused: { before: doc.paused, after: paused } } }, at);
    return { ...doc, paused, updatedAt: at };
  }).then(async (doc) => discountFromStored(await withShardCount(doc)));
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
  const page = await pageOf(discounts(), 'createdAt', limit, cursor, (_id, d) => d as unknown as StoredDiscount);
  // A sharded code's count is its shards' sum: N more reads for each such code on the page.
  return { discounts: await Promise.all(page.items.map(async (d) => discountFromStored(await withShardCount(d)))), nextCursor: page.nextCursor };
}

interface RedemptionDoc {
  shard?: number;
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
  /** The code's categories (none: every book): the books its discount is spread over (issue 57). */
  categories: string[];
  /** A sharded code: the shard the use is counted in. */
  shard?: number;
  write(orderId: string, email: string, at: string): void;
}

/**
 * Reads `code` (and, for a once-per-customer code, this customer's use) in the order's transaction,
 * and answers what it takes off `books`, or throws the refusal (404 unknown, 422 not valid now or for
 * this cart, 409 DISCOUNT_EXHAUSTED past its limit). Reads only: call before the transaction writes.
 */
export async function stageRedemption(tx: Transaction, code: string, uid: string | null, books: readonly DiscountedBook[], now: string): Promise<StagedRedemption> {
  const ref = discounts().doc(code);
  // uid null: a sale at the till (issue 57), whose customer the shop does not know.
  const [snap, used] = await tx.getAll(ref, ...(uid ? [customerRef(code, uid)] : []));
  countReads(uid ? 2 : 1);
  const doc = snap!.data() as StoredDiscount | undefined;
  if (!uid && doc?.oncePerCustomer) {
    throw new HttpError(422, 'This code is once per customer: the till cannot tell who the customer is, so it is used online', { code: DISCOUNT_NEEDS_CUSTOMER });
  }
  const sharded = (doc?.shards ?? 1) > 1;
  // A sharded code's limit is its shards' (below); the rule's other checks are the same.
  const verdict = discountVerdict(doc && sharded ? { ...doc, maxRedemptions: null } : doc, books, now, Boolean(doc?.oncePerCustomer && used?.exists));
  if (!verdict.ok) throw new HttpError(verdict.status, verdict.message, { code: verdict.code });
  const shard = sharded ? await takeShard(tx, code, doc!.shards!) : undefined;
  return {
    code,
    cents: verdict.cents,
    categories: doc!.categories,
    ...(shard ? { shard: shard.k } : {}),
    write(orderId, email, at) {
      // The count read above, plus one: a concurrent order that read the same count cannot also commit.
      if (shard) tx.update(shardRef(code, shard.k), { used: shard.used + 1 });
      else tx.update(ref, { redemptions: doc!.redemptions + 1 });
      tx.create(redemptionRef(code, orderId), { orderId, uid: uid ?? 'counter', email, cents: verdict.cents, at, returnedAt: null, ...(shard ? { shard: shard.k } : {}) } satisfies RedemptionDoc);
      if (doc!.oncePerCustomer && uid) tx.set(customerRef(code, uid), { orderId, at });
    },
  };
}

/**
 * A shard with uses left, read in the order's transaction from a random one on (orders spread over
 * the shards); 409 DISCOUNT_EXHAUSTED when none has. Reads only.
 */
async function takeShard(tx: Transaction, code: string, shards: number): Promise<{ k: number; used: number }> {
  const first = randomInt(shards);
  for (let i = 0; i < shards; i++) {
    const k = (first + i) % shards;
    const snap = await tx.get(shardRef(code, k));
    countReads(1);
    const shard = snap.data() as ShardDoc | undefined;
    if (shard && shard.used < shard.allowance) return { k, used: shard.used };
  }
  throw new HttpError(409, 'This discount code has been used up', { code: 'DISCOUNT_EXHAUSTED' });
}

/** A cancelled or refused order gives its redemption back, in the transaction that moves it (once: that transaction read its status); to its shard for a sharded code. */
export function giveBackRedemption(tx: Transaction, code: string, orderId: string, uid: string, at: string, shard?: number): void {
  if (shard !== undefined) tx.update(shardRef(code, shard), { used: FieldValue.increment(-1) });
  else tx.update(discounts().doc(code), { redemptions: FieldValue.increment(-1) });
  tx.update(redemptionRef(code, orderId), { returnedAt: at });
  tx.delete(customerRef(code, uid));
}
