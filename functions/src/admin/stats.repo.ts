import type { AdminStats } from '@bookstore/contract';
import { fromCents, OPEN_SPECIAL_STATUSES, OPEN_STATUSES } from '@bookstore/contract';
import { db } from '../lib/firebase';
import { runCount } from '../lib/queries';
import { countBooks, lowStockBooks } from '../books/books.repo';
import { monthlySales, orderCounts } from '../counters/counters';
import { readCounterTotals } from '../counters/counters.repo';
import { latestOrders } from '../orders/orders.repo';
import { giftCardLiabilityCents } from '../promotions/gift-cards.repo';

// The order figures come from the sharded counters (counters/counters.ts), moved in the same
// transaction as each order and status change: the overview reads the shards, two count()
// aggregations over books, at most 5 low-stock books and the 5 newest orders, whatever the
// number of orders.

export function monthKey(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** The last 12 months, oldest first, ending with the current one (UTC). */
export function lastTwelveMonths(now = new Date()): string[] {
  const months: string[] = [];
  for (let i = 11; i >= 0; i--) {
    months.push(monthKey(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1))));
  }
  return months;
}

export async function readStats(now = new Date()): Promise<AdminStats> {
  const [bookCounts, totals, lowStock, latest, extra] = await Promise.all([countBooks(), readCounterTotals(), lowStockBooks(), latestOrders(), countPreordersAndSpecials()]);
  const counts = orderCounts(totals);
  return {
    totalBooks: bookCounts.total,
    totalSales: fromCents(totals.salesCents ?? 0),
    salesSplit: {
      books: fromCents((totals.salesCents ?? 0) - (totals.shippingCents ?? 0) - (totals.taxCents ?? 0)),
      shipping: fromCents(totals.shippingCents ?? 0),
      tax: fromCents(totals.taxCents ?? 0),
    },
    promotions: {
      paidByGiftCard: fromCents(totals.giftCardCents ?? 0), discounts: fromCents(totals.discountCents ?? 0),
      // Issue 55: from the same shards (promotions/gift-cards.repo.ts), never a read of the cards.
      giftCardLiability: fromCents(giftCardLiabilityCents(totals)),
    },
    collectedSales: fromCents(totals.collectedCents ?? 0),
    collectedOrders: totals.collectedOrders ?? 0,
    refundedSales: fromCents(totals.refundedCents ?? 0),
    refunds: totals.refunds ?? 0,
    trendingBooks: bookCounts.trending,
    totalOrders: totals.orders ?? 0,
    monthlySales: monthlySales(totals, lastTwelveMonths(now)),
    ordersToProcess: OPEN_STATUSES.reduce((sum, status) => sum + counts[status], 0),
    orderCounts: counts,
    lowStockBooks: lowStock,
    latestOrders: latest,
    // Counter sales (issue 39, sales/takings.ts), from the same shards: beside the web's, never inside them.
    counter: {
      count: totals.counterSales ?? 0,
      sales: fromCents(totals.counterSalesCents ?? 0),
      returns: totals.counterReturns ?? 0,
      refunds: fromCents(totals.counterRefundCents ?? 0),
      net: fromCents((totals.counterSalesCents ?? 0) - (totals.counterRefundCents ?? 0) - (totals.counterStoreCreditCents ?? 0)),
      // Issue 40: gift cards sold at the till are not sales until spent; store credit undoes a sale like a refund.
      giftCardsSold: fromCents(totals.counterGiftCardCents ?? 0),
      storeCredit: fromCents(totals.counterStoreCreditCents ?? 0),
    },
    ...extra,
  };
}

/** Issue 41: four count() aggregations (one read per 1,000 entries), whatever the number of orders. */
async function countPreordersAndSpecials(): Promise<Pick<AdminStats, 'preorders' | 'specialOrders'>> {
  const preorders = db().collection('preorders');
  const specials = db().collection('specialOrders');
  const [waiting, allocated, open, quoted] = await Promise.all([
    runCount(preorders.where('state', '==', 'waiting')),
    runCount(preorders.where('state', '==', 'allocated')),
    runCount(specials.where('status', 'in', [...OPEN_SPECIAL_STATUSES])),
    runCount(specials.where('status', '==', 'quoted')),
  ]);
  return { preorders: { waiting, allocated }, specialOrders: { open, quoted } };
}
