import type { Order } from '@bookstore/contract';
import { Link } from 'react-router-dom';
import { StatusBadge, shortId } from '../../../components/orders/order-status';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { formatDate, money } from '../../../lib/format';

// Padded and aligned like the cells below them.
const COLUMNS: Column[] = [
  { label: 'Order' },
  { label: 'Date', className: 'px-4 py-3' },
  { label: 'Customer', className: 'px-4 py-3' },
  { label: 'Items', className: 'px-4 py-3' },
  { label: 'Total', className: 'px-4 py-3 text-right' },
  { label: 'Status' },
];

function itemsSummary(order: Order): string {
  const [first] = order.items;
  if (!first) return '—';
  return order.items.length === 1 ? first.title : `${first.title} +${order.items.length - 1}`;
}

/** One page of the desk's orders: a card per order on phones, a table from tablets; each opens its order. */
export function DeskRows({ orders }: { orders: Order[] }) {
  return (
    <>
      <ul className="divide-y divide-gray-100 md:hidden" aria-label="Orders">
        {orders.map((order) => (
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
      <div className="hidden overflow-x-auto md:block">
        <DataTable columns={COLUMNS}>
          {orders.map((order) => (
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
  );
}
