import { countsInRevenue, discountOfCopies, fromCents, shopDay, type ChannelMargin, type DayMargin, type StoredOrder } from '@bookstore/contract';
import { db } from '../lib/firebase';
import { runPagedQuery } from '../lib/queries';
import { ORDERS_COLLECTION } from '../orders/order-writes';
import { averageCosts } from './purchasing-docs';

// The day's gross margin (issue 56): the goods sold that day, at what was charged, less their copies'
// average cost (bookCosts/<bookId>, the moving average receipts keep: its value now, not at the
// sale's time, which the shop does not record), web and counter apart. Read when asked, from the
// day's own documents only: its cost grows with that day's trade, never with the catalogue or the
// history. Tax, postage and gift cards sold are not goods and are left out.
//   web:     orders created that shop day whose status counts in revenue, less the lines refunded
//            back to stock (`restocked`) and the discount still redeemed;
//   counter: book lines of that day's completed sales, less the copies returned since and the kept
//            copies' share of a discount code.

const DAY_MS = 24 * 60 * 60 * 1000;

interface Sold {
  bookId: string;
  units: number;
  cents: number;
}

/** The web's goods of `day`: a day in any zone lies within UTC's day before and after, filtered by shopDay. */
async function webSold(day: string): Promise<{ sold: Sold[]; discountCents: number }> {
  const from = new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString();
  const to = new Date(Date.parse(`${day}T00:00:00Z`) + 2 * DAY_MS).toISOString();
  const docs = await runPagedQuery(db().collection(ORDERS_COLLECTION).where('createdAt', '>=', from).where('createdAt', '<', to).select('createdAt', 'status', 'items', 'restocked', 'discount'), 'createdAt');
  const sold: Sold[] = [];
  let discountCents = 0;
  for (const doc of docs) {
    const order = doc.data() as Pick<StoredOrder, 'createdAt' | 'status' | 'items' | 'restocked' | 'discount'>;
    if (shopDay(order.createdAt) !== day || !countsInRevenue(order.status)) continue;
    const back = new Set(order.restocked ?? []);
    for (const line of order.items ?? []) if (!back.has(line.bookId)) sold.push({ bookId: line.bookId, units: 1, cents: line.unitPriceCents });
    if (order.discount && !order.discount.returnedAt) discountCents += order.discount.cents;
  }
  return { sold, discountCents };
}

interface StoredSaleForMargin {
  status?: string;
  lines?: { kind?: string; bookId?: string; quantity: number; unitPriceCents: number; discountCents?: number }[];
  returned?: Record<string, number>;
}

/** The counter's goods of `day`: completed sales' book lines, less the copies returned. */
async function counterSold(day: string): Promise<Sold[]> {
  const docs = await runPagedQuery(db().collection('sales').where('day', '==', day).select('status', 'lines', 'returned'));
  const sold: Sold[] = [];
  for (const doc of docs) {
    const sale = doc.data() as StoredSaleForMargin;
    // A sale still waiting for its card, or whose card failed, sold nothing (Stripe Terminal, issue 57).
    if (sale.status !== undefined && sale.status !== 'complete') continue;
    for (const line of sale.lines ?? []) {
      if (line.kind !== 'book' || !line.bookId) continue;
      const returned = sale.returned?.[line.bookId] ?? 0;
      const units = Math.max(0, line.quantity - returned);
      // Less the kept copies' share of a discount code (issue 57): the returned ones gave theirs back.
      if (units > 0) sold.push({ bookId: line.bookId, units, cents: units * line.unitPriceCents - discountOfCopies(line, returned, units) });
    }
  }
  return sold;
}

/** A channel's figures from what it sold (cents in, dollars out). */
export function channelMargin(sold: Sold[], costs: Map<string, number>, lessCents = 0): ChannelMargin {
  let units = 0;
  let salesCents = -lessCents;
  let costCents = 0;
  let costedSalesCents = -lessCents;
  let uncostedUnits = 0;
  for (const s of sold) {
    units += s.units;
    salesCents += s.cents;
    const avg = costs.get(s.bookId);
    if (avg === undefined) {
      uncostedUnits += s.units;
      continue;
    }
    costCents += s.units * avg;
    costedSalesCents += s.cents;
  }
  const costed = units - uncostedUnits > 0;
  return {
    units, sales: fromCents(Math.max(0, salesCents)), cost: fromCents(costCents),
    margin: costed ? fromCents(costedSalesCents - costCents) : null, uncostedUnits,
  };
}

export async function dayMargin(day: string): Promise<DayMargin> {
  const [web, counter] = await Promise.all([webSold(day), counterSold(day)]);
  const costs = await averageCosts([...new Set([...web.sold, ...counter].map((s) => s.bookId))]);
  return { date: day, web: channelMargin(web.sold, costs, web.discountCents), counter: channelMargin(counter, costs) };
}
