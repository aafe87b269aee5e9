import { shopDay, type AdminStats } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { StatusBadge, shortId } from '../../components/orders/order-status';
import { FullScreenSpinner } from '../../components/ui/spinner';
import { coverUrl } from '../../lib/covers';
import { formatDate, money } from '../../lib/format';
import { statsQuery } from './api/admin-api';
import { RevenueChart } from './components/revenue-chart';
import { GrossMargin } from './purchasing/gross-margin';

function StatIcon({ tone, icon, small = false }: { tone: string; icon: ReactNode; small?: boolean }) {
  return (
    <div className={`inline-flex shrink-0 items-center justify-center rounded-full ${small ? 'mr-4 size-12' : 'mr-6 size-16'} ${tone}`} aria-hidden="true">
      <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">{icon}</svg>
    </div>
  );
}

/** A figure with its label and, under it, what exactly it counts (issue 29: the figures must add up). */
function StatCard({ label, value, detail, tone, icon }: { label: ReactNode; value: ReactNode; detail?: string; tone: string; icon: string }) {
  return (
    <div className="flex items-center rounded-lg bg-white p-6 shadow">
      <StatIcon tone={tone} icon={<path d={icon} />} />
      <div className="min-w-0">
        <span className="block text-2xl font-bold tabular-nums">{value}</span>
        <span className="block font-semibold text-gray-700">{label}</span>
        {detail && <span className="block text-sm text-gray-600">{detail}</span>}
      </div>
    </div>
  );
}

/** A figure that opens the desk on the matching tab. */
function DeskCard({ to, value, label, detail, tone, icon, className = '' }: { to: string; value: number; label: string; detail: string; tone: string; icon: ReactNode; className?: string }) {
  return (
    <Link to={to} className={`group flex items-center rounded-lg bg-white p-6 shadow ring-accent hover:ring-2 focus-visible:ring-2 ${className}`}>
      <StatIcon tone={tone} icon={icon} small />
      <div className="min-w-0">
        <span className="block text-2xl font-bold">{value}</span>
        <span className="block font-medium text-gray-700">{label}</span>
        <span className="block text-sm text-accent group-hover:underline">{detail}<span aria-hidden="true"> &rarr;</span></span>
      </div>
    </Link>
  );
}

/**
 * Counter sales beside the web's (issue 39): separate figures that add up to the shop's whole. Gift
 * cards sold at the till and store credit are said apart (issue 40): a card is a sale when spent.
 */
function CounterBeside({ web, webOrders, counter }: { web: number; webOrders: number; counter: AdminStats['counter'] }) {
  const together = (Math.round(web * 100) + Math.round(counter.net * 100)) / 100;
  return (
    <section className="rounded-lg bg-white p-6 shadow" aria-labelledby="channels-heading">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id="channels-heading" className="font-bold">Web and Counter</h3>
        <Link to="/dashboard/counter/day" className="text-sm font-medium text-accent hover:underline">Day&apos;s end<span aria-hidden="true"> &rarr;</span></Link>
      </div>
      <dl className="mt-3 grid gap-4 sm:grid-cols-3">
        <div>
          <dt className="text-gray-600">Web <span className="text-sm">(Total Sales, {webOrders} {webOrders === 1 ? 'order' : 'orders'})</span></dt>
          <dd className="text-xl font-bold tabular-nums" data-testid="sales-web">{money(web)}</dd>
        </div>
        <div>
          <dt className="text-gray-600">Counter <span className="text-sm">({counter.count} {counter.count === 1 ? 'sale' : 'sales'}, {money(counter.refunds + (counter.storeCredit ?? 0))} returned)</span></dt>
          <dd className="text-xl font-bold tabular-nums" data-testid="sales-counter">{money(counter.net)}</dd>
          {(counter.giftCardsSold > 0 || counter.storeCredit > 0) && (
            <dd className="text-sm text-gray-600" data-testid="counter-gift-cards">
              Not in these sales: {money(counter.giftCardsSold)} of gift cards sold{counter.storeCredit > 0 ? `, ${money(counter.storeCredit)} of returns as store credit` : ''} (counted when spent)
            </dd>
          )}
        </div>
        <div>
          <dt className="text-gray-600">Together</dt>
          <dd className="text-xl font-bold tabular-nums" data-testid="sales-together">{money(together)}</dd>
        </div>
      </dl>
    </section>
  );
}

export function Component() {
  const { data, isPending } = useQuery(statsQuery());
  // Spec: a stats failure is only logged, and the overview stays in its loading state.
  if (isPending || !data) return <FullScreenSpinner />;
  const counts = data.orderCounts;
  const latest = data.latestOrders ?? [];
  const lowStock = data.lowStockBooks ?? [];
  // What the figures leave out, said next to them: the desk's 'All' counts every order.
  const dropped = counts ? counts.cancelled + counts.refused : 0;
  const ordersDetail = counts
    ? `${counts.all} placed, ${dropped} cancelled or refused`
    : 'Not counting cancelled or refused orders';
  const toCollect = Math.max(0, Math.round((data.totalSales - (data.collectedSales ?? 0)) * 100) / 100);
  return (
    <>
      <section className="grid gap-6 md:grid-cols-2 xl:grid-cols-4" aria-label="Shop statistics">
        <StatCard label="Products" value={data.totalBooks} detail="Books in the catalogue" tone="bg-secondary-soft text-secondary" icon="M4 19.5A2.5 2.5 0 0 1 6.5 17H20V3H6.5A2.5 2.5 0 0 0 4 5.5z" />
        <StatCard label="Total Sales" value={money(data.totalSales)} detail="Booked, not counting cancelled ones" tone="bg-primary-soft text-secondary" icon="M12 1v22M17 5H9.5a3.5 3.5 0 0 0 0 7h5a3.5 3.5 0 0 1 0 7H6" />
        <StatCard label="Trending Books in This Month" value={data.trendingBooks} detail="Books marked trending" tone="bg-secondary-soft text-secondary" icon="M23 6l-9.5 9.5-5-5L1 18" />
        <StatCard label="Total Orders" value={data.totalOrders} detail={ordersDetail} tone="bg-accent-soft text-accent" icon="M6 2 3 6v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6l-3-4zM3 6h18M16 10a4 4 0 0 1-8 0" />
      </section>
      <section className="rounded-lg bg-white p-6 shadow" aria-labelledby="money-heading">
        <h3 id="money-heading" className="font-bold">Sales Booked and Collected</h3>
        <p className="text-sm text-gray-600">Cash on delivery: an order is paid when it is delivered or collected in the shop; by card, when Stripe's payment arrives. Cancelled and refused orders are not booked; refunds are counted apart.</p>
        <dl className="mt-3 grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          <div>
            <dt className="text-gray-600">Booked <span className="text-sm">({data.totalOrders} {data.totalOrders === 1 ? 'order' : 'orders'})</span></dt>
            <dd className="text-xl font-bold tabular-nums" data-testid="sales-booked">{money(data.totalSales)}</dd>
          </div>
          <div>
            <dt className="text-gray-600">Collected <span className="text-sm">({data.collectedOrders ?? 0} paid)</span></dt>
            <dd className="text-xl font-bold tabular-nums" data-testid="sales-collected">{money(data.collectedSales ?? 0)}</dd>
          </div>
          <div>
            <dt className="text-gray-600">Still to collect <span className="text-sm">(not yet delivered)</span></dt>
            <dd className="text-xl font-bold tabular-nums" data-testid="sales-to-collect">{money(toCollect)}</dd>
          </div>
          <div>
            <dt className="text-gray-600">Refunded <span className="text-sm">({data.refunds ?? 0} {(data.refunds ?? 0) === 1 ? 'refund' : 'refunds'})</span></dt>
            <dd className="text-xl font-bold tabular-nums" data-testid="sales-refunded">{money(data.refundedSales ?? 0)}</dd>
          </div>
        </dl>
      </section>
      {data.counter && <CounterBeside web={data.totalSales} webOrders={data.totalOrders} counter={data.counter} />}
      {data.salesSplit && (
        <section className="rounded-lg bg-white p-6 shadow" aria-labelledby="split-heading">
          <h3 id="split-heading" className="font-bold">Of the Total Sales</h3>
          <dl className="mt-3 grid gap-4 sm:grid-cols-3">
            {([['Books', data.salesSplit.books, 'without tax'], ['Shipping', data.salesSplit.shipping, 'delivery and postage, without tax'], ['Tax', data.salesSplit.tax, 'included in prices or added']] as const).map(([label, value, note]) => (
              <div key={label}>
                <dt className="text-gray-600">{label} <span className="text-sm">({note})</span></dt>
                <dd className="text-xl font-bold tabular-nums" data-testid={`sales-${label.toLowerCase()}`}>{money(value)}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      {data.preorders && data.specialOrders && (
        // Issue 41: counted apart from the orders above.
        <section className="grid gap-6 md:grid-cols-2" aria-label="Pre-orders and special orders">
          <StatCard label="Pre-orders waiting" value={data.preorders.waiting} detail={`${data.preorders.allocated} copies set aside, not yet shipped`} tone="bg-primary-soft text-secondary" icon="M8 2v4M16 2v4M3 10h18M5 4h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z" />
          <StatCard label="Special orders open" value={data.specialOrders.open} detail={`${data.specialOrders.quoted} quoted, awaiting the shopper`} tone="bg-secondary-soft text-secondary" icon="M21 21l-4.3-4.3M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16z" />
        </section>
      )}
      {data.promotions?.giftCardLiability !== undefined && (
        // Issue 55: what the shop owes on its gift cards (issued, less spent, less voided): a liability, not a sale.
        <section className="grid gap-6 md:grid-cols-2" aria-label="Gift cards">
          <StatCard label="Owed on gift cards" value={<span data-testid="gift-card-liability">{money(data.promotions.giftCardLiability)}</span>} detail={`Issued, less spent and voided; ${money(data.promotions.paidByGiftCard)} paid by cards so far`} tone="bg-accent-soft text-accent" icon="M3 8h18v4H3zM5 12v9h14v-9M12 8v13" />
        </section>
      )}
      {/* Issue 56: today's goods at their prices less their average cost (owners and managers only). */}
      <GrossMargin date={shopDay(new Date())} className="rounded-lg bg-white p-6 shadow" />
      {data.paymentProblems !== undefined && (
        // Issue 54: money that needs staff (paid after cancel, disputes, failed refunds), counted on the queue.
        <section className="grid gap-6 md:grid-cols-2" aria-label="Payment problems">
          <DeskCard
            to="/dashboard/payment-problems"
            value={data.paymentProblems}
            label="Payment problems"
            detail={data.paymentProblems ? 'Orders whose money needs you' : 'Nothing needs you'}
            tone="bg-danger-soft text-danger"
            icon={<><path d="M2 7h20v12H2zM2 11h20" /><path d="M12 14v2" /></>}
          />
        </section>
      )}
      <section className="grid gap-6 md:grid-cols-2 xl:grid-cols-4" aria-label="Orders and stock">
        <div className="flex flex-col rounded-lg bg-white shadow md:col-span-2 xl:row-span-2">
          <h3 className="border-b border-gray-100 px-6 py-5 font-bold">Monthly Revenue</h3>
          <div className="flex-grow p-4"><RevenueChart monthly={data.monthlySales} /></div>
        </div>
        <DeskCard
          to="/dashboard/orders?status=pending"
          value={data.ordersToProcess ?? 0}
          label="Orders to process"
          detail={counts ? `${counts.pending} pending · ${counts.confirmed} confirmed` : 'Open the order desk'}
          tone="bg-primary-soft text-secondary"
          icon={<><circle cx="12" cy="12" r="9" /><path d="M12 7v5l3 3" /></>}
          className="xl:col-start-3 xl:row-start-1"
        />
        <DeskCard
          to="/dashboard/orders?status=shipped"
          value={counts?.shipped ?? 0}
          label="Out for delivery"
          detail="Shipped, cash not yet in"
          tone="bg-accent-soft text-secondary"
          icon={<><path d="M1 3h15v13H1zM16 8h4l3 3v5h-7z" /><circle cx="5.5" cy="18.5" r="2.5" /><circle cx="18.5" cy="18.5" r="2.5" /></>}
          className="xl:col-start-3 xl:row-start-2"
        />
        <div className="flex flex-col rounded-lg bg-white shadow md:col-span-2 xl:col-span-1 xl:col-start-4 xl:row-span-2 xl:row-start-1">
          <h3 className="border-b border-gray-100 px-6 py-5 font-bold">Low Stock</h3>
          {lowStock.length === 0 ? (
            <p className="p-6 text-sm text-gray-600">Every book has more than 3 copies.</p>
          ) : (
            <ul className="divide-y divide-gray-100" aria-label="Books low on stock">
              {lowStock.map((book) => (
                <li key={book._id} className="flex items-center gap-3 px-6 py-3">
                  <img src={coverUrl(book.coverImage)} alt="" width={32} height={48} loading="lazy" className="h-12 w-8 shrink-0 rounded object-cover" />
                  <div className="min-w-0 flex-1">
                    <Link to={`/dashboard/edit-book/${book._id}`} className="line-clamp-2 text-sm font-medium hover:underline">{book.title}</Link>
                    <span className={`mt-1 inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${book.stock === 0 ? 'bg-danger-soft text-danger' : 'bg-primary-soft text-secondary'}`}>
                      {book.stock === 0 ? 'Out of stock' : `${book.stock} left`}
                    </span>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>
      <section className="rounded-lg bg-white shadow" aria-labelledby="latest-orders">
        <div className="flex items-center justify-between border-b border-gray-100 px-6 py-5">
          <h3 id="latest-orders" className="font-bold">Latest Orders</h3>
          <Link to="/dashboard/orders" className="text-sm font-medium text-accent hover:underline">All orders<span aria-hidden="true"> &rarr;</span></Link>
        </div>
        {latest.length === 0 ? (
          <p className="p-6 text-sm text-gray-600">No orders yet.</p>
        ) : (
          <ul className="divide-y divide-gray-100">
            {latest.map((order) => (
              <li key={order._id}>
                <Link to={`/dashboard/orders/${order._id}`} className="grid grid-cols-[1fr_auto] items-center gap-x-4 gap-y-1 px-6 py-3 hover:bg-gray-50 md:grid-cols-[8rem_1fr_10rem_6rem_8rem]">
                  <span className="font-mono text-sm font-semibold text-accent">#{shortId(order._id)}</span>
                  <span className="justify-self-end md:order-last"><StatusBadge status={order.status} /></span>
                  <span className="truncate text-sm text-gray-800">{order.name} <span className="text-gray-500">· {order.items.length === 1 ? '1 book' : `${order.items.length} books`}</span></span>
                  <span className="justify-self-end text-sm font-semibold tabular-nums md:order-4">{money(order.totalPrice)}</span>
                  <span className="text-xs text-gray-500 md:order-3 md:text-sm">{formatDate(order.createdAt)}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
