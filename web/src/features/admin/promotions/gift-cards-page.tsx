import type { GiftCard } from '@bookstore/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { shortId } from '../../../components/orders/order-status';
import { buttonClass } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { money } from '../../../lib/format';
import { alertBox, confirmAction, toast } from '../../../lib/notify';
import { usePageTitle } from '../../../lib/use-page-title';
import { giftCardQuery, giftCardsQuery, useIssueGiftCard, useVoidGiftCard } from '../api/promotions-api';
import { useMe } from '../api/staff-api';

// Gift cards (issue 40): issue one (its code is shown once: it is stored only as a hash), list them,
// and each card's ledger of movements.

const INPUT = 'mt-1 h-10 w-full rounded-md border border-gray-300 bg-gray-50 px-3 focus:bg-white focus:outline-2 focus:outline-accent';
const KIND: Record<string, string> = { issued: 'Issued', spent: 'Spent', returned: 'Given back', 'store-credit': 'Store credit', voided: 'Voided' };

function Ledger({ id }: { id: string }) {
  const detail = useQuery(giftCardQuery(id));
  if (detail.isPending) return <p className="text-sm text-gray-600">Loading the ledger...</p>;
  return (
    <table className="w-full text-left text-sm" aria-label="Ledger">
      <thead><tr className="text-gray-600"><th className="font-normal">When</th><th className="font-normal">What</th><th className="text-right font-normal">Amount</th><th className="text-right font-normal">Balance</th></tr></thead>
      <tbody>
        {(detail.data?.ledger ?? []).map((l, i) => (
          <tr key={i} className="border-t border-gray-100">
            <td>{new Date(l.at).toLocaleString()}</td>
            <td>{KIND[l.kind] ?? l.kind}{l.orderId ? <> (<a className="text-accent underline" href={`/dashboard/orders/${l.orderId}`}>#{shortId(l.orderId)}</a>)</> : null}
              {l.saleId ? <> (counter sale <a className="text-accent underline" href={`/dashboard/counter/sales/${l.saleId}`}>#{shortId(l.saleId)}</a>)</> : null}</td>
            <td className="text-right tabular-nums">{l.amount < 0 ? `-${money(-l.amount)}` : money(l.amount)}</td>
            <td className="text-right tabular-nums">{money(l.balanceAfter)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Issue 55: a lost or mis-issued card's balance to 0, after a confirm (and the password when the proof is old). */
function VoidButton({ card }: { card: GiftCard }) {
  const voiding = useVoidGiftCard();
  const run = async () => {
    const ok = await confirmAction({
      title: `Void the card ending ${card.last4}?`,
      text: `Its balance of ${money(card.balance)} goes to 0 and it can no longer be spent. This cannot be undone.`,
      confirmButtonText: 'Void card', danger: true,
    });
    if (!ok) return;
    try {
      await voiding.mutateAsync(card.id);
      void toast('Gift card voided', { timer: 2000 });
    } catch (err) {
      await alertBox('Could not void the card', err instanceof ApiError ? err.message : 'Try again in a moment', 'error');
    }
  };
  return <button type="button" className={buttonClass('danger', 'sm')} disabled={voiding.isPending} onClick={run}>Void</button>;
}

function Row({ card }: { card: GiftCard }) {
  const [open, setOpen] = useState(false);
  return (
    <li className="px-4 py-3 sm:px-6">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-mono">…{card.last4}</span>
        <span className="tabular-nums font-semibold">{money(card.balance)}</span>
        <span className="text-sm text-gray-600">of {money(card.initial)}{card.recipientEmail ? `, for ${card.recipientEmail}` : ''}</span>
        {card.voidedAt && <span className="rounded bg-gray-100 px-2 text-sm text-gray-700">Voided {new Date(card.voidedAt).toLocaleDateString()}</span>}
        <span className="ml-auto flex gap-2">
          {!card.voidedAt && <VoidButton card={card} />}
          <button type="button" className={buttonClass('secondary', 'sm')} aria-expanded={open} onClick={() => setOpen((o) => !o)}>Ledger</button>
        </span>
      </div>
      {open && <div className="mt-2 overflow-x-auto"><Ledger id={card.id} /></div>}
    </li>
  );
}

export function Component() {
  usePageTitle('Gift cards');
  const me = useMe();
  const list = useInfiniteQuery({ ...giftCardsQuery(), enabled: me.can('promotions.manage') });
  const issue = useIssueGiftCard();
  const [error, setError] = useState('');
  if (me.data && !me.can('promotions.manage')) return <p className="rounded-lg bg-white p-6 shadow">Your role cannot manage gift cards.</p>;
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get('recipientEmail') ?? '').trim();
    setError('');
    try {
      await issue.mutateAsync({ amount: String(form.get('amount') ?? '').trim(), ...(email ? { recipientEmail: email } : {}) });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Could not issue the card');
    }
  };
  const cards = list.data?.pages.flatMap((p) => p.giftCards) ?? [];
  return (
    <div className="space-y-6">
      <section aria-labelledby="issue-card" className="rounded-lg bg-white p-4 shadow sm:p-6">
        <h1 id="issue-card" className="text-xl font-semibold">Issue a gift card</h1>
        <form onSubmit={submit} className="mt-4 grid gap-4 sm:grid-cols-3">
          <div><label htmlFor="amount">Amount ($)</label><input id="amount" name="amount" required inputMode="decimal" className={INPUT} /></div>
          <div className="sm:col-span-2"><label htmlFor="recipientEmail">Recipient email (optional)</label><input id="recipientEmail" name="recipientEmail" type="email" className={INPUT} /></div>
          {error && <p role="alert" className="text-danger sm:col-span-3">{error}</p>}
          <div className="sm:col-span-3"><button className={buttonClass('primary', 'md')} disabled={issue.isPending}>Issue card</button></div>
        </form>
        {issue.data && (
          <p role="status" className="mt-4 rounded-md bg-accent-soft p-3 text-secondary">
            Card issued for {money(issue.data.balance)}. Its code, shown only now: <strong className="font-mono text-lg" data-testid="issued-code">{issue.data.code}</strong>
          </p>
        )}
      </section>
      <section aria-labelledby="card-list" className="rounded-lg bg-white shadow">
        <h2 id="card-list" className="px-4 pt-4 text-lg font-semibold sm:px-6">Gift cards</h2>
        {list.isPending && <p className="p-6">Loading...</p>}
        <ul className="divide-y divide-gray-100">{cards.map((c) => <Row key={c.id} card={c} />)}</ul>
        {list.hasNextPage && <div className="p-4"><button type="button" className={buttonClass('secondary', 'md')} onClick={() => list.fetchNextPage()}>Load more</button></div>}
      </section>
    </div>
  );
}
