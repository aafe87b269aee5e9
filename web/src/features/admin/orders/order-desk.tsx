import { buttonClass } from '../../../components/ui/button';
import { CursorPager } from '../../../components/ui/cursor-pager';
import { useCursorTrail } from '../../../components/ui/use-cursor-trail';
import { ORDER_TABS, type Order, type OrderTab } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../../lib/use-page-title';
import { STATUS_LABEL, StatusBadge, shortId } from '../../../components/orders/order-status';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { SearchField } from '../../../components/ui/search-field';
import { ApiError } from '../../../lib/api-client';
import { formatDate, money } from '../../../lib/format';
import { adminOrdersQuery } from './desk-api';

const TAB_LABEL: Record<OrderTab, string> = { all: 'All', ...STATUS_LABEL, refused: 'Refused' };

// Padded and aligned like the cells below them.
const COLUMNS: Column[] = [
  { label: 'Order' },
  { label: 'Date', className: 'px-4 py-3' },
  { label: 'Customer', className: 'px-4 py-3' },
  { label: 'Items', className: 'px-4 py-3' },
  { label: 'Total', className: 'px-4 py-3 text-right' },
  { label: 'Status' },
];

const isTab = (value: string | null): value is OrderTab => ORDER_TABS.includes(value as OrderTab);

function itemsSummary(order: Order): string {
  const [first] = order.items;
  if (!first) return '—';
  return order.items.length === 1 ? first.title : `${first.title} +${order.items.length - 1}`;
}

/** The order desk: newest first, 25 a page, a tab per status, search by customer email or order id. */
export function Component() {
  usePageTitle('Orders');
  const [params, setParams] = useSearchParams();
  const status: OrderTab = isTab(params.get('status')) ? (params.get('status') as OrderTab) : 'all';
  const q = params.get('q')?.trim() ?? '';
  const trail = useCursorTrail(`${status}|${q}`);
  const { data, error, isPending, isError, isPlaceholderData, refetch } = useQuery(adminOrdersQuery({ status, q, cursor: trail.cursor }));
  const [draft, setDraft] = useState(q);

  const setFilter = (next: { status?: OrderTab; q?: string }) => {
    const p = new URLSearchParams();
    const s = next.status ?? status;
    const query = next.q ?? q;
    if (s !== 'all') p.set('status', s);
    if (query) p.set('q', query);
    setParams(p);
  };
  const search = (e: FormEvent) => {
    e.preventDefault();
    setFilter({ q: draft.trim() });
  };

  return (
    <section className="rounded-lg bg-white shadow" aria-labelledby="desk-heading">
      <div className="flex flex-col gap-4 border-b border-gray-100 px-4 py-4 sm:px-6 lg:flex-row lg:items-center lg:justify-between">
        <h3 id="desk-heading" className="text-lg font-semibold">Orders</h3>
        <form role="search" onSubmit={search} className="flex w-full gap-2 lg:max-w-md">
          <SearchField
            id="order-search"
            label="Search orders by customer email or order id"
            labelHidden
            className="flex-1"
            inputClassName="bg-gray-50 focus:bg-white focus:outline-accent"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            placeholder="Email or order id"
          />
          <button type="submit" className={buttonClass('primary', 'md')}>Search</button>
          {q && (
            <button type="button" onClick={() => { setDraft(''); setFilter({ q: '' }); }} className={buttonClass('secondary', 'md')}>
              Clear
            </button>
          )}
        </form>
      </div>

      {/* Phones: the tabs as one select (seven tabs do not fit 375 px); wider screens: tabs. */}
      <div className="border-b border-gray-100 px-4 py-3 sm:hidden">
        <label htmlFor="order-status-select" className="sr-only">Order status</label>
        <select
          id="order-status-select"
          value={status}
          onChange={(e) => setFilter({ status: e.target.value as OrderTab })}
          className="w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm focus:outline-2 focus:outline-accent"
        >
          {ORDER_TABS.map((tab) => (
            <option key={tab} value={tab}>{TAB_LABEL[tab]}{data ? ` (${data.counts[tab]})` : ''}</option>
          ))}
        </select>
      </div>
      <nav aria-label="Order status" className="hidden overflow-x-auto border-b border-gray-100 sm:block">
        <ul className="flex min-w-max gap-1 px-2 sm:px-4">
          {ORDER_TABS.map((tab) => {
            const active = tab === status;
            const count = data?.counts[tab];
            return (
              <li key={tab}>
                <Link
                  to={{ search: new URLSearchParams({ ...(tab !== 'all' ? { status: tab } : {}), ...(q ? { q } : {}) }).toString() }}
                  aria-current={active ? 'page' : undefined}
                  className={`flex items-center gap-2 border-b-2 px-3 py-3 text-sm font-medium whitespace-nowrap ${active ? 'border-secondary text-accent' : 'border-transparent text-gray-600 hover:border-gray-300 hover:text-gray-900'}`}
                >
                  {TAB_LABEL[tab]}
                  {count !== undefined && (
                    <span className={`rounded-full px-2 py-0.5 text-xs tabular-nums ${active ? 'bg-accent-soft text-accent' : 'bg-gray-100 text-gray-700'}`}>{count}</span>
                  )}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>

      {q && <p className="px-4 pt-4 text-sm text-gray-700 sm:px-6">Results for <strong className="break-all">“{q}”</strong></p>}

      <div aria-busy={isPending || isPlaceholderData} className={isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}>
        {isPending ? (
          <p role="status" className="px-6 py-12 text-center text-gray-600">Loading orders...</p>
        ) : isError ? (
          error instanceof ApiError && error.status === 400 ? (
            <p role="alert" className="px-6 py-12 text-center text-danger">{error.message}</p>
          ) : (
            <div role="alert" className="px-6 py-12 text-center text-danger">
              Could not load the orders.{' '}
              <button type="button" onClick={() => refetch()} className="font-semibold underline">Try Again</button>
            </div>
          )
        ) : data.orders.length === 0 ? (
          <div className="px-6 py-12 text-center text-gray-600">
            <p>{q ? 'No orders match this search.' : 'No orders here yet.'}</p>
            {q && !q.includes('@') && (
              <p className="mt-1 text-sm">An order is found by its full id (shown on its page), or by the customer's email.</p>
            )}
          </div>
        ) : (
          <>
            {/* Phones: one card per order. */}
            <ul className="divide-y divide-gray-100 md:hidden" aria-label="Orders">
              {data.orders.map((order) => (
                <li key={order._id}>
                  <Link to={`/dashboard/orders/${order._id}`} className="block px-4 py-4 hover:bg-gray-50">
                    <span className="flex items-center justify-between gap-3">
                      <span className="font-mono font-semibold text-accent">#{shortId(order._id)}</span>
                      <StatusBadge status={order.status} />
                    </span>
                    <span className="mt-1 block truncate text-sm text-gray-900">{order.name} · {order.email}</span>
                    <span className="mt-1 flex justify-between gap-3 text-sm text-gray-600">
                      <span className="truncate">{itemsSummary(order)}</span>
                      <span className="shrink-0 font-semibold text-gray-900 tabular-nums">{money(order.totalPrice)}</span>
                    </span>
                    <span className="mt-1 block text-xs text-gray-500">{formatDate(order.createdAt)}</span>
                  </Link>
                </li>
              ))}
            </ul>
            {/* Tablets and up: a table. */}
            <div className="hidden overflow-x-auto md:block">
              <DataTable columns={COLUMNS}>
                {data.orders.map((order) => (
                  <tr key={order._id} className="border-t border-gray-100 hover:bg-gray-50">
                    <td className="px-6 py-3">
                      <Link to={`/dashboard/orders/${order._id}`} className="font-mono font-semibold text-accent hover:underline">
                        #{shortId(order._id)}
                      </Link>
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap text-gray-700">{formatDate(order.createdAt)}</td>
                    <td className="max-w-56 px-4 py-3">
                      <span className="block truncate font-medium">{order.name}</span>
                      <span className="block truncate text-gray-600">{order.email}</span>
                    </td>
                    <td className="max-w-64 px-4 py-3">
                      <span className="block truncate" title={order.items.map((i) => i.title).join(', ')}>{itemsSummary(order)}</span>
                      <span className="block text-gray-600">{order.items.length === 1 ? '1 book' : `${order.items.length} books`}</span>
                    </td>
                    <td className="px-4 py-3 text-right font-semibold tabular-nums">{money(order.totalPrice)}</td>
                    <td className="px-6 py-3"><StatusBadge status={order.status} /></td>
                  </tr>
                ))}
              </DataTable>
            </div>
          </>
        )}
      </div>

      <CursorPager
        page={trail.page}
        hasNext={!!data?.nextCursor}
        busy={isPlaceholderData}
        onPrevious={trail.previous}
        onNext={() => data?.nextCursor && trail.next(data.nextCursor)}
      />
    </section>
  );
}
