import { MAX_SPECIAL_QUANTITY, type SpecialOrder, type SpecialOrdersPage } from '@bookstore/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { buttonClass, fieldClass, textLink } from '../../components/ui/button';
import { pageClass, pageTitle } from '../../components/ui/page';
import { apiFetch, ApiError } from '../../lib/api-client';
import { authSdk } from '../../lib/auth/auth-context';
import { RequireUser } from '../../lib/auth/require-user';
import { formatDate, money } from '../../lib/format';
import { queryKeys } from '../../lib/query-keys';
import { toast } from '../../lib/notify';
import { usePageTitle } from '../../lib/use-page-title';

// Special orders (issue 41): ask the shop to order in a book it does not list, and answer its quote.

const KEY = queryKeys.mySpecialOrders;

async function call<T>(path: string, method: 'GET' | 'POST' = 'GET', body?: unknown): Promise<T> {
  const token = await (await authSdk()).idToken();
  return apiFetch<T>(path, { method, token, ...(body !== undefined ? { body } : {}) });
}

const STATUS_TEXT: Record<SpecialOrder['status'], string> = {
  requested: 'Requested: we are finding it',
  quoted: 'Quoted: waiting for your answer',
  accepted: 'Accepted: we are ordering it',
  declined: 'Declined',
  ordered: 'Ordered from our supplier',
  arrived: 'Arrived: ready to collect',
  collected: 'Collected',
  cancelled: 'Cancelled',
};

export function Component() {
  usePageTitle('Special orders');
  return (
    <RequireUser>
      <SpecialOrders />
    </RequireUser>
  );
}

function SpecialOrders() {
  const [params] = useSearchParams();
  const client = useQueryClient();
  const { data, isPending, isError } = useQuery({ queryKey: KEY, queryFn: () => call<SpecialOrdersPage>('/api/special-orders?limit=50') });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: KEY });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const element = event.currentTarget;
    const form = new FormData(element);
    const body = {
      isbn: String(form.get('isbn') ?? ''),
      quantity: Number(form.get('quantity') ?? 1),
      ...(String(form.get('title') ?? '').trim() ? { title: String(form.get('title')) } : {}),
      ...(String(form.get('note') ?? '').trim() ? { note: String(form.get('note')) } : {}),
    };
    setBusy(true);
    setError(null);
    try {
      await call('/api/special-orders', 'POST', body);
      element.reset();
      void toast('Request sent', { timer: 1500 });
      await refresh();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not send your request. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className={`${pageClass} max-w-3xl`}>
      <h1 className={`mb-2 ${pageTitle}`}>Special orders</h1>
      <p className="mb-6 text-gray-700">Can&apos;t find a book here? Give us its ISBN and we will tell you the price and when we can have it for you.</p>
      <form onSubmit={submit} className="grid gap-3 rounded-lg border border-gray-200 p-4 sm:grid-cols-2" aria-label="Ask us to order a book">
        <label className="text-sm font-medium">ISBN
          <input name="isbn" required inputMode="numeric" defaultValue={params.get('isbn') ?? ''} placeholder="978-0-306-40615-7" className={`mt-1 ${fieldClass}`} />
        </label>
        <label className="text-sm font-medium">Title <span className="font-normal text-gray-600">(optional)</span>
          <input name="title" maxLength={200} defaultValue={params.get('title') ?? ''} className={`mt-1 ${fieldClass}`} />
        </label>
        <label className="text-sm font-medium">Quantity
          <input name="quantity" type="number" min={1} max={MAX_SPECIAL_QUANTITY} step={1} defaultValue={1} required className={`mt-1 ${fieldClass}`} />
        </label>
        <label className="text-sm font-medium">Note <span className="font-normal text-gray-600">(optional)</span>
          <input name="note" maxLength={500} className={`mt-1 ${fieldClass}`} />
        </label>
        {error && <p role="alert" className="text-sm text-danger sm:col-span-2">{error}</p>}
        <div className="sm:col-span-2">
          <button type="submit" disabled={busy} className={buttonClass('primary', 'md')}>Ask us to order it</button>
        </div>
      </form>

      <h2 className="mb-3 mt-8 text-xl font-semibold">Your requests</h2>
      {isPending ? (
        <p role="status">Loading...</p>
      ) : isError ? (
        <p role="alert" className="text-danger">Could not load your requests.</p>
      ) : data.specialOrders.length === 0 ? (
        <p>No requests yet.</p>
      ) : (
        <ul className="space-y-4">
          {data.specialOrders.map((s) => <li key={s._id}><RequestCard request={s} onChange={refresh} /></li>)}
        </ul>
      )}
    </section>
  );
}

function RequestCard({ request, onChange }: { request: SpecialOrder; onChange: () => Promise<unknown> }) {
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const act = async (path: string, body?: unknown, done?: string) => {
    setBusy(true);
    setError(null);
    try {
      await call(`/api/special-orders/${request._id}/${path}`, 'POST', body);
      if (done) void toast(done, { timer: 2000 });
      await onChange();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <article className="rounded-lg border border-gray-200 p-4" aria-label={`Request for ${request.title}`}>
      <h3 className="font-semibold">{request.title}</h3>
      <p className="text-sm text-gray-700">ISBN {request.isbn} · Qty {request.quantity}</p>
      <p className="mt-1 text-sm font-medium" data-testid="special-status">{STATUS_TEXT[request.status]}</p>
      {request.price !== undefined && (
        <p className="mt-1 text-sm">
          Quote: {money(request.price)} a copy{request.expectedOn ? `, expected ${formatDate(`${request.expectedOn}T12:00:00Z`)}` : ''}
        </p>
      )}
      {request.orderId && <p className="mt-1 text-sm"><Link to={`/orders/${request.orderId}`} className={textLink}>View Order</Link></p>}
      {request.status === 'quoted' && (
        <form
          className="mt-3 flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void act('accept', { phone }, 'Quote accepted: your order is placed');
          }}
        >
          <label className="text-sm font-medium">Phone for the order
            <input value={phone} onChange={(e) => setPhone(e.target.value)} required inputMode="tel" className={`mt-1 ${fieldClass}`} />
          </label>
          <button type="submit" disabled={busy} className={buttonClass('primary', 'md')}>Accept quote</button>
          <button type="button" disabled={busy} onClick={() => void act('decline', undefined, 'Quote declined')} className={buttonClass('secondary', 'md')}>Decline</button>
        </form>
      )}
      {error && <p role="alert" className="mt-2 text-sm text-danger">{error}</p>}
    </article>
  );
}
