import { formatPublicationDate, type DeskPreorder } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { shortId } from '../../../components/orders/order-status';
import { textLink } from '../../../components/ui/button';
import { CursorPager } from '../../../components/ui/cursor-pager';
import { useCursorTrail } from '../../../components/ui/use-cursor-trail';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { formatDate } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { deskPreordersQuery, type PreorderTab } from './preorders-api';

// The desk's pre-orders (issue 41): every waiting line (or every line given its copy and not yet
// shipped) by publication date, soonest first, 25 a page from the server.

const TABS: { tab: PreorderTab; label: string }[] = [
  { tab: 'waiting', label: 'Waiting' },
  { tab: 'allocated', label: 'Set aside' },
];

const COLUMNS: Column[] = [
  { label: 'Publishes', className: 'px-6 py-3' },
  { label: 'Book', className: 'px-4 py-3' },
  { label: 'Customer', className: 'px-4 py-3' },
  { label: 'Order', className: 'px-4 py-3' },
  { label: 'Qty', className: 'px-4 py-3 text-right' },
  { label: 'State', className: 'px-6 py-3' },
];

const published = (line: DeskPreorder) => (line.publishedOn ? formatPublicationDate(line.publishedOn) : 'No date');

function StateBadge({ state }: { state: DeskPreorder['state'] }) {
  const waiting = state === 'waiting';
  return (
    <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${waiting ? 'bg-primary-soft text-secondary ring-primary' : 'bg-accent-soft text-accent ring-accent'}`}>
      {waiting ? 'Waiting' : 'Set aside'}
    </span>
  );
}

const orderLink = (line: DeskPreorder) => (
  <Link to={`/dashboard/orders/${line.orderId}`} className={`font-mono ${textLink}`} aria-label={`Order ${shortId(line.orderId)} (${line.title})`}>
    #{shortId(line.orderId)}
  </Link>
);

export function Component() {
  usePageTitle('Pre-orders');
  const [params] = useSearchParams();
  const state: PreorderTab = params.get('state') === 'allocated' ? 'allocated' : 'waiting';
  const trail = useCursorTrail(state);
  const { data, isPending, isError, isPlaceholderData, refetch } = useQuery(deskPreordersQuery(state, trail.cursor));

  return (
    <section className="rounded-lg bg-white shadow" aria-labelledby="preorders-heading">
      <div className="border-b border-gray-100 px-4 py-4 sm:px-6">
        <h3 id="preorders-heading" className="text-lg font-semibold">Pre-orders</h3>
        <p className="mt-1 text-sm text-gray-600">Order lines of forthcoming books, soonest publication first. Copies that arrive go to the oldest waiting line.</p>
      </div>
      <nav aria-label="Pre-order state" className="border-b border-gray-100">
        <ul className="flex gap-1 px-2 sm:px-4">
          {TABS.map(({ tab, label }) => (
            <li key={tab}>
              <Link
                to={{ search: tab === 'waiting' ? '' : `?state=${tab}` }}
                aria-current={tab === state ? 'page' : undefined}
                className={`flex border-b-2 px-3 py-3 text-sm font-medium whitespace-nowrap ${tab === state ? 'border-secondary text-accent' : 'border-transparent text-gray-600 hover:border-gray-300 hover:text-gray-900'}`}
              >
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <div aria-busy={isPending || isPlaceholderData} className={isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}>
        {isPending ? (
          <p role="status" className="px-6 py-12 text-center text-gray-600">Loading pre-orders...</p>
        ) : isError ? (
          <div role="alert" className="px-6 py-12 text-center text-danger">
            Could not load the pre-orders.{' '}
            <button type="button" onClick={() => refetch()} className="font-semibold underline">Try Again</button>
          </div>
        ) : data.preorders.length === 0 ? (
          <p className="px-6 py-12 text-center text-gray-600">{state === 'waiting' ? 'No pre-order is waiting for copies.' : 'No copy is set aside for a pre-order.'}</p>
        ) : (
          <>
            {/* Phones: one card per line. */}
            <ul className="divide-y divide-gray-100 md:hidden" aria-label="Pre-order lines">
              {data.preorders.map((line) => (
                <li key={`${line.orderId}-${line.bookId}`} className="px-4 py-4">
                  <span className="flex items-start justify-between gap-3">
                    <span className="min-w-0 font-semibold text-gray-900">{line.title}</span>
                    <StateBadge state={line.state} />
                  </span>
                  <span className="mt-1 block text-sm text-gray-700">Publishes {published(line)}</span>
                  <span className="mt-1 block truncate text-sm text-gray-600">{line.customer ? `${line.customer.name} · ${line.customer.email}` : 'Customer unknown'}</span>
                  <span className="mt-1 flex items-center justify-between gap-3 text-sm">
                    {orderLink(line)}
                    <span className="text-gray-600">{line.quantity} copy · ordered {formatDate(line.createdAt)}</span>
                  </span>
                </li>
              ))}
            </ul>
            {/* Tablets and up: a table. */}
            <div className="hidden overflow-x-auto md:block">
              <DataTable columns={COLUMNS}>
                {data.preorders.map((line) => (
                  <tr key={`${line.orderId}-${line.bookId}`} className="border-t border-gray-100 hover:bg-gray-50">
                    <td className="px-6 py-3 whitespace-nowrap">{published(line)}</td>
                    <td className="max-w-72 px-4 py-3"><span className="block truncate font-medium" title={line.title}>{line.title}</span></td>
                    <td className="max-w-56 px-4 py-3">
                      {line.customer ? (
                        <>
                          <span className="block truncate font-medium">{line.customer.name}</span>
                          <span className="block truncate text-gray-600">{line.customer.email}</span>
                        </>
                      ) : (
                        <span className="text-gray-600">Unknown</span>
                      )}
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap">
                      {orderLink(line)}
                      <span className="block text-xs text-gray-500">{formatDate(line.createdAt)}</span>
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums">{line.quantity}</td>
                    <td className="px-6 py-3"><StateBadge state={line.state} /></td>
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
