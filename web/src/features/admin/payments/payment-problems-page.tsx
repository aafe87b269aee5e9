import type { PaymentProblemCode, PaymentProblemEntry } from '@bookstore/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { buttonClass } from '../../../components/ui/button';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { money } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { paymentProblemsQuery } from '../api/payment-problems-api';
import { useMe } from '../api/staff-api';

// Issue 54: every order whose money needs staff, newest first; each says what happened, what the
// shop did by itself, and what to do. A problem leaves the list when the action that settles it
// happens (a refund made, a dispute closed), or when staff settle it from the order's page.

const LABELS: Record<PaymentProblemCode, string> = {
  PAID_AFTER_CANCEL: 'Paid after cancel',
  PAID_TWICE: 'Paid twice',
  AMOUNT_MISMATCH: 'Amount not the order\'s',
  DISPUTED: 'Disputed',
  REFUND_FAILED: 'Refund failed',
};

const when = (iso: string) => new Date(iso).toLocaleString();

function Problem({ entry }: { entry: PaymentProblemEntry }) {
  const { problem } = entry;
  return (
    <li className="px-4 py-3 sm:px-6" data-testid="payment-problem-row">
      <p className="flex flex-wrap items-baseline gap-x-3">
        <span className="rounded-full bg-danger-soft px-2 py-0.5 text-sm font-semibold text-danger">{LABELS[problem.code]}</span>
        <Link to={`/dashboard/orders/${entry.orderId}`} className="font-medium underline [overflow-wrap:anywhere]">Order {entry.orderId.slice(0, 8).toUpperCase()}</Link>
        <span className="text-sm text-gray-700">{entry.name} · {entry.email}</span>
        <time dateTime={problem.at} className="ml-auto text-sm text-gray-600">{when(problem.at)}</time>
      </p>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-sm">
        <dt className="text-gray-600">What happened</dt>
        <dd className="[overflow-wrap:anywhere]">{problem.message}</dd>
        {problem.done && (<><dt className="text-gray-600">Done</dt><dd className="[overflow-wrap:anywhere]">{problem.done}</dd></>)}
        {problem.action && (<><dt className="text-gray-600">To do</dt><dd className="font-medium [overflow-wrap:anywhere]">{problem.action}</dd></>)}
        <dt className="text-gray-600">Order</dt>
        <dd>{entry.status} · {money(entry.totalPrice)} · payment {entry.payment.status}{entry.payment.refunded ? `, ${money(entry.payment.refunded)} refunded` : ''}</dd>
        {entry.dispute && (<><dt className="text-gray-600">Dispute</dt><dd>{entry.dispute.status} · {money(entry.dispute.amount)} · {entry.dispute.reason}{entry.dispute.evidenceDueBy ? ` · evidence due ${new Date(entry.dispute.evidenceDueBy).toLocaleDateString()}` : ''}</dd></>)}
      </dl>
    </li>
  );
}

/** Payment problems (owners and managers). */
export function Component() {
  usePageTitle('Payment Problems');
  const me = useMe();
  const list = useInfiniteQuery({ ...paymentProblemsQuery(), enabled: me.can('orders.refund') });
  if (me.data && !me.can('orders.refund')) return <p className="rounded-lg bg-white p-6 shadow">Your role cannot see payment problems.</p>;
  const entries = list.data?.pages.flatMap((p) => p.problems) ?? [];
  const count = list.data?.pages[0]?.count;
  return (
    <section aria-labelledby="payment-problems-heading" className="rounded-lg bg-white shadow">
      <h2 id="payment-problems-heading" className="px-4 pt-4 text-xl font-semibold sm:px-6">Payment Problems{count ? ` (${count})` : ''}</h2>
      <p className="px-4 pb-3 pt-1 text-sm text-gray-600 sm:px-6">
        Orders whose money needs you: paid after a cancel, paid twice, an amount that is not the order&apos;s, a dispute, a refund that failed. Each leaves this list once it is settled.
      </p>
      {list.isPending ? (
        <FullScreenSpinner />
      ) : list.isError ? (
        <p role="alert" className="px-4 py-6 sm:px-6">{list.error.message}</p>
      ) : (
        <>
          {entries.length === 0 && <p className="border-t border-gray-100 px-4 py-6 text-gray-600 sm:px-6">No payment problems.</p>}
          <ol className="divide-y divide-gray-100 border-t border-gray-100">{entries.map((entry) => <Problem key={entry.orderId} entry={entry} />)}</ol>
          {list.hasNextPage && (
            <div className="border-t border-gray-100 p-4 text-center">
              <button type="button" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()} className={buttonClass('secondary', 'md')}>
                {list.isFetchingNextPage ? 'Loading...' : 'Older Problems'}
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
