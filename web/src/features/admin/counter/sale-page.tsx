import {
  APPROVAL_REFUSED, discountOfCopies, MANAGER_APPROVAL_REQUIRED, RETURN_METHOD_LABELS, RETURN_METHODS, type Approval, type BookSaleLine, type ReturnMethod, type Sale, type SaleReturn,
} from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { shortId } from '../../../components/orders/order-status';
import { buttonClass, fieldClass } from '../../../components/ui/button';
import { OfflineNotice } from '../../../components/ui/offline-notice';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime, money } from '../../../lib/format';
import { useOnline } from '../../../lib/use-online';
import { usePageTitle } from '../../../lib/use-page-title';
import { saleQuery, useReturnSale } from '../api/sales-api';
import { ManagerApprovalDialog, type ApprovalRequest } from './manager-approval-dialog';
import { Receipt, receiptOf } from './receipt';
import { readTillId } from './till';

// One counter sale (issue 39): its receipt (printable), its returns, and a return at the counter:
// how many copies of each book come back (never more than are left to return) and how the money goes
// back, or store credit on a new gift card for what they were sold for (issue 40). A sale the till
// charged other than the shop's price says so, line by line, for the manager (issue 54).

export function Component() {
  usePageTitle('Sale');
  const { id = '' } = useParams();
  const sale = useQuery(saleQuery(id));
  if (sale.isError) return <p role="alert" className="rounded-lg bg-white p-6 shadow">{sale.error.message}</p>;
  if (!sale.data) return <FullScreenSpinner />;
  const s = sale.data;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <h2 className="text-2xl font-bold">Sale <span className="font-mono">#{shortId(s._id)}</span></h2>
        <div className="flex flex-wrap gap-3">
          <button type="button" onClick={() => window.print()} className={buttonClass('secondary', 'md')}>Print Receipt</button>
          <Link to={`/dashboard/counter/day?date=${s.day}`} className={buttonClass('secondary', 'md')}>Day&apos;s End</Link>
        </div>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Receipt
          receipt={{
            ...receiptOf(s),
            returns: s.returns.map((r) => ({ at: r.createdAt, total: r.total, method: r.refundMethod })),
          }}
        />
        <div className="space-y-6 print:hidden">
          {s.priceDiffers && <PriceDiffers sale={s} />}
          {s.returns.length > 0 && (
            <section aria-labelledby="returns-heading" className="rounded-lg bg-white p-4 shadow sm:p-6">
              <h3 id="returns-heading" className="mb-2 font-bold">Returns</h3>
              <ul className="space-y-2 text-sm">
                {s.returns.map((r) => (
                  <li key={r._id}>
                    {formatDateTime(r.createdAt)}: {r.lines.map((l) => `${l.quantity} x ${l.title}`).join(', ')}; {money(r.total)} {r.giftCardBack ? `(${money(r.giftCardBack.amount)} back on gift card ····${r.giftCardBack.last4}) ` : ''}{r.giftCard ? `as store credit on gift card ····${r.giftCard.last4}` : `back by ${RETURN_METHOD_LABELS[r.refundMethod]}`} ({r.by.name})
                  </li>
                ))}
              </ul>
            </section>
          )}
          <ReturnForm sale={s} />
        </div>
      </div>
    </div>
  );
}

/** The lines charged other than the book's price when the sale was made: the money taken stands. */
function PriceDiffers({ sale }: { sale: Sale }) {
  const lines = sale.lines.filter((l): l is BookSaleLine => l.kind !== 'gift_card' && l.priceDiffers === true);
  return (
    <section aria-labelledby="price-differs-heading" className="rounded-lg bg-primary-soft p-4 shadow sm:p-6">
      <h3 id="price-differs-heading" className="mb-2 font-bold">Price differs</h3>
      <p className="mb-2 text-sm">The till charged other than the shop&apos;s price at the time of the sale ({formatDateTime(sale.soldAt)}). The sale is recorded as charged.</p>
      <ul className="space-y-1 text-sm">
        {lines.map((l) => <li key={l.bookId}>{l.title}: charged {money(l.unitPrice)}, the shop&apos;s price {money(l.bookPrice ?? 0)}</li>)}
      </ul>
    </section>
  );
}

function ReturnForm({ sale }: { sale: Sale }) {
  const online = useOnline();
  const send = useReturnSale(sale._id);
  // A return's id: made once per return, so a retry is the same return (and, for store credit, the
  // same card: its code is the shop's, issue 55).
  const [returnId, setReturnId] = useState(() => crypto.randomUUID());
  const [approval, setApproval] = useState<ApprovalRequest | null>(null);
  const [counts, setCounts] = useState<Record<string, number>>({});
  // A sale paid by gift card alone gives back on that card; anything more as store credit (issue 57).
  const [method, setMethod] = useState<ReturnMethod>(sale.payment.method === 'gift_card' ? 'store_credit' : sale.payment.method);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [credit, setCredit] = useState<SaleReturn['giftCard'] & { amount: number } | null>(null);
  const returned = new Map<string, number>();
  for (const r of sale.returns) for (const l of r.lines) returned.set(l.bookId, (returned.get(l.bookId) ?? 0) + l.quantity);
  // A gift card sold on the sale is not taken back as a copy.
  const left = sale.lines.filter((l): l is BookSaleLine => l.kind !== 'gift_card').map((l) => ({ ...l, left: l.quantity - (returned.get(l.bookId) ?? 0) }));
  const creditShown = credit && <StoreCredit credit={credit} />;
  const said = message && <p role={message.ok ? 'status' : 'alert'} className={`text-sm ${message.ok ? 'text-secondary' : 'text-danger'}`}>{message.text}</p>;
  if (left.every((l) => l.left === 0)) {
    return (
      <>
        {creditShown}
        <div className="space-y-2 rounded-lg bg-white p-4 text-sm shadow sm:p-6">
          {said}
          <p>{left.length ? 'Every copy of this sale has been returned.' : 'This sale has no books to return.'}</p>
        </div>
      </>
    );
  }
  const chosen = left.filter((l) => (counts[l.bookId] ?? 0) > 0);
  // Less these copies' share of a discount code (issue 57), by the rule the shop applies: to the cent.
  const refundCents = chosen.reduce((sum, l) => {
    const copies = counts[l.bookId]!;
    const share = discountOfCopies({ quantity: l.quantity, discountCents: Math.round((l.discount ?? 0) * 100) }, returned.get(l.bookId) ?? 0, copies);
    return sum + Math.round(l.unitPrice * 100) * copies - share;
  }, 0);

  const record = async (given?: Approval) => {
    if (chosen.length === 0) return;
    try {
      const lines = chosen.map((l) => ({ bookId: l.bookId, quantity: counts[l.bookId]! }));
      const { return: ret } = await send.mutateAsync({ returnId, lines, refundMethod: method, tillId: readTillId(), ...(given ? { approval: given } : {}) });
      setApproval(null);
      // Issue 57: what a gift card paid went back on it first; the rest by the method chosen.
      const back = ret.giftCardBack;
      const rest = Math.round((ret.total - (back?.amount ?? 0)) * 100) / 100;
      const onCard = back ? `${money(back.amount)} back on gift card ····${back.last4}` : '';
      if (ret.giftCard) {
        setCredit({ ...ret.giftCard, amount: rest });
        setMessage({ ok: true, text: `Return recorded: ${onCard ? `${onCard}, and ` : ''}${money(rest)} of store credit on a new gift card.` });
      } else {
        setCredit(null);
        setMessage({ ok: true, text: rest > 0 ? `Return recorded: ${onCard ? `${onCard}; ` : ''}give back ${money(rest)} by ${RETURN_METHOD_LABELS[ret.refundMethod]}.` : `Return recorded: ${onCard}.` });
      }
      setCounts({});
      setReturnId(crypto.randomUUID());
    } catch (error) {
      // Another day's or till's sale, or past the allowance (issue 55): a manager approves on the spot.
      const code = error instanceof ApiError ? error.body?.code : undefined;
      if (code === MANAGER_APPROVAL_REQUIRED) return setApproval({ reason: (error as Error).message });
      if (code === APPROVAL_REFUSED && given) return setApproval((now) => ({ reason: now?.reason ?? '', problem: (error as Error).message }));
      setApproval(null);
      setMessage({ ok: false, text: (error as Error).message });
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void record();
  };

  return (
    <>
    {creditShown}
    <ManagerApprovalDialog
      request={approval}
      busy={send.isPending}
      onApprove={(given) => void record(given)}
      onCancel={() => {
        setApproval(null);
        setMessage({ ok: false, text: 'Not approved: nothing was returned.' });
      }}
    />
    <form onSubmit={submit} aria-labelledby="return-heading" className="space-y-4 rounded-lg bg-white p-4 shadow sm:p-6">
      <h3 id="return-heading" className="font-bold">Return Items</h3>
      <OfflineNotice />
      {left.map((l) => (
        <div key={l.bookId} className="flex items-center justify-between gap-3">
          <label htmlFor={`return-${l.bookId}`} className="min-w-0 text-sm">
            <span className="block font-semibold">{l.title}</span>
            <span className="text-gray-600">{l.left} of {l.quantity} can come back · {money(l.unitPrice)} each</span>
          </label>
          <input
            id={`return-${l.bookId}`} type="number" min={0} max={l.left} step={1} value={counts[l.bookId] ?? 0} disabled={l.left === 0}
            onChange={(e) => setCounts((c) => ({ ...c, [l.bookId]: Math.max(0, Math.min(l.left, Math.trunc(Number(e.target.value) || 0))) }))}
            className={`${fieldClass} w-20`}
          />
        </div>
      ))}
      <fieldset>
        <legend className="mb-1 text-sm font-semibold text-gray-700">Give the money back by</legend>
        <div className="flex flex-wrap gap-4">
          {RETURN_METHODS.map((m) => (
            <label key={m} className="flex items-center gap-2 text-sm">
              <input type="radio" name="refundMethod" value={m} checked={method === m} onChange={() => setMethod(m)} />
              {RETURN_METHOD_LABELS[m]}
            </label>
          ))}
        </div>
        {method === 'store_credit' && <p className="mt-1 text-xs text-gray-600">A new gift card for what these books were sold for; its code is shown once, here, to give to the customer.</p>}
      </fieldset>
      <p className="font-semibold">{method === 'store_credit' ? 'Store credit' : 'Refund'}: <span className="tabular-nums">{money(refundCents / 100)}</span></p>
      {said}
      <button type="submit" disabled={!online || chosen.length === 0 || send.isPending} className={buttonClass('primary', 'md')}>Record Return</button>
    </form>
    </>
  );
}

/** The store credit just issued: its code, shown this once (the shop keeps only its hash). */
function StoreCredit({ credit }: { credit: NonNullable<SaleReturn['giftCard']> & { amount: number } }) {
  return (
    <section aria-labelledby="credit-heading" className="rounded-lg border-2 border-dashed border-accent bg-white p-4 shadow sm:p-6">
      <h3 id="credit-heading" className="font-bold">Store credit: {money(credit.amount)}</h3>
      <p className="mt-2 text-sm text-gray-700">Gift card code (give it to the customer: it is not shown again)</p>
      <p className="mt-1 break-all font-mono text-xl font-bold tracking-wider" data-testid="store-credit-code">{credit.code}</p>
    </section>
  );
}
