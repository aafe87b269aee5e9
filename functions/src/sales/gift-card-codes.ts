import { createHmac, randomBytes } from 'node:crypto';
import { formatGiftCardCode, GIFT_CARD_CODE_UNKNOWN, makeGiftCardCode } from '@bookstore/contract';
import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { jwtSecret } from '../lib/auth';
import { countReads } from '../lib/read-counter';
import { giftCardId } from '../promotions/gift-cards.repo';

// Gift-card codes at the counter come only from the server (issue 55). Before, the till made them,
// so a device could choose any code (`0000-0000-0000-0000` included) and mint a card it knew. Now:
// - online, a gift card line carries no code: the server derives it from the sale's id and the
//   line's place with a keyed hash (HMAC with the server's signing key), so a sale sent again
//   (a lost answer, the offline queue, five at once) names the same card and answers the same code,
//   and no code is stored (the card is kept under the code's hash, as every card is);
// - offline, the till sells a code the server reserved for it earlier (POST /api/admin/gift-cards/reserve):
//   giftCardReservations/<card id> {tillId, reservedBy, reservedAt, usedBy?}, each usable once, by that till only.
// Any other code: 400 GIFT_CARD_CODE_UNKNOWN, and no card, no sale.

export const reservations = () => db().collection('giftCardReservations');

export interface ReservationDoc {
  tillId: string;
  reservedBy: string;
  reservedAt: string;
  /** The sale or return (`sales/<id>`, `saleReturns/<id>`) that used it. */
  usedBy?: string;
  usedAt?: string;
}

/** The server's code for a card made by `source` (a saleId, a returnId) at `slot`: the same for the same inputs. */
export function serverGiftCardCode(source: string, slot: string): string {
  const key = jwtSecret();
  if (!key) throw new HttpError(503, 'Gift cards cannot be issued: the server has no signing key');
  const bytes = createHmac('sha256', key).update(`bookstore gift card code\n${source}\n${slot}`).digest();
  return makeGiftCardCode(bytes.subarray(0, 15));
}

/** Reserves `count` new codes for a till (each its own document); answers them formatted, once. */
export async function reserveCodes(by: string, tillId: string, count: number): Promise<string[]> {
  const at = new Date().toISOString();
  const codes = Array.from({ length: count }, () => makeGiftCardCode(randomBytes(15)));
  const batch = db().batch();
  for (const code of codes) batch.create(reservations().doc(giftCardId(code)), { tillId, reservedBy: by, reservedAt: at } satisfies ReservationDoc);
  await batch.commit();
  return codes.map(formatGiftCardCode);
}

const unknownCode = () =>
  new HttpError(400, 'This gift card code was not made by the shop for this till: sell the card online (no code) or with a code reserved for this till', { code: GIFT_CARD_CODE_UNKNOWN });

export interface StagedClaims {
  /** Marks the reservations used by `target` (call with the transaction's other writes). */
  write(at: string): void;
}

/**
 * Reads, in the sale's or return's transaction (before its writes), that each code the device sent
 * was reserved for `tillId` and not used yet; 400 GIFT_CARD_CODE_UNKNOWN otherwise. A replay of the
 * same sale is answered before this runs, so a used reservation here is another sale's.
 */
export async function claimReservedCodes(tx: Transaction, tillId: string, codes: string[], target: string): Promise<StagedClaims> {
  if (codes.length === 0) return { write: () => {} };
  const refs = codes.map((code) => reservations().doc(giftCardId(code)));
  const snaps = await tx.getAll(...refs);
  countReads(snaps.length);
  for (const snap of snaps) {
    const doc = snap.data() as ReservationDoc | undefined;
    if (!doc || doc.tillId !== tillId || (doc.usedBy && doc.usedBy !== target)) throw unknownCode();
  }
  return {
    write(at) {
      for (const ref of refs) tx.update(ref, { usedBy: target, usedAt: at });
    },
  };
}

/**
 * A sale's lines with every gift card's code: the device's (a reserved code, to be claimed) or the
 * server's for this sale and line. `deviceCodes`: those the device sent, to claim in the transaction.
 */
export function withServerCodes<L extends { kind?: string; code?: string }>(saleId: string, lines: L[]): { lines: (L & { code?: string })[]; deviceCodes: string[] } {
  const deviceCodes: string[] = [];
  const coded = lines.map((line, index) => {
    if (line.kind !== 'gift_card') return line;
    if (line.code) {
      deviceCodes.push(line.code);
      return line;
    }
    return { ...line, code: serverGiftCardCode(saleId, `line ${index}`) };
  });
  return { lines: coded, deviceCodes };
}
