import { ORDER_TABS, type OrderTab } from '@bookstore/contract';
import { Link } from 'react-router-dom';
import { STATUS_LABEL } from '../../../components/orders/order-status';

const TAB_LABEL: Record<OrderTab, string> = { all: 'All', ...STATUS_LABEL, refused: 'Refused' };

/** The order desk's status tabs with their counts: one select on phones (seven tabs do not fit 375 px), tabs from tablets. */
export function DeskTabs({ status, q, counts, onStatus }: {
  status: OrderTab; q: string; counts: Record<OrderTab, number> | undefined; onStatus: (status: OrderTab) => void;
}) {
  return (
    <>
      <div className="border-b border-gray-100 px-4 py-3 sm:hidden">
        <label htmlFor="order-status-select" className="sr-only">Order status</label>
        <select
          id="order-status-select"
          value={status}
          onChange={(e) => onStatus(e.target.value as OrderTab)}
          className="w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm focus:outline-2 focus:outline-accent"
        >
          {ORDER_TABS.map((tab) => (
            <option key={tab} value={tab}>{TAB_LABEL[tab]}{counts ? ` (${counts[tab]})` : ''}</option>
          ))}
        </select>
      </div>
      <nav aria-label="Order status" className="hidden overflow-x-auto border-b border-gray-100 sm:block">
        <ul className="flex min-w-max gap-1 px-2 sm:px-4">
          {ORDER_TABS.map((tab) => {
            const active = tab === status;
            const count = counts?.[tab];
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
    </>
  );
}
