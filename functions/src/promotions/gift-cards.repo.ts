import { createHash, randomInt } from 'node:crypto';
import {
  formatGiftCardCode, fromCents, GIFT_CARD_ALPHABET, giftCardCheckSymbol, giftCardFromStored,
  type GiftCard, type GiftCardMovement, type GiftCardMovementKind, type IssuedGiftCard, type StoredGiftCard,
} from '@bookstore/contract';
import { FieldPath, type DocumentSnapshot, type Transaction } from 'firebase-admin/firestore';
import { appendAudit, openAudit, type AuditActor } from '../admin/audit.repo';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { decodePageCursor, encodePageCursor } from '../lib/page-cursor';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { addToCounters } from '../counters/counters.repo';

// Gift cards (issue 40): giftCards/<sha256 of the code> holds the balance (cents); the code itself
// is never stored, so a leak of the database or of the admin pages gives no spendable code. Every
// movement is a ledger line (giftCards/<id>/ledger/<auto>) written in the same transaction as the
// balance it changes. An order reads the card in its own transaction and writes the balance it read
// minus what it pays: two orders racing for one card both read it, one commit wins, the other runs
// again and sees what is left (never below zero).

//
// The liability (issue 55: what the shop owes on its cards, a figure of the overview) is kept in the
// shop's sharded counters (counters/counters.ts), moved in the transaction of each balance change, so
// the overview reads the shards, never the cards:
//   giftCardIssuedCents   value put on cards (issued by staff, sold at the counter, store credit)
//   giftCardSpentCents    value spent by orders, less what cancels and refunds gave back
//   giftCardVoidedCents   balances voided
// liability = issued - spent - voided (= the sum of every card's balance).

export const giftCards = () => db().collection('giftCards');

/** The liability counters' fields (above). */
export const LIABILITY = { issued: 'giftCardIssuedCents', spent: 'giftCardSpentCents', voided: 'giftCardVoidedCents' } as const;

/** What the shop owes on its gift cards, from summed counter totals. */
export const giftCardLiabilityCents = (totals: Record<string, number>) =>
  (totals[LIABILITY.issued] ?? 0) - (totals[LIABILITY.spent] ?? 0) - (totals[LIABILITY.voided] ?? 0);
export const giftCardId = (code: string) => createHash('sha256').update(`giftcard:${code}`).digest('hex').slice(0, 40);
const ledger = (id: string) => giftCards().doc(id).collection('ledger');

/** 15 random symbols (75 bits) and the check symbol. */
export function newGiftCardCode(): string {
  let body = '';
  for (let i = 0; i < 15; i++) body += GIFT_CARD_ALPHABET[randomInt(GIFT_CARD_ALPHABET.length)];
  return body + giftCardCheckSymbol(body);
}

export interface IssueRequest {
  amountCents: number;
  recipientEmail?: string;
  kind: Extract<GiftCardMovementKind, 'issued' | 'store-credit'>;
  orderId?: string;
}

/** Issues a card (staff, or store credit for a return): the card, its first ledger line and the audit event in one transaction. */
export async function issueGiftCard(actor: AuditActor, request: IssueRequest): Promise<IssuedGiftCard> {
  const code = newGiftCardCode();
  const id = giftCardId(code);
  const at = new Date().toISOString();
  const doc: StoredGiftCard = {
    last4: code.slice(-4), balanceCents: request.amountCents, initialCents: request.amountCents,
    recipientEmail: request.recipientEmail ?? null, createdAt: at, updatedAt: at, createdBy: actor.username,
  };
  // A transaction: the audit event is a link of the chain, whose head it reads (decision 036).
  await db().runTransaction(async (tx) => {
    const log = await openAudit(tx);
    tx.create(giftCards().doc(id), doc);
    tx.create(ledger(id).doc(), { kind: request.kind, cents: request.amountCents, balanceAfterCents: request.amountCents, at, by: actor.username, ...(request.orderId ? { orderId: request.orderId } : {}) });
    addToCounters(tx, { [LIABILITY.issued]: request.amountCents });
    appendAudit(log, actor, {
      action: 'giftcard.issue', target: `giftCards/${id}`,
      changes: { amount: { before: null, after: fromCents(request.amountCents) }, kind: { before: null, after: request.kind }, ...(request.orderId ? { orderId: { before: null, after: request.orderId } } : {}) },
    }, at);
  });
  return { code: formatGiftCardCode(code), balance: fromCents(request.amountCents), id };
}

export interface StagedIssue {
  id: string;
  last4: string;
  /** Creates the card and its first ledger line (no audit event: the caller's one event names the card). */
  write(at: string): void;
}

/**
 * Reads, in the caller's transaction (a counter sale, a return as store credit: issue 40), that no
 * card has this code yet, and stages its issue: the code is the server's for that sale or return, or
 * one reserved for the till (issue 55: sales/gift-card-codes.ts), so a retry of the same sale or
 * return names the same card; a code an existing card has is 409 GIFT_CARD_CODE_TAKEN.
 */
export async function stageGiftCardIssue(
  tx: Transaction, code: string, issue: { amountCents: number; kind: IssueRequest['kind']; by: string; saleId: string },
): Promise<StagedIssue> {
  const id = giftCardId(code);
  const ref = giftCards().doc(id);
  const snap = await tx.get(ref);
  countReads(1);
  if (snap.exists) throw new HttpError(409, 'A gift card with this code exists already: make a new code and send it again', { code: 'GIFT_CARD_CODE_TAKEN' });
  const last4 = code.slice(-4);
  return {
    id, last4,
    write(at) {
      const doc: StoredGiftCard = { last4, balanceCents: issue.amountCents, initialCents: issue.amountCents, recipientEmail: null, createdAt: at, updatedAt: at, createdBy: issue.by };
      tx.create(ref, doc);
      tx.create(ledger(id).doc(), { kind: issue.kind, cents: issue.amountCents, balanceAfterCents: issue.amountCents, at, by: issue.by, saleId: issue.saleId });
      addToCounters(tx, { [LIABILITY.issued]: issue.amountCents });
    },
  };
}

export interface CardRead {
  id: string;
  last4: string;
  balanceCents: number;
  voided: boolean;
}

const cardOf = (snap: DocumentSnapshot): CardRead | undefined => {
  const doc = snap.data() as StoredGiftCard | undefined;
  return doc ? { id: snap.id, last4: doc.last4, balanceCents: doc.balanceCents, voided: Boolean(doc.voidedAt) } : undefined;
};

/** The card a canonical code names (1 read), outside any transaction: the quote and the balance check. */
export async function readGiftCard(code: string): Promise<CardRead | undefined> {
  const snap = await giftCards().doc(giftCardId(code)).get();
  countReads(1);
  return cardOf(snap);
}

export interface StagedSpend {
  id: string;
  last4: string;
  cents: number;
  /** `on`: what spent it, an order (the web) or a sale (the till, issue 57). */
  write(id: string, at: string, on?: LedgerSource): void;
}

/** What a ledger line names as its cause: a web order or a counter sale. */
export type LedgerSource = 'orderId' | 'saleId';

/** Reads the card in the order's transaction: what it pays of `totalCents` (min(balance, total)); 404/422 when it cannot pay. */
export async function stageGiftCardSpend(tx: Transaction, code: string, totalCents: number): Promise<StagedSpend> {
  const ref = giftCards().doc(giftCardId(code));
  const snap = await tx.get(ref);
  countReads(1);
  const card = cardOf(snap);
  if (!card) throw new HttpError(404, 'This gift card does not exist', { code: 'GIFT_CARD_UNKNOWN' });
  // A voided card (issue 55) is answered as an empty one: its balance is 0, and stays so (giveBackToCard).
  if (card.balanceCents <= 0 || card.voided) throw new HttpError(422, 'This gift card has nothing left on it', { code: 'GIFT_CARD_EMPTY' });
  const cents = Math.min(card.balanceCents, totalCents);
  return {
    id: card.id, last4: card.last4, cents,
    write(id, at, on = 'orderId') {
      const after = card.balanceCents - cents; // >= 0: min() above, on the balance this transaction read
      tx.update(ref, { balanceCents: after, updatedAt: at });
      tx.create(ledger(card.id).doc(), { kind: 'spent', cents: -cents, balanceAfterCents: after, at, [on]: id });
      addToCounters(tx, { [LIABILITY.spent]: cents });
    },
  };
}

/** Reads a card by id in `tx` (a give-back needs its balance for the ledger line); reads only. */
export async function readCardForReturn(tx: Transaction, id: string): Promise<CardRead | undefined> {
  const snap = await tx.get(giftCards().doc(id));
  countReads(1);
  return cardOf(snap);
}

/**
 * Puts `cents` back on the card read in `tx` (a cancel or a refund of the order that spent it). A
 * voided card (issue 55) takes the line and loses it at once to a second 'voided' line: the ledger
 * says where the money went, and a void is never undone by a refund.
 */
export function giveBackToCard(tx: Transaction, card: CardRead, cents: number, orderId: string, at: string, by?: string, on: LedgerSource = 'orderId'): void {
  const after = card.balanceCents + cents;
  const ref = giftCards().doc(card.id);
  tx.create(ledger(card.id).doc(), { kind: 'returned', cents, balanceAfterCents: after, at, [on]: orderId, ...(by ? { by } : {}) });
  addToCounters(tx, { [LIABILITY.spent]: -cents, ...(card.voided ? { [LIABILITY.voided]: after } : {}) });
  if (card.voided) {
    tx.update(ref, { balanceCents: 0, updatedAt: at });
    // A millisecond later: the ledger lists by time, and the void follows the give-back.
    const voidAt = new Date(Date.parse(at) + 1).toISOString();
    tx.create(ledger(card.id).doc(), { kind: 'voided', cents: -after, balanceAfterCents: 0, at: voidAt, [on]: orderId });
    return;
  }
  tx.update(ref, { balanceCents: after, updatedAt: at });
}

/**
 * Voids a card (issue 55; owner and manager): its balance to 0 with a 'voided' ledger line, the
 * liability counters and the audit event, in one transaction. 404 for no such card, 409 when it is
 * voided already (nothing written twice).
 */
export async function voidGiftCard(actor: AuditActor, id: string): Promise<GiftCard> {
  const ref = giftCards().doc(id);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    const doc = snap.data() as StoredGiftCard | undefined;
    if (!doc) throw new HttpError(404, 'Gift card not found');
    if (doc.voidedAt) throw new HttpError(409, 'This gift card is voided already', { code: 'GIFT_CARD_VOIDED' });
    const log = await openAudit(tx);
    const at = new Date().toISOString();
    const voided: StoredGiftCard = { ...doc, balanceCents: 0, updatedAt: at, voidedAt: at, voidedBy: actor.username };
    tx.update(ref, { balanceCents: 0, updatedAt: at, voidedAt: at, voidedBy: actor.username });
    tx.create(ledger(id).doc(), { kind: 'voided', cents: -doc.balanceCents, balanceAfterCents: 0, at, by: actor.username });
    if (doc.balanceCents !== 0) addToCounters(tx, { [LIABILITY.voided]: doc.balanceCents });
    appendAudit(log, actor, {
      action: 'giftcard.void', target: `giftCards/${id}`,
      changes: { balance: { before: fromCents(doc.balanceCents), after: 0 }, voidedAt: { before: null, after: at } },
    }, at);
    return giftCardFromStored(id, voided);
  });
}

export interface GiftCardsPage {
  giftCards: GiftCard[];
  nextCursor: string | null;
}


export async function listGiftCards(limit: number, cursor?: string): Promise<GiftCardsPage> {
  let q = giftCards().orderBy('createdAt', 'desc').orderBy(FieldPath.documentId(), 'desc');
  if (cursor) q = q.startAfter(...decodePageCursor(cursor));
  const snap = await runQuery(q.limit(limit + 1));
  const docs = snap.docs.slice(0, limit);
  const last = docs[docs.length - 1];
  return {
    giftCards: docs.map((d) => giftCardFromStored(d.id, d.data() as StoredGiftCard)),
    nextCursor: snap.docs.length > limit && last ? encodePageCursor([String(last.get('createdAt')), last.id]) : null,
  };
}

export interface GiftCardDetail {
  giftCard: GiftCard;
  ledger: GiftCardMovement[];
  nextCursor: string | null;
}

/** A card and one page of its ledger, newest first. */
export async function giftCardDetail(id: string, limit: number, cursor?: string): Promise<GiftCardDetail> {
  const snap = await giftCards().doc(id).get();
  countReads(1);
  if (!snap.exists) throw new HttpError(404, 'Gift card not found');
  let q = ledger(id).orderBy('at', 'desc').orderBy(FieldPath.documentId(), 'desc');
  if (cursor) q = q.startAfter(...decodePageCursor(cursor));
  const lines = await runQuery(q.limit(limit + 1));
  const docs = lines.docs.slice(0, limit);
  const last = docs[docs.length - 1];
  return {
    giftCard: giftCardFromStored(snap.id, snap.data() as StoredGiftCard),
    ledger: docs.map((d) => {
      const l = d.data() as { kind: GiftCardMovementKind; cents: number; balanceAfterCents: number; at: string; orderId?: string; saleId?: string; by?: string };
      return {
        kind: l.kind, amount: fromCents(l.cents), balanceAfter: fromCents(l.balanceAfterCents), at: l.at,
        ...(l.orderId ? { orderId: l.orderId } : {}), ...(l.saleId ? { saleId: l.saleId } : {}), ...(l.by ? { by: l.by } : {}),
      };
    }),
    nextCursor: lines.docs.length > limit && last ? encodePageCursor([String(last.get('at')), last.id]) : null,
  };
}
