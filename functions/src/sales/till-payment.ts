import {
  fromCents, GIFT_CARD_FOR_GIFT_CARD, GIFT_CARD_TOO_LOW, NOTHING_DUE, SALE_PAYMENT_METHODS, type ParsedSaleInput, type SalePaymentMethod,
} from '@bookstore/contract';
import type { Transaction } from 'firebase-admin/firestore';
import { HttpError } from '../lib/http-error';
import { giveBackRedemption, stageRedemption } from '../promotions/discounts.repo';
import { giveBackToCard, readCardForReturn, stageGiftCardSpend } from '../promotions/gift-cards.repo';
import { allocateDiscount, isBookLine, isCardLine, linesCents, linesDiscountCents, type StoredBookLine, type StoredSaleLine } from './sale-lines';

// Gift cards and discount codes at the till (issue 57), on the web's own rules and in the sale's
// transaction: a discount code is read and counted there (its limit holds against web orders racing
// it: a one-use code used at the till is used up online), and a gift card pays first, up to its
// balance, never below zero. What the card leaves (`due`) is paid by the sale's method: cash, or the
// card reader. A card-reader sale that is never paid gives both back (terminal.ts, releaseTillPayment).
//
// Refused before anything is written: a gift-card-only payment the card cannot cover (422
// GIFT_CARD_TOO_LOW), a card-reader sale the gift card paid in full (422 NOTHING_DUE: pay by gift
// card), a gift card paying for gift cards (422), a code once per customer (the till cannot tell
// who the customer is: 422 DISCOUNT_NEEDS_CUSTOMER); and the web's own refusals of a code or card.

/** What a sale stores of its payment. */
export interface StoredSalePayment {
  method: SalePaymentMethod;
  tenderedCents?: number;
  /** The gift card's part, paid first. */
  giftCard?: { id: string; last4: string; cents: number };
}

/** A discount code a sale used (the shard it was counted in, for a sharded code). */
export interface StoredSaleDiscount {
  code: string;
  cents: number;
  shard?: number;
}

/** Of a sale's categories read with its books: each book line's category, by book id. */
export type LineCategories = ReadonlyMap<string, string | undefined>;

export interface StagedTillPayment {
  /** The lines with the discount spread over them. */
  lines: StoredSaleLine[];
  /** What the sale costs: its lines, less the discount. */
  totalCents: number;
  /** What the sale's method takes: the total less the gift card's part. */
  dueCents: number;
  payment: StoredSalePayment;
  discount?: StoredSaleDiscount;
  write(saleId: string, tillId: string, at: string): void;
}

/** Reads the sale's code and card in `tx` (reads only: call before its writes). */
export async function stageTillPayment(tx: Transaction, input: ParsedSaleInput, priced: StoredSaleLine[], categories: LineCategories, now: string): Promise<StagedTillPayment> {
  const { payment } = input;
  const cardCode = payment.giftCardCode;
  if (cardCode && priced.some(isCardLine)) {
    throw new HttpError(422, 'A gift card cannot pay for gift cards: take cash or the card reader for them', { code: GIFT_CARD_FOR_GIFT_CARD, details: { 'payment.giftCardCode': ['A gift card cannot pay for gift cards'] } });
  }
  // The code sees each copy at the price the till charged, as the web's sees each book in a cart.
  const copies = priced.filter(isBookLine).flatMap((l) => Array.from({ length: l.quantity }, () => ({ priceCents: l.unitPriceCents, category: categories.get(l.bookId) })));
  const redemption = input.discountCode ? await stageRedemption(tx, input.discountCode, null, copies, now) : undefined;
  const wanted = new Set((redemption?.categories ?? []).map((c) => c.toLowerCase()));
  const eligible = (l: StoredBookLine) => wanted.size === 0 || wanted.has(String(categories.get(l.bookId) ?? '').toLowerCase());
  const lines = redemption ? allocateDiscount(priced, redemption.cents, eligible) : priced;
  const totalCents = linesCents(lines) - linesDiscountCents(lines);
  const spend = cardCode && totalCents > 0 ? await stageGiftCardSpend(tx, cardCode, totalCents) : undefined;
  const dueCents = totalCents - (spend?.cents ?? 0);
  if (payment.method === 'gift_card' && dueCents > 0) {
    throw new HttpError(422, `This gift card holds ${fromCents(spend?.cents ?? 0).toFixed(2)}, less than the sale's ${fromCents(totalCents).toFixed(2)}: let it pay part, and the rest by cash or card`, {
      code: GIFT_CARD_TOO_LOW, balance: fromCents(spend?.cents ?? 0), total: fromCents(totalCents), details: { 'payment.giftCardCode': ['The gift card holds less than the total'] },
    });
  }
  if (payment.method === 'card_terminal' && dueCents === 0 && spend) {
    throw new HttpError(422, 'The gift card pays the whole sale: nothing is left for the card reader. Pay by gift card.', { code: NOTHING_DUE });
  }
  return {
    lines, totalCents, dueCents,
    payment: {
      method: payment.method,
      ...(payment.method === 'cash' && payment.tendered !== undefined ? { tenderedCents: payment.tendered } : {}),
      ...(spend ? { giftCard: { id: spend.id, last4: spend.last4, cents: spend.cents } } : {}),
    },
    ...(redemption ? { discount: { code: redemption.code, cents: redemption.cents, ...(redemption.shard !== undefined ? { shard: redemption.shard } : {}) } } : {}),
    write(saleId, tillId, at) {
      redemption?.write(saleId, `till ${tillId}`, at);
      spend?.write(saleId, at, 'saleId');
    },
  };
}

/**
 * A card-reader sale that was never paid gives back what its gift card paid and its discount code's
 * use, in the transaction that ends it (once: that transaction read its status). Reads first, then
 * `write()` after the transaction's other reads.
 */
export async function stageTillPaymentRelease(tx: Transaction, saleId: string, payment: StoredSalePayment, discount: StoredSaleDiscount | undefined): Promise<{ write(at: string): void }> {
  const card = payment.giftCard ? await readCardForReturn(tx, payment.giftCard.id) : undefined;
  return {
    write(at) {
      if (card && payment.giftCard) giveBackToCard(tx, card, payment.giftCard.cents, saleId, at, undefined, 'saleId');
      if (discount) giveBackRedemption(tx, discount.code, saleId, 'counter', at, discount.shard);
    },
  };
}

/** How a sale's money came in, by method (cents): the gift card's part, and the rest by the sale's method. */
export function saleTenders(sale: { totalCents: number; payment: StoredSalePayment }): Partial<Record<SalePaymentMethod, number>> {
  const card = sale.payment.giftCard?.cents ?? 0;
  const tenders: Partial<Record<SalePaymentMethod, number>> = {};
  if (card > 0) tenders.gift_card = card;
  if (sale.totalCents - card > 0 || card === 0) tenders[sale.payment.method] = (tenders[sale.payment.method] ?? 0) + sale.totalCents - card;
  return tenders;
}

/** Every method at 0: a day's or shift's figures list each. */
export const noTenders = (): Record<SalePaymentMethod, number> => Object.fromEntries(SALE_PAYMENT_METHODS.map((m) => [m, 0])) as Record<SalePaymentMethod, number>;
