import type { MonthlySales, OrderCounts, OrderStatus, StoredCharges, StoredPayment } from '@bookstore/contract';
import { countsInRevenue, fromCents, ORDER_STATUSES, PAID_STATUSES, refundedCentsOf } from '@bookstore/contract';

// The shop's counters are spread over COUNTER_SHARDS documents `stats/counters-<k>`; each placement
// or status change increments the fields of ONE shard chosen at random, in its own transaction,
// and readers sum the shards. Firestore sustains about one write per second per document, so the
// layout takes about COUNTER_SHARDS order writes per second (placements and status changes
// together) before commits start to queue; one `stats/totals` document written by every order
// capped the whole shop at about one.
//
// 4, not 10: the desk's first page reads 25 orders plus every shard, and issue 11 budgets that
// page at 30 document reads. Raise it (and that budget) for a busier shop; readers adapt.
//
// Fields of a shard (all integers, absent = 0):
//   orders, salesCents            orders that count in revenue (not cancelled or refused)
//   shippingCents, taxCents       of salesCents: shipping (without its tax) and tax, so the books'
//                                 own revenue is salesCents - shippingCents - taxCents (issue 27)
//   collectedOrders, collectedCents   the orders paid for: cash when delivered or collected (issue 29),
//                                 card when Stripe's payment arrived (issue 35; what it received)
//   refunds, refundedCents        refunds made (desk or Stripe's dashboard), kept apart from sales
//   disputesLost, disputeLostCents   chargebacks lost (issue 54): their amount also leaves collectedCents
//   discountCents                 of the books' list price, what discount codes took off (not in salesCents; issue 40)
//   giftCardCents                 of salesCents, what gift cards paid (the rest was due in cash or by card; issue 40)
//   status_<status>               orders in each status
//   m_<YYYYMM>_orders, m_<YYYYMM>_salesCents   the same per month of placement (for the chart)
//   counterSales, counterSalesCents, counterReturns, counterRefundCents
//                                 counter sales and returns (issue 39, sales/takings.ts): kept apart
//                                 from the web's figures above, which they never enter
//   counterGiftCards, counterGiftCardCents, counterStoreCreditCents
//                                 gift cards sold at the till and returns given as store credit
//                                 (issue 40): liabilities, apart from the counter's book sales

export const COUNTER_SHARDS = 4;
export const COUNTERS_COLLECTION = 'stats';
export const counterShardId = (shard: number) => `counters-${shard}`;

export type CounterDelta = Record<string, number>;

/** What the counters need to know about an order. */
export interface CountedOrder {
  status: OrderStatus;
  totalCents: number;
  createdAt: string; // ISO; its month is the month the order counts in
  /** What the order was charged (orders priced with a delivery method); absent: all of it is books. */
  charges?: Pick<StoredCharges, 'shippingCents' | 'shippingTaxCents' | 'taxCents' | 'taxIncluded' | 'discountCents'>;
  /** Card orders (and refunded cash orders): collected when paid, not when delivered (issue 35). */
  payment?: Pick<StoredPayment, 'method' | 'paidCents' | 'refunds' | 'problem' | 'dispute'>;
  /** Issue 40: what a gift card paid (not in `totalCents`, which is what remained due). */
  giftCardCents?: number;
  /** Issue 40: desk refunds put back on that gift card (counted as refunds, like money refunds). */
  giftCardRefundCents?: number[];
}

/** Shipping as revenue: what was charged for it, without the tax on it when prices include tax. */
export function shippingRevenueCents(charges: CountedOrder['charges']): number {
  if (!charges) return 0;
  return charges.shippingCents - (charges.taxIncluded ? charges.shippingTaxCents : 0);
}

const monthOf = (createdAt: string) => createdAt.slice(0, 7);
// Plain identifiers only (no '-'): field paths that need quoting are where emulators differ.
const monthField = (month: string, what: 'orders' | 'salesCents') => `m_${month.replace('-', '')}_${what}`;

function add(delta: CounterDelta, field: string, by: number): void {
  delta[field] = (delta[field] ?? 0) + by;
  if (delta[field] === 0) delete delta[field];
}

function revenue(delta: CounterDelta, order: CountedOrder, sign: 1 | -1): void {
  const month = monthOf(order.createdAt);
  add(delta, 'orders', sign);
  // Issue 40: the order's worth is what remained due plus what a gift card paid (the card's value
  // was no sale when issued: it is a sale when spent). The discount is already off the books.
  const worth = order.totalCents + (order.giftCardCents ?? 0);
  add(delta, 'salesCents', sign * worth);
  add(delta, 'shippingCents', sign * shippingRevenueCents(order.charges));
  add(delta, 'taxCents', sign * (order.charges?.taxCents ?? 0));
  add(delta, 'discountCents', sign * (order.charges?.discountCents ?? 0));
  add(delta, 'giftCardCents', sign * (order.giftCardCents ?? 0));
  add(delta, monthField(month, 'orders'), sign);
  add(delta, monthField(month, 'salesCents'), sign * worth);
}

const byCard = (order: Pick<CountedOrder, 'payment'>) => order.payment?.method === 'card';
/** Cash is in hand when the order is delivered or collected; a card order's status says nothing of it. */
const isPaid = (order: Pick<CountedOrder, 'payment'>, status: OrderStatus) => !byCard(order) && PAID_STATUSES.includes(status);

function collected(delta: CounterDelta, order: CountedOrder, sign: 1 | -1): void {
  add(delta, 'collectedOrders', sign);
  add(delta, 'collectedCents', sign * order.totalCents);
}

/** A chargeback lost (issue 54): the money went back to the customer through their bank. */
export function disputeLostDelta(cents: number): CounterDelta {
  const delta: CounterDelta = {};
  add(delta, 'disputesLost', 1);
  add(delta, 'disputeLostCents', cents);
  add(delta, 'collectedCents', -cents);
  return delta;
}

/** A card payment arrived: what Stripe received counts as collected (a flagged amount only once resolved). */
export function cardPaidDelta(paidCents: number): CounterDelta {
  const delta: CounterDelta = {};
  add(delta, 'collectedOrders', 1);
  add(delta, 'collectedCents', paidCents);
  return delta;
}

/** A refund counted (sign 1) or, having failed at the bank after all, taken back (-1). */
export function refundDelta(amountCents: number, sign: 1 | -1 = 1): CounterDelta {
  const delta: CounterDelta = {};
  add(delta, 'refunds', sign);
  add(delta, 'refundedCents', sign * amountCents);
  return delta;
}

/** Merges counter deltas (one write per transaction). */
export function mergeDeltas(...deltas: CounterDelta[]): CounterDelta {
  const total: CounterDelta = {};
  for (const delta of deltas) for (const [field, by] of Object.entries(delta)) add(total, field, by);
  return total;
}

/** A new order: counted in its status and, unless it starts out of revenue, in revenue. */
export function placementDelta(order: CountedOrder): CounterDelta {
  const delta: CounterDelta = {};
  add(delta, `status_${order.status}`, 1);
  if (countsInRevenue(order.status)) revenue(delta, order, 1);
  // Only a recount meets an order already paid for or refunded; a new one never starts so.
  if (isPaid(order, order.status)) collected(delta, order, 1);
  const paidByCard = byCard(order) && (order.payment?.paidCents ?? 0) > 0 && order.payment?.problem?.code !== 'AMOUNT_MISMATCH';
  if (paidByCard) for (const [field, by] of Object.entries(cardPaidDelta(order.payment!.paidCents!))) add(delta, field, by);
  for (const refund of order.payment?.refunds ?? []) {
    if (refundedCentsOf([refund]) > 0) for (const [field, by] of Object.entries(refundDelta(refund.amountCents))) add(delta, field, by);
  }
  for (const cents of order.giftCardRefundCents ?? []) for (const [field, by] of Object.entries(refundDelta(cents))) add(delta, field, by);
  if (order.payment?.dispute?.lostCounted) for (const [field, by] of Object.entries(disputeLostDelta(order.payment.dispute.amountCents))) add(delta, field, by);
  return delta;
}

/** An order moving from one status to another. */
export function transitionDelta(order: Omit<CountedOrder, 'status'>, from: OrderStatus, to: OrderStatus): CounterDelta {
  const delta: CounterDelta = {};
  add(delta, `status_${from}`, -1);
  add(delta, `status_${to}`, 1);
  if (countsInRevenue(from) !== countsInRevenue(to)) revenue(delta, { ...order, status: to }, countsInRevenue(to) ? 1 : -1);
  if (isPaid(order, from) !== isPaid(order, to)) collected(delta, { ...order, status: to }, isPaid(order, to) ? 1 : -1);
  return delta;
}

/** The counters computed from scratch: what the shards must sum to (migration and tests). */
export function recount(orders: Iterable<CountedOrder>): CounterDelta {
  const total: CounterDelta = {};
  for (const order of orders) {
    for (const [field, by] of Object.entries(placementDelta(order))) add(total, field, by);
  }
  return total;
}

/** Field-by-field sum of the shard documents (missing documents count as empty). */
export function sumShards(shards: (Record<string, unknown> | undefined)[]): CounterDelta {
  const total: CounterDelta = {};
  for (const shard of shards) {
    for (const [field, value] of Object.entries(shard ?? {})) {
      if (typeof value === 'number') add(total, field, value);
    }
  }
  return total;
}

export function orderCounts(totals: CounterDelta): OrderCounts {
  const counts = { all: 0 } as OrderCounts;
  for (const status of ORDER_STATUSES) {
    counts[status] = totals[`status_${status}`] ?? 0;
    counts.all += counts[status];
  }
  return counts;
}

export function monthlySales(totals: CounterDelta, months: string[]): MonthlySales[] {
  return months.map((month) => ({
    month,
    totalOrders: totals[monthField(month, 'orders')] ?? 0,
    totalSales: fromCents(totals[monthField(month, 'salesCents')] ?? 0),
  }));
}

export function randomShard(): number {
  return Math.floor(Math.random() * COUNTER_SHARDS);
}
