import { fromCents, SALE_PAYMENT_METHODS, type ByMethod, type ReturnMethod, type SalePaymentMethod, type SalesSummary } from '@bookstore/contract';
import type { CounterDelta } from '../counters/counters';

// A day's takings at the counter (issue 39), kept as counters so a day's end costs the same at 5
// sales or 5,000: TAKINGS_SHARDS documents `salesDays/<YYYY-MM-DD>-<k>`; each sale or return adds
// to ONE shard chosen at random, with blind increments in its own transaction (no read, no lock),
// and the summary sums the shards. The day is the shop's (SHOP_TIME_ZONE): a sale counts on the
// day it was made, a return on the day it was made (the money left the till that day), whatever
// the day of its sale.
//
// Fields of a shard (integers, absent = 0; a name is text):
//   sales, salesCents                       sales made that day, and their total
//   method_<method>_cents                   of salesCents, paid by each method (issue 57: a gift
//                                           card's part under gift_card, the rest under the sale's method)
//   staff_<hex username>_sales|_cents|_name each staff member's sales (the name as it was last written)
//   giftCards, giftCardCents                of sales and salesCents: gift cards sold (issue 40)
//   returns, refundCents                    returns made that day, and what they paid back in money
//   refund_<method>_cents                   of refundCents, paid back by each method (gift_card: put
//                                           back on the card that paid for the sale, issue 57)
//   storeCreditCents                        returns given back as store credit (a new gift card:
//                                           no money left the till, so not in refundCents; issue 40)
//   priceDiffers                            of sales: charged other than the shop's price (issue 54)
// A sale counts on the day of its soldAt (when the till made it, issue 54), not the day it reached
// the shop: a sale kept offline on Monday and sent on Tuesday is Monday's takings.
// A username may hold '.' and '-': it is written in hex so every field is a plain identifier.
//
// The shop-wide figures the overview shows beside the web's (counters/counters.ts's shards):
//   counterSales, counterSalesCents (books only), counterReturns, counterRefundCents (money back),
//   counterGiftCards, counterGiftCardCents (gift cards sold: money taken, a liability, not revenue
//   until spent, when the web's figures count it), counterStoreCreditCents (returns put on a card).

export const TAKINGS_SHARDS = 4;
export const TAKINGS_COLLECTION = 'salesDays';
export const takingsDocId = (day: string, shard: number) => `${day}-${shard}`;
export const randomTakingsShard = () => Math.floor(Math.random() * TAKINGS_SHARDS);

const staffKey = (username: string) => `staff_${Buffer.from(username, 'utf8').toString('hex')}`;

export interface TakingsWrite {
  /** Incremented. */
  numbers: CounterDelta;
  /** Set. */
  texts: Record<string, string>;
}

export interface CountedSale {
  /** Money taken: books and gift cards. */
  totalCents: number;
  /** Of totalCents, gift cards sold, and how many. */
  giftCardCents: number;
  giftCards: number;
  /** Of totalCents, what each method took (issue 57: a gift card's part apart from the cash or card that paid the rest). */
  tenders: Partial<Record<SalePaymentMethod, number>>;
  by: { username: string; name: string };
  /** A line was charged other than its book's price (issue 54). */
  priceDiffers?: boolean;
}

export interface CountedReturn {
  totalCents: number;
  refundMethod: ReturnMethod;
  /** Issue 57: of totalCents, what went back on the gift card that paid for the sale. */
  giftCardBackCents?: number;
}

/** Fields with 0 left out (a shard's absent field is 0). */
const nonZero = (delta: CounterDelta): CounterDelta => Object.fromEntries(Object.entries(delta).filter(([, by]) => by !== 0));

export function saleTakings(sale: CountedSale): TakingsWrite {
  const key = staffKey(sale.by.username);
  return {
    numbers: nonZero({
      sales: 1, salesCents: sale.totalCents, ...Object.fromEntries(Object.entries(sale.tenders).map(([m, cents]) => [`method_${m}_cents`, cents])),
      [`${key}_sales`]: 1, [`${key}_cents`]: sale.totalCents,
      giftCards: sale.giftCards, giftCardCents: sale.giftCardCents, priceDiffers: sale.priceDiffers ? 1 : 0,
    }),
    texts: { [`${key}_name`]: sale.by.name },
  };
}

/** A return's part back on the gift card that paid counts with the refunds, under gift_card: the day's sales counted it so. */
export function returnTakings(ret: CountedReturn): TakingsWrite {
  const back = ret.giftCardBackCents ?? 0;
  const rest = ret.totalCents - back;
  const onCard: CounterDelta = back > 0 ? { refund_gift_card_cents: back } : {};
  if (ret.refundMethod === 'store_credit') return { numbers: nonZero({ returns: 1, storeCreditCents: rest, refundCents: back, ...onCard }), texts: {} };
  return { numbers: nonZero({ returns: 1, refundCents: ret.totalCents, [`refund_${ret.refundMethod}_cents`]: rest, ...onCard }), texts: {} };
}

/** The shop-wide counters (stats/counters-<k>) a sale moves: the overview's counter figures (gift cards apart from the books' sales). */
export const saleCounterDelta = (sale: CountedSale): CounterDelta =>
  nonZero({ counterSales: 1, counterSalesCents: sale.totalCents - sale.giftCardCents, counterGiftCards: sale.giftCards, counterGiftCardCents: sale.giftCardCents });
/** A return undoes book sales either way; store credit is a liability, not money back. */
export const returnCounterDelta = (ret: CountedReturn): CounterDelta => {
  const back = ret.giftCardBackCents ?? 0;
  return ret.refundMethod === 'store_credit'
    ? nonZero({ counterReturns: 1, counterStoreCreditCents: ret.totalCents - back, counterRefundCents: back })
    : { counterReturns: 1, counterRefundCents: ret.totalCents };
};

const byMethod = (shards: Record<string, unknown>[], prefix: string): ByMethod =>
  Object.fromEntries(SALE_PAYMENT_METHODS.map((m) => [m, fromCents(sum(shards, `${prefix}_${m}_cents`))])) as ByMethod;

function sum(shards: Record<string, unknown>[], field: string): number {
  return shards.reduce((total, shard) => total + (typeof shard[field] === 'number' ? (shard[field] as number) : 0), 0);
}

/** A day's summary from its shards (missing shards count as empty). */
export function summaryOf(date: string, shards: (Record<string, unknown> | undefined)[]): SalesSummary {
  const present = shards.map((s) => s ?? {});
  const staff = new Map<string, { name: string; count: number; cents: number }>();
  for (const shard of present) {
    for (const [field, value] of Object.entries(shard)) {
      const m = /^staff_([0-9a-f]+)_(sales|cents|name)$/.exec(field);
      if (!m) continue;
      const entry = staff.get(m[1]!) ?? { name: Buffer.from(m[1]!, 'hex').toString('utf8'), count: 0, cents: 0 };
      if (m[2] === 'name' && typeof value === 'string') entry.name = value;
      if (m[2] === 'sales' && typeof value === 'number') entry.count += value;
      if (m[2] === 'cents' && typeof value === 'number') entry.cents += value;
      staff.set(m[1]!, entry);
    }
  }
  const salesCents = sum(present, 'salesCents');
  const refundCents = sum(present, 'refundCents');
  return {
    date,
    count: sum(present, 'sales'),
    total: fromCents(salesCents),
    byMethod: byMethod(present, 'method'),
    byStaff: [...staff.values()]
      .filter((s) => s.count !== 0)
      .sort((a, b) => b.cents - a.cents || a.name.localeCompare(b.name))
      .map((s) => ({ name: s.name, count: s.count, total: fromCents(s.cents) })),
    giftCards: { count: sum(present, 'giftCards'), total: fromCents(sum(present, 'giftCardCents')) },
    returns: { count: sum(present, 'returns'), total: fromCents(refundCents), byMethod: byMethod(present, 'refund'), storeCredit: fromCents(sum(present, 'storeCreditCents')) },
    net: fromCents(salesCents - refundCents),
    priceDiffers: sum(present, 'priceDiffers'),
  };
}
