import { PURCHASE_ORDER_STATUSES, type PurchaseOrder, type PurchaseOrderStatus, type ReorderSuggestion } from '@bookstore/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { money } from '../../../lib/format';
import { alertBox } from '../../../lib/notify';
import { usePageTitle } from '../../../lib/use-page-title';
import { useMe } from '../api/staff-api';
import {
  downloadPurchaseOrderCsv, purchaseOrdersQuery, suggestionsQuery, suppliersQuery, useCreatePurchaseOrder, useCreateSupplier, useMovePurchaseOrder, valuationQuery,
} from './purchasing-api';

// Purchasing (issue 56; owner and manager): what to order (the suggestions, made into a purchase
// order), the purchase orders by status (send, cancel, the supplier's CSV), the suppliers, and
// what the stock on hand is worth at its average cost.

const INPUT = 'mt-1 h-10 w-full rounded-md border border-gray-300 bg-gray-50 px-3 focus:bg-white focus:outline-2 focus:outline-accent';
const STATUS_LABELS: Record<PurchaseOrderStatus, string> = { draft: 'Draft', sent: 'Sent', partially_received: 'Partly received', received: 'Received', cancelled: 'Cancelled' };
const message = (err: unknown, fallback: string) => (err instanceof ApiError ? err.message : fallback);

function Suggestions() {
  const list = useQuery(suggestionsQuery());
  const suppliers = useInfiniteQuery(suppliersQuery());
  const create = useCreatePurchaseOrder();
  const [picked, setPicked] = useState<Record<string, { quantity: number; unitCost: string } | undefined>>({});
  const [supplierId, setSupplierId] = useState('');
  const [error, setError] = useState('');
  const rows: ReorderSuggestion[] = list.data?.suggestions ?? [];
  const supplierList = suppliers.data?.pages.flatMap((p) => p.suppliers) ?? [];
  const chosen = rows.filter((s) => picked[s.isbn]);
  const make = async () => {
    setError('');
    try {
      const { purchaseOrder } = await create.mutateAsync({ supplierId, lines: chosen.map((s) => ({ isbn: s.isbn, quantity: picked[s.isbn]!.quantity, unitCost: picked[s.isbn]!.unitCost || '0' })) });
      setPicked({});
      void alertBox('Purchase order drafted', `${purchaseOrder.lines.length} lines, ${money(purchaseOrder.total)}`, 'success');
    } catch (err) {
      setError(message(err, 'Could not make the purchase order'));
    }
  };
  return (
    <section aria-labelledby="suggestions-heading" className="rounded-lg bg-white p-4 shadow sm:p-6">
      <h2 id="suggestions-heading" className="text-lg font-semibold">What to order</h2>
      {list.isPending ? <p role="status" className="mt-2 text-gray-600">Loading suggestions...</p> : rows.length === 0 ? <p className="mt-2 text-gray-600">Nothing to order: no special order, pre-order or low stock is waiting.</p> : (
        <>
          <ul aria-label="Suggestions" className="mt-3 divide-y divide-gray-100">
            {rows.map((s) => {
              const line = picked[s.isbn];
              const why = [s.specialOrders && `${s.specialOrders} special order`, s.preorders && `${s.preorders} pre-order`, s.belowMinimum && `${s.belowMinimum} below minimum`].filter(Boolean).join(', ');
              return (
                <li key={s.isbn} className="flex flex-wrap items-center gap-3 py-2">
                  <label className="flex min-w-0 grow items-center gap-2">
                    <input type="checkbox" className="size-4" checked={Boolean(line)} onChange={(e) => setPicked((p) => ({ ...p, [s.isbn]: e.target.checked ? { quantity: s.quantity, unitCost: '' } : undefined }))} />
                    <span className="min-w-0">
                      <span className="block truncate font-medium">{s.title}</span>
                      <span className="block text-sm text-gray-600">{s.isbn} · {why}</span>
                    </span>
                  </label>
                  {line && (
                    <span className="flex gap-2">
                      <input aria-label={`Copies of ${s.isbn}`} type="number" min={1} value={line.quantity} onChange={(e) => setPicked((p) => ({ ...p, [s.isbn]: { ...line, quantity: Math.max(1, Math.floor(Number(e.target.value) || 1)) } }))} className="h-10 w-20 rounded-md border border-gray-300 bg-gray-50 px-2 text-right" />
                      <input aria-label={`Unit cost of ${s.isbn} ($)`} inputMode="decimal" placeholder="Cost $" value={line.unitCost} onChange={(e) => setPicked((p) => ({ ...p, [s.isbn]: { ...line, unitCost: e.target.value } }))} className="h-10 w-24 rounded-md border border-gray-300 bg-gray-50 px-2 text-right" />
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
          <div className="mt-3 flex flex-wrap items-end gap-3">
            <div className="min-w-48 grow">
              <label htmlFor="po-supplier">Supplier</label>
              <select id="po-supplier" value={supplierId} onChange={(e) => setSupplierId(e.target.value)} className={INPUT}>
                <option value="">Choose a supplier</option>
                {supplierList.map((s) => <option key={s._id} value={s._id}>{s.name}</option>)}
              </select>
            </div>
            <button type="button" className={buttonClass('primary', 'md')} disabled={!supplierId || chosen.length === 0 || create.isPending} onClick={() => void make()}>Make Purchase Order</button>
          </div>
          {error && <p role="alert" className="mt-2 text-danger">{error}</p>}
        </>
      )}
    </section>
  );
}

function OrderRow({ po }: { po: PurchaseOrder }) {
  const move = useMovePurchaseOrder();
  const act = (to: 'send' | 'cancel') => move.mutate({ id: po._id, to }, { onError: (err) => void alertBox('Not done', message(err, 'Try again'), 'error') });
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 sm:px-6">
      <span className="font-mono font-semibold">{po._id.slice(0, 8).toUpperCase()}</span>
      <span className="grow">{po.supplierName}</span>
      <span className="text-sm text-gray-600">{po.lines.reduce((n, l) => n + l.received, 0)} of {po.lines.reduce((n, l) => n + l.quantity, 0)} in</span>
      <span className="tabular-nums">{money(po.total)}</span>
      <span className="flex gap-2">
        {po.status === 'draft' && <button type="button" className={buttonClass('primary', 'sm')} disabled={move.isPending} onClick={() => act('send')}>Send</button>}
        {(po.status === 'draft' || po.status === 'sent') && <button type="button" className={buttonClass('secondary', 'sm')} disabled={move.isPending} onClick={() => act('cancel')}>Cancel</button>}
        <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => void downloadPurchaseOrderCsv(po._id).catch((err: Error) => alertBox('Download failed', err.message, 'error'))}>CSV</button>
      </span>
    </li>
  );
}

function Orders() {
  const [status, setStatus] = useState<PurchaseOrderStatus>('draft');
  const list = useInfiniteQuery(purchaseOrdersQuery(status));
  const rows = list.data?.pages.flatMap((p) => p.purchaseOrders) ?? [];
  return (
    <section aria-labelledby="orders-heading" className="rounded-lg bg-white shadow">
      <h2 id="orders-heading" className="px-4 pt-4 text-lg font-semibold sm:px-6">Purchase orders</h2>
      <div role="tablist" aria-label="Status" className="flex gap-1 overflow-x-auto border-b border-gray-100 px-2 sm:px-4">
        {PURCHASE_ORDER_STATUSES.map((s) => (
          <button key={s} type="button" role="tab" aria-selected={s === status} onClick={() => setStatus(s)} className={`border-b-2 px-3 py-3 text-sm font-medium whitespace-nowrap ${s === status ? 'border-secondary text-accent' : 'border-transparent text-gray-600 hover:text-gray-900'}`}>
            {STATUS_LABELS[s]}
          </button>
        ))}
      </div>
      {list.isPending ? <p role="status" className="p-6 text-gray-600">Loading...</p> : rows.length === 0 ? <p className="p-6 text-gray-600">No purchase order is {STATUS_LABELS[status].toLowerCase()}.</p> : (
        <ul className="divide-y divide-gray-100">{rows.map((po) => <OrderRow key={po._id} po={po} />)}</ul>
      )}
      {list.hasNextPage && <div className="p-4"><button type="button" className={buttonClass('secondary', 'md')} onClick={() => list.fetchNextPage()}>Load More</button></div>}
    </section>
  );
}

function Suppliers() {
  const list = useInfiniteQuery(suppliersQuery());
  const create = useCreateSupplier();
  const [error, setError] = useState('');
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const field = (name: string) => String(data.get(name) ?? '').trim();
    setError('');
    try {
      await create.mutateAsync({
        name: field('name'), ...(field('email') ? { email: field('email') } : {}), ...(field('accountNumber') ? { accountNumber: field('accountNumber') } : {}),
        ...(field('returnsWindowDays') ? { returnsWindowDays: Number(field('returnsWindowDays')) } : {}),
      });
      form.reset();
    } catch (err) {
      setError(message(err, 'Could not add the supplier'));
    }
  };
  const rows = list.data?.pages.flatMap((p) => p.suppliers) ?? [];
  return (
    <section aria-labelledby="suppliers-heading" className="rounded-lg bg-white p-4 shadow sm:p-6">
      <h2 id="suppliers-heading" className="text-lg font-semibold">Suppliers</h2>
      <ul className="mt-2 divide-y divide-gray-100">
        {rows.map((s) => (
          <li key={s._id} className="flex flex-wrap gap-x-4 py-2">
            <span className="font-medium">{s.name}</span>
            {s.email && <span className="break-all text-gray-600">{s.email}</span>}
            {s.accountNumber && <span className="text-gray-600">Account {s.accountNumber}</span>}
            {s.returnsWindowDays !== undefined && <span className="text-gray-600">Returns within {s.returnsWindowDays} days</span>}
          </li>
        ))}
      </ul>
      <form onSubmit={(e) => void submit(e)} className="mt-4 grid gap-3 sm:grid-cols-2">
        <div><label htmlFor="supplier-name">Name</label><input id="supplier-name" name="name" required className={INPUT} /></div>
        <div><label htmlFor="supplier-email">Email (optional)</label><input id="supplier-email" name="email" type="email" className={INPUT} /></div>
        <div><label htmlFor="supplier-account">Account number (optional)</label><input id="supplier-account" name="accountNumber" className={INPUT} /></div>
        <div><label htmlFor="supplier-window">Returns window in days (optional)</label><input id="supplier-window" name="returnsWindowDays" type="number" min={0} className={INPUT} /></div>
        {error && <p role="alert" className="text-danger sm:col-span-2">{error}</p>}
        <div className="sm:col-span-2"><button className={buttonClass('primary', 'md')} disabled={create.isPending}>Add Supplier</button></div>
      </form>
    </section>
  );
}

function Valuation() {
  const value = useQuery(valuationQuery());
  if (!value.data) return null;
  return (
    <section aria-labelledby="value-heading" className="rounded-lg bg-white p-4 shadow sm:p-6">
      <h2 id="value-heading" className="text-lg font-semibold">Stock at cost</h2>
      <p className="mt-1"><span className="text-2xl font-semibold tabular-nums">{money(value.data.value)}</span> for {value.data.units} copies on hand{value.data.uncostedUnits ? ` (${value.data.uncostedUnits} without a cost yet)` : ''}</p>
    </section>
  );
}

export function Component() {
  usePageTitle('Purchasing');
  const me = useMe();
  if (me.data && !me.can('purchasing.manage')) return <p className="rounded-lg bg-white p-6 shadow">Your role cannot manage purchasing.</p>;
  return (
    <div className="space-y-6">
      <h1 className="sr-only">Purchasing</h1>
      <Valuation />
      <Suggestions />
      <Orders />
      <Suppliers />
    </div>
  );
}
