import type { ChannelMargin } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { money } from '../../../lib/format';
import { useMe } from '../api/staff-api';
import { marginQuery } from './purchasing-api';

// The day's gross margin (issue 56), web and counter apart: shown on the Day's End and the overview
// to the staff who may read costs (owner, manager); nothing at all for a bookseller.

function Channel({ name, figures, testId }: { name: string; figures: ChannelMargin; testId: string }) {
  return (
    <div>
      <dt className="text-gray-600">{name}</dt>
      <dd data-testid={testId}>
        <span className="text-2xl font-bold tabular-nums">{figures.margin === null ? '—' : money(figures.margin)}</span>
        <span className="block text-xs text-gray-600">
          {figures.units === 1 ? '1 copy' : `${figures.units} copies`} sold for {money(figures.sales)}, cost {money(figures.cost)}
          {figures.uncostedUnits > 0 && ` (${figures.uncostedUnits} without a cost, left out)`}
        </span>
      </dd>
    </div>
  );
}

export function GrossMargin({ date, className = '' }: { date: string; className?: string }) {
  const allowed = useMe().can('purchasing.manage');
  const margin = useQuery({ ...marginQuery(date), enabled: allowed });
  if (!allowed) return null;
  return (
    <section aria-labelledby="margin-heading" className={className}>
      <h3 id="margin-heading" className="mb-2 font-semibold">Gross margin</h3>
      {margin.isError ? (
        <p role="alert" className="text-sm text-danger">The margin cannot be loaded: {margin.error.message}</p>
      ) : !margin.data ? (
        <p role="status" className="text-sm text-gray-600">Loading the margin…</p>
      ) : (
        <dl className="grid gap-4 sm:grid-cols-2">
          <Channel name="Web orders" figures={margin.data.web} testId="margin-web" />
          <Channel name="Counter" figures={margin.data.counter} testId="margin-counter" />
        </dl>
      )}
      <p className="mt-2 text-xs text-gray-600">Goods at the prices charged, less their copies&apos; average cost; no tax, postage or gift cards.</p>
    </section>
  );
}
