import { CATEGORIES, discountLabel, type Discount, type DiscountCreate } from '@bookstore/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { shortId } from '../../../components/orders/order-status';
import { buttonClass } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { money } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { discountsQuery, redemptionsQuery, useCreateDiscount, usePauseDiscount } from '../api/promotions-api';
import { useMe } from '../api/staff-api';

// Discount codes (issue 40): create one, pause or resume it, see its redemptions.

const INPUT = 'mt-1 h-10 w-full rounded-md border border-gray-300 bg-gray-50 px-3 focus:bg-white focus:outline-2 focus:outline-accent';
const labelOf = (d: Discount) => discountLabel({ percentOffBp: d.percentOff === null ? null : Math.round(d.percentOff * 100), amountOffCents: d.amountOff === null ? null : Math.round(d.amountOff * 100), categories: d.categories });

function Redemptions({ code }: { code: string }) {
  const list = useQuery(redemptionsQuery(code));
  if (list.isPending) return <p className="text-sm text-gray-600">Loading redemptions...</p>;
  const rows = list.data?.redemptions ?? [];
  if (rows.length === 0) return <p className="text-sm text-gray-600">No order has used this code yet.</p>;
  return (
    <ul className="divide-y divide-gray-100 text-sm" aria-label={`Redemptions of ${code}`}>
      {rows.map((r) => (
        <li key={r.orderId} className="flex flex-wrap justify-between gap-x-3 py-1">
          <a className="font-mono text-accent underline" href={`/dashboard/orders/${r.orderId}`}>#{shortId(r.orderId)}</a>
          <span className="break-all">{r.email}</span>
          <span className="tabular-nums">-{money(r.discount)}</span>
          <span className="text-gray-600">{r.returnedAt ? 'given back (cancelled)' : new Date(r.at).toLocaleDateString()}</span>
        </li>
      ))}
    </ul>
  );
}

function Row({ discount }: { discount: Discount }) {
  const pause = usePauseDiscount();
  const [open, setOpen] = useState(false);
  const limit = discount.maxRedemptions === null ? 'no limit' : `of ${discount.maxRedemptions}`;
  return (
    <li className="px-4 py-3 sm:px-6">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-mono font-semibold">{discount.code}</span>
        <span>{labelOf(discount)}</span>
        {discount.paused && <span className="rounded bg-gray-200 px-2 text-sm">Paused</span>}
        <span className="text-sm text-gray-600">{discount.redemptions} used ({limit})</span>
        <span className="ml-auto flex gap-2">
          <button type="button" className={buttonClass('secondary', 'sm')} aria-expanded={open} onClick={() => setOpen((o) => !o)}>Redemptions</button>
          <button type="button" className={buttonClass(discount.paused ? 'primary' : 'secondary', 'sm')} disabled={pause.isPending} onClick={() => pause.mutate({ code: discount.code, paused: !discount.paused })}>
            {discount.paused ? 'Resume' : 'Pause'}
          </button>
        </span>
      </div>
      {open && <div className="mt-2"><Redemptions code={discount.code} /></div>}
    </li>
  );
}

export function Component() {
  usePageTitle('Discounts');
  const me = useMe();
  const list = useInfiniteQuery({ ...discountsQuery(), enabled: me.can('promotions.manage') });
  const create = useCreateDiscount();
  const [kind, setKind] = useState<'percent' | 'amount'>('percent');
  const [error, setError] = useState('');
  if (me.data && !me.can('promotions.manage')) return <p className="rounded-lg bg-white p-6 shadow">Your role cannot manage discounts.</p>;

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const field = (name: string) => String(form.get(name) ?? '').trim();
    const value = field('value');
    const input: DiscountCreate = {
      code: field('code'),
      ...(kind === 'percent' ? { percentOff: Number(value) } : { amountOff: value }),
      ...(field('minSubtotal') ? { minSubtotal: field('minSubtotal') } : {}),
      ...(field('maxRedemptions') ? { maxRedemptions: Number(field('maxRedemptions')) } : {}),
      oncePerCustomer: form.get('oncePerCustomer') === 'on',
      ...(field('startsAt') ? { startsAt: new Date(field('startsAt')).toISOString() } : {}),
      ...(field('endsAt') ? { endsAt: new Date(field('endsAt')).toISOString() } : {}),
      ...(form.getAll('categories').length ? { categories: form.getAll('categories').map(String) as DiscountCreate['categories'] } : {}),
    };
    setError('');
    try {
      await create.mutateAsync(input);
      e.currentTarget?.reset();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Could not create the code');
    }
  };
  const discounts = list.data?.pages.flatMap((p) => p.discounts) ?? [];
  return (
    <div className="space-y-6">
      <section aria-labelledby="new-discount" className="rounded-lg bg-white p-4 shadow sm:p-6">
        <h1 id="new-discount" className="text-xl font-semibold">New discount code</h1>
        <form onSubmit={submit} className="mt-4 grid gap-4 sm:grid-cols-2">
          <div><label htmlFor="code">Code</label><input id="code" name="code" required className={INPUT} placeholder="SPRING10" /></div>
          <fieldset>
            <legend>Takes off</legend>
            <div className="mt-1 flex gap-2">
              <select aria-label="Kind" value={kind} onChange={(e) => setKind(e.target.value as 'percent' | 'amount')} className="h-10 rounded-md border border-gray-300 bg-gray-50 px-2">
                <option value="percent">Percent</option>
                <option value="amount">Dollars</option>
              </select>
              <input aria-label={kind === 'percent' ? 'Percent off' : 'Dollars off'} name="value" required inputMode="decimal" className={`${INPUT} mt-0`} />
            </div>
          </fieldset>
          <div><label htmlFor="minSubtotal">Minimum books subtotal ($, optional)</label><input id="minSubtotal" name="minSubtotal" inputMode="decimal" className={INPUT} /></div>
          <div><label htmlFor="maxRedemptions">Uses at most (optional)</label><input id="maxRedemptions" name="maxRedemptions" type="number" min={1} className={INPUT} /></div>
          <div><label htmlFor="startsAt">Starts (optional)</label><input id="startsAt" name="startsAt" type="datetime-local" className={INPUT} /></div>
          <div><label htmlFor="endsAt">Ends (optional)</label><input id="endsAt" name="endsAt" type="datetime-local" className={INPUT} /></div>
          <fieldset className="sm:col-span-2">
            <legend>Only these categories (none: every book)</legend>
            <div className="mt-1 flex flex-wrap gap-4">
              {CATEGORIES.map((c) => <label key={c} className="inline-flex items-center gap-2 capitalize"><input type="checkbox" name="categories" value={c} className="size-4" />{c}</label>)}
            </div>
          </fieldset>
          <label className="inline-flex items-center gap-2 sm:col-span-2"><input type="checkbox" name="oncePerCustomer" className="size-4" />Once per customer</label>
          {error && <p role="alert" className="text-danger sm:col-span-2">{error}</p>}
          <div className="sm:col-span-2"><button className={buttonClass('primary', 'md')} disabled={create.isPending}>Create code</button></div>
        </form>
      </section>
      <section aria-labelledby="discount-list" className="rounded-lg bg-white shadow">
        <h2 id="discount-list" className="px-4 pt-4 text-lg font-semibold sm:px-6">Discount codes</h2>
        {list.isPending && <p className="p-6">Loading...</p>}
        <ul className="divide-y divide-gray-100">{discounts.map((d) => <Row key={d.code} discount={d} />)}</ul>
        {list.hasNextPage && <div className="p-4"><button type="button" className={buttonClass('secondary', 'md')} onClick={() => list.fetchNextPage()}>Load more</button></div>}
      </section>
    </div>
  );
}
