import { buttonClass } from '../../../components/ui/button';
import { CursorPager } from '../../../components/ui/cursor-pager';
import { useCursorTrail } from '../../../components/ui/use-cursor-trail';
import { ORDER_TABS, type OrderTab } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../../lib/use-page-title';
import { SearchField } from '../../../components/ui/search-field';
import { ApiError } from '../../../lib/api-client';
import { adminOrdersQuery } from './desk-api';
import { DeskRows } from './desk-rows';
import { DeskTabs } from './desk-tabs';

const isTab = (value: string | null): value is OrderTab => ORDER_TABS.includes(value as OrderTab);

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

      <DeskTabs status={status} q={q} counts={data?.counts} onStatus={(next) => setFilter({ status: next })} />

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
          <DeskRows orders={data.orders} />
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
