import { DaySchema, PAYMENT_METHOD_LABELS, SALE_PAYMENT_METHODS, shopDay, type SaleLine, type SaleStatus } from '@bookstore/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { shortId } from '../../../components/orders/order-status';
import { buttonClass, fieldClass, textLink } from '../../../components/ui/button';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { formatDate, formatDateTime, money } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { daySalesQuery, salesSummaryQuery } from '../api/sales-api';
import { GrossMargin } from '../purchasing/gross-margin';

// The day's end (issue 39): a day's counter takings in the shop's time zone, as
// GET /api/admin/sales/summary gives them (sales by method and by person, returns, net; the cash
// the drawer should hold from the counter), then the day's sales, 25 at a time. Gift cards sold are
// money taken (in the sales); store credit gave no money back (apart from the returns' total).
// A sale counts on the day the till made it, at the prices it charged; one charged other than the
// shop's price then is marked for the manager (issue 54).

const cents = (dollars: number) => Math.round(dollars * 100);

// Issue 57: a card-terminal sale that took no money is listed as what it is (its takings were never counted).
const SALE_STATUS_NOTES: Record<Exclude<SaleStatus, 'complete'>, string> = {
  awaiting_payment: 'waiting for the card', failed: 'card declined, nothing taken', cancelled: 'cancelled, nothing taken',
};

export function Component() {
  usePageTitle("Day's End");
  const [params, setParams] = useSearchParams();
  const asked = params.get('date') ?? '';
  const date = DaySchema.safeParse(asked).success ? asked : shopDay(new Date());
  const summary = useQuery(salesSummaryQuery(date));
  const list = useInfiniteQuery(daySalesQuery(date));
  const s = summary.data;
  const drawer = s ? (cents(s.byMethod.cash) - cents(s.returns.byMethod.cash)) / 100 : 0;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3 print:hidden">
        <div>
          <h2 className="text-2xl font-bold">Day&apos;s End</h2>
          <p className="text-gray-700">Counter takings for {formatDate(`${date}T12:00:00Z`)}</p>
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="day" className="mb-1 block text-sm font-semibold text-gray-700">Day</label>
            <input id="day" type="date" value={date} onChange={(e) => e.target.value && setParams({ date: e.target.value })} className={fieldClass} />
          </div>
          <button type="button" onClick={() => window.print()} className={buttonClass('secondary', 'md')}>Print</button>
          <Link to="/dashboard/counter" className={buttonClass('primary', 'md')}>Counter</Link>
        </div>
      </div>
      {!s ? (
        summary.isError ? <p role="alert" className="rounded-lg bg-white p-6 shadow">The takings cannot be loaded: {summary.error.message}</p> : <FullScreenSpinner />
      ) : (
        <section aria-label="Takings" className="space-y-6 rounded-lg bg-white p-4 shadow sm:p-6">
          <h3 className="hidden text-xl font-bold print:block">Book Store: counter takings for {formatDate(`${date}T12:00:00Z`)}</h3>
          <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Figure label={`Sales (${s.count})`} value={money(s.total)} testId="day-sales" note={s.giftCards.count ? `with ${s.giftCards.count} ${s.giftCards.count === 1 ? 'gift card' : 'gift cards'}, ${money(s.giftCards.total)}` : undefined} />
            <Figure label={`Returns (${s.returns.count})`} value={`-${money(s.returns.total)}`} testId="day-returns" note={s.returns.storeCredit ? `and ${money(s.returns.storeCredit)} as store credit` : undefined} />
            <Figure label="Net takings" value={money(s.net)} testId="day-net" />
            <Figure label="Cash in the drawer from the counter" value={money(drawer)} note="cash sales less cash refunds" testId="day-drawer" />
          </dl>
          <GrossMargin date={date} className="border-t border-gray-100 pt-4" />
          {s.priceDiffers > 0 && (
            <p className="rounded-md bg-primary-soft px-3 py-2 text-sm text-secondary" data-testid="day-price-differs">
              {s.priceDiffers === 1 ? '1 sale was' : `${s.priceDiffers} sales were`} charged other than the shop&apos;s price: marked &lsquo;price differs&rsquo; below.
            </p>
          )}
          <div className="grid gap-6 md:grid-cols-2">
            <table className="w-full text-sm">
              <caption className="mb-2 text-left font-semibold">By payment method</caption>
              <thead><tr className="text-left text-gray-600"><th className="py-1 font-normal">Method</th><th className="py-1 text-right font-normal">Sales</th><th className="py-1 text-right font-normal">Refunds</th></tr></thead>
              <tbody>
                {SALE_PAYMENT_METHODS.map((m) => (
                  <tr key={m} className="border-t border-gray-100"><td className="py-1">{PAYMENT_METHOD_LABELS[m]}</td><td className="py-1 text-right tabular-nums">{money(s.byMethod[m])}</td><td className="py-1 text-right tabular-nums">{money(s.returns.byMethod[m])}</td></tr>
                ))}
              </tbody>
            </table>
            <table className="w-full text-sm">
              <caption className="mb-2 text-left font-semibold">By staff member</caption>
              <thead><tr className="text-left text-gray-600"><th className="py-1 font-normal">Name</th><th className="py-1 text-right font-normal">Sales</th><th className="py-1 text-right font-normal">Total</th></tr></thead>
              <tbody>
                {s.byStaff.length === 0 ? (
                  <tr><td colSpan={3} className="py-1 text-gray-600">No sales this day.</td></tr>
                ) : (
                  s.byStaff.map((p) => <tr key={p.name} className="border-t border-gray-100"><td className="py-1">{p.name}</td><td className="py-1 text-right tabular-nums">{p.count}</td><td className="py-1 text-right tabular-nums">{money(p.total)}</td></tr>)
                )}
              </tbody>
            </table>
          </div>
        </section>
      )}
      <section aria-labelledby="day-sales-heading" className="rounded-lg bg-white shadow print:hidden">
        <h3 id="day-sales-heading" className="border-b border-gray-100 px-4 py-4 font-bold sm:px-6">Sales of the Day</h3>
        {list.isPending && <p role="status" className="p-6 text-sm text-gray-600">Loading the day&apos;s sales…</p>}
        {list.data && list.data.pages[0]!.sales.length === 0 ? (
          <p className="p-6 text-sm text-gray-600">No counter sales this day.</p>
        ) : (
          <ul className="divide-y divide-gray-100">
            {list.data?.pages.flatMap((p) => p.sales).map((sale) => (
              <li key={sale._id}>
                <Link to={`/dashboard/counter/sales/${sale._id}`} className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 px-4 py-3 hover:bg-gray-50 sm:grid-cols-[7rem_1fr_10rem_6rem] sm:px-6">
                  <span className="font-mono text-sm font-semibold text-accent">#{shortId(sale._id)}</span>
                  <span className="justify-self-end text-sm font-semibold tabular-nums sm:order-last">{money(sale.total)}</span>
                  <span className="truncate text-sm">{itemsOf(sale.lines)} · {PAYMENT_METHOD_LABELS[sale.payment.method]} · {sale.by.name}{sale.returns.length ? ' · returns' : ''}{sale.priceDiffers ? ' · price differs' : ''}{sale.status && sale.status !== 'complete' ? ` · ${SALE_STATUS_NOTES[sale.status]}` : ''}</span>
                  <span className="text-xs text-gray-600 sm:text-sm">{formatDateTime(sale.createdAt)}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {list.hasNextPage && (
          <div className="p-4 sm:px-6">
            <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage} className={buttonClass('secondary', 'md')}>Load More</button>
          </div>
        )}
        {list.isError && <p role="alert" className="p-6 text-sm text-danger">The sales cannot be loaded: {list.error.message} <button type="button" className={textLink} onClick={() => void list.refetch()}>Try again</button></p>}
      </section>
    </div>
  );
}

/** '2 books', '1 gift card', '1 book, 2 gift cards' (issue 40: a gift card is a line of a sale too). */
function itemsOf(lines: SaleLine[]): string {
  const books = lines.reduce((n, l) => n + (l.kind === 'gift_card' ? 0 : l.quantity), 0);
  const cards = lines.filter((l) => l.kind === 'gift_card').length;
  const parts = [...(books || !cards ? [books === 1 ? '1 book' : `${books} books`] : []), ...(cards ? [cards === 1 ? '1 gift card' : `${cards} gift cards`] : [])];
  return parts.join(', ');
}

function Figure({ label, value, note, testId }: { label: string; value: string; note?: string; testId: string }) {
  return (
    <div>
      <dt className="text-gray-600">{label}{note && <span className="block text-xs">{note}</span>}</dt>
      <dd className="text-2xl font-bold tabular-nums" data-testid={testId}>{value}</dd>
    </div>
  );
}
