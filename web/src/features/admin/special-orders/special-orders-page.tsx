import { latestSpecialQuoteDay, shopToday, SPECIAL_ORDER_STATUSES, type SpecialOrder, type SpecialOrderStatus, type StaffSpecialStatus } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { buttonClass, fieldClass, textLink } from '../../../components/ui/button';
import { CursorPager } from '../../../components/ui/cursor-pager';
import { useCursorTrail } from '../../../components/ui/use-cursor-trail';
import { ApiError } from '../../../lib/api-client';
import { formatDate, money } from '../../../lib/format';
import { confirmBox } from '../../../lib/notify';
import { usePageTitle } from '../../../lib/use-page-title';
import { useMe } from '../api/staff-api';
import { deskSpecialOrdersQuery, useMoveSpecialOrder } from './special-orders-api';

// The desk's special orders (issue 41): one status at a time, newest first, 20 a page from the
// server. Staff move each request on from here (POST /api/admin/special-orders/:id/status): quote a
// price and date, mark it ordered, arrived, collected (its pickup order is collected with it), or
// cancel it (an accepted request's unpaid order is cancelled with it).

const TAB_LABEL: Record<SpecialOrderStatus, string> = {
  requested: 'Requested',
  quoted: 'Quoted',
  accepted: 'Accepted',
  ordered: 'Ordered',
  arrived: 'Arrived',
  collected: 'Collected',
  declined: 'Declined',
  cancelled: 'Cancelled',
};
// The desk's working order: what needs doing first.
const TABS: SpecialOrderStatus[] = ['requested', 'quoted', 'accepted', 'ordered', 'arrived', 'collected', 'declined', 'cancelled'];

/** The one move forward from each status (besides a new quote and cancelling). */
const NEXT: Partial<Record<SpecialOrderStatus, { to: StaffSpecialStatus; label: string }>> = {
  accepted: { to: 'ordered', label: 'Mark Ordered' },
  ordered: { to: 'arrived', label: 'Mark Arrived' },
  arrived: { to: 'collected', label: 'Mark Collected' },
};
const CANCELLABLE: SpecialOrderStatus[] = ['requested', 'quoted', 'accepted', 'ordered', 'arrived'];

const isStatus = (value: string | null): value is SpecialOrderStatus => SPECIAL_ORDER_STATUSES.includes(value as SpecialOrderStatus);

function QuoteForm({ request, onDone }: { request: SpecialOrder; onDone: (message: string) => void }) {
  const move = useMoveSpecialOrder();
  const id = useId();
  const [error, setError] = useState('');
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setError('');
    try {
      const answer = await move.mutateAsync({ id: request._id, status: 'quoted', price: String(form.get('price') ?? '').trim(), expectedOn: String(form.get('expectedOn') ?? '') });
      onDone(answer.message);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Could not send the quote');
    }
  };
  return (
    <form onSubmit={submit} aria-label={`Quote for ${request.title}`} className="mt-3 grid gap-3 rounded-md bg-gray-50 p-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
      <div>
        <label htmlFor={`${id}-price`} className="block text-sm font-medium">Price of one copy ($)</label>
        <input id={`${id}-price`} name="price" required inputMode="decimal" defaultValue={request.price?.toFixed(2) ?? ''} className={`mt-1 ${fieldClass}`} />
      </div>
      <div>
        <label htmlFor={`${id}-expected`} className="block text-sm font-medium">Expected in the shop</label>
        <input id={`${id}-expected`} name="expectedOn" type="date" required min={shopToday()} max={latestSpecialQuoteDay(shopToday())} defaultValue={request.expectedOn ?? ''} className={`mt-1 ${fieldClass}`} />
      </div>
      <button type="submit" disabled={move.isPending} className={buttonClass('primary', 'md')}>Send Quote</button>
      {error && <p role="alert" className="text-sm text-danger sm:col-span-3">{error}</p>}
    </form>
  );
}

function RequestItem({ request, canMove, onDone }: { request: SpecialOrder; canMove: boolean; onDone: (message: string) => void }) {
  const move = useMoveSpecialOrder();
  const [quoting, setQuoting] = useState(false);
  const [error, setError] = useState('');
  const next = NEXT[request.status];
  const act = async (to: StaffSpecialStatus) => {
    setError('');
    if (to === 'cancelled') {
      const text = request.orderId ? 'The request closes and its order, not yet paid, is cancelled.' : 'The request closes; the customer can ask again.';
      if (!(await confirmBox('Cancel this request?', text, 'Cancel Request'))) return;
    }
    try {
      onDone((await move.mutateAsync({ id: request._id, status: to })).message);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Could not move the request');
    }
  };
  const canQuote = request.status === 'requested' || request.status === 'quoted';
  return (
    <li className="px-4 py-4 sm:px-6" aria-label={request.title}>
      <div className="flex flex-col gap-3 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0 space-y-1 text-sm">
          <p className="text-base font-semibold text-gray-900">{request.title}</p>
          <p className="text-gray-700">
            ISBN <span className="font-mono">{request.isbn}</span> · {request.quantity} {request.quantity === 1 ? 'copy' : 'copies'}
          </p>
          <p className="truncate text-gray-700">{request.email ?? 'Customer unknown'} · asked {formatDate(request.createdAt)}</p>
          {request.note && <p className="text-gray-600">“{request.note}”</p>}
          {request.price !== undefined && (
            <p className="text-gray-700">
              Quoted {money(request.price)} a copy ({money(request.price * request.quantity)} in all){request.expectedOn ? `, expected ${formatDate(`${request.expectedOn}T12:00:00Z`)}` : ''}
            </p>
          )}
          {request.orderId && (
            <p>
              <Link to={`/dashboard/orders/${request.orderId}`} className={textLink}>View Order</Link>
            </p>
          )}
        </div>
        {canMove && (canQuote || next || CANCELLABLE.includes(request.status)) && (
          <div className="flex flex-wrap gap-2 lg:shrink-0 lg:justify-end">
            {canQuote && (
              <button type="button" aria-expanded={quoting} onClick={() => setQuoting((q) => !q)} className={buttonClass(request.status === 'requested' ? 'primary' : 'secondary', 'sm')}>
                {request.status === 'requested' ? 'Quote' : 'Quote Again'}
              </button>
            )}
            {next && (
              <button type="button" disabled={move.isPending} onClick={() => void act(next.to)} className={buttonClass('primary', 'sm')}>{next.label}</button>
            )}
            {CANCELLABLE.includes(request.status) && (
              <button type="button" disabled={move.isPending} onClick={() => void act('cancelled')} className={buttonClass('secondary', 'sm')}>Cancel Request</button>
            )}
          </div>
        )}
      </div>
      {quoting && canQuote && <QuoteForm request={request} onDone={(message) => { setQuoting(false); onDone(message); }} />}
      {error && <p role="alert" className="mt-2 text-sm text-danger">{error}</p>}
    </li>
  );
}

export function Component() {
  usePageTitle('Special orders');
  const me = useMe();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const status: SpecialOrderStatus = isStatus(params.get('status')) ? (params.get('status') as SpecialOrderStatus) : 'requested';
  const trail = useCursorTrail(status);
  const { data, isPending, isError, isPlaceholderData, refetch } = useQuery(deskSpecialOrdersQuery(status, trail.cursor));
  const [done, setDone] = useState('');
  const go = (to: SpecialOrderStatus) => {
    setDone('');
    navigate({ search: `?status=${to}` });
  };

  return (
    <section className="rounded-lg bg-white shadow" aria-labelledby="special-heading">
      <div className="border-b border-gray-100 px-4 py-4 sm:px-6">
        <h3 id="special-heading" className="text-lg font-semibold">Special orders</h3>
        <p className="mt-1 text-sm text-gray-600">Books customers asked the shop to order in, newest first.</p>
      </div>
      {/* Phones: the statuses as one select; wider screens: tabs. */}
      <div className="border-b border-gray-100 px-4 py-3 md:hidden">
        <label htmlFor="special-status-select" className="sr-only">Request status</label>
        <select id="special-status-select" value={status} onChange={(e) => go(e.target.value as SpecialOrderStatus)} className={fieldClass}>
          {TABS.map((tab) => <option key={tab} value={tab}>{TAB_LABEL[tab]}</option>)}
        </select>
      </div>
      <nav aria-label="Request status" className="hidden overflow-x-auto border-b border-gray-100 md:block">
        <ul className="flex min-w-max gap-1 px-4">
          {TABS.map((tab) => (
            <li key={tab}>
              <Link
                to={{ search: `?status=${tab}` }}
                onClick={() => setDone('')}
                aria-current={tab === status ? 'page' : undefined}
                className={`flex border-b-2 px-3 py-3 text-sm font-medium whitespace-nowrap ${tab === status ? 'border-secondary text-accent' : 'border-transparent text-gray-600 hover:border-gray-300 hover:text-gray-900'}`}
              >
                {TAB_LABEL[tab]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {done && <p role="status" className="mx-4 mt-4 rounded-md bg-accent-soft px-3 py-2 text-sm text-secondary sm:mx-6">{done}</p>}

      <div aria-busy={isPending || isPlaceholderData} className={isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}>
        {isPending ? (
          <p role="status" className="px-6 py-12 text-center text-gray-600">Loading special orders...</p>
        ) : isError ? (
          <div role="alert" className="px-6 py-12 text-center text-danger">
            Could not load the special orders.{' '}
            <button type="button" onClick={() => refetch()} className="font-semibold underline">Try Again</button>
          </div>
        ) : data.specialOrders.length === 0 ? (
          <p className="px-6 py-12 text-center text-gray-600">No {TAB_LABEL[status].toLowerCase()} requests.</p>
        ) : (
          <ul className="divide-y divide-gray-100" aria-label={`${TAB_LABEL[status]} requests`}>
            {data.specialOrders.map((request) => (
              <RequestItem key={request._id} request={request} canMove={me.can('orders.status')} onDone={setDone} />
            ))}
          </ul>
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
