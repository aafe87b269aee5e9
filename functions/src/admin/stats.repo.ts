import type { AdminStats, MonthlySales } from '@bookstore/contract';
import { fromCents } from '@bookstore/contract';
import { countBooks } from '../books/books.repo';
import { db } from '../lib/firebase';
import { countReads } from '../lib/read-counter';

// Counters kept in the same transaction as each order: the dashboard reads 13 small documents
// and two count() aggregations, whatever the number of orders.
interface Counters {
  totalOrders?: number;
  totalSalesCents?: number;
}

export const statsTotalsRef = () => db().collection('stats').doc('totals');
export const statsMonthRef = (month: string) => db().collection('stats').doc(`month-${month}`);

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
  const months = lastTwelveMonths(now);
  const [bookCounts, snaps] = await Promise.all([
    countBooks(),
    db().getAll(statsTotalsRef(), ...months.map(statsMonthRef)),
  ]);
  countReads(snaps.length);
  const [totals, ...monthly] = snaps.map((s) => (s.exists ? (s.data() as Counters) : {}));
  const monthlySales: MonthlySales[] = months.map((month, i) => ({
    month,
    totalOrders: monthly[i]?.totalOrders ?? 0,
    totalSales: fromCents(monthly[i]?.totalSalesCents ?? 0),
  }));
  return {
    totalBooks: bookCounts.total,
    totalSales: fromCents(totals?.totalSalesCents ?? 0),
    trendingBooks: bookCounts.trending,
    totalOrders: totals?.totalOrders ?? 0,
    monthlySales,
  };
}
