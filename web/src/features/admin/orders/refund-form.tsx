import { formatDollars, type Order } from '@bookstore/contract';
import { useRef, useState, type FormEvent } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { money } from '../../../lib/format';
import { alertBox, confirmAction, toast } from '../../../lib/notify';
import { useRefundOrder } from './desk-api';

// The desk's refund (owner and manager, issue 35): an amount in dollars, a reason the customer reads,
// and for each line whether its copy goes back on the shelf. One Idempotency-Key per form filled in,
// so a double click or a retry after a lost answer makes one refund.

const newKey = () => crypto.randomUUID();

/** Dollars still refundable in money: received less refunded (the server decides again). */
export function refundableOf(order: Order): number {
  const p = order.payment;
  const received = p.paid ?? (['paid', 'partially_refunded', 'refunded'].includes(p.status) ? p.amount : 0);
  return Math.max(0, Math.round((received - p.refunded) * 100)) / 100;
}

/** Dollars a gift card paid and no refund gave back yet: they go back on the card first (decision 040). */
export const giftCardLeftOf = (order: Order): number => (order.giftCard ? Math.max(0, Math.round((order.giftCard.amount - order.giftCard.returned) * 100)) / 100 : 0);

/**
 * Exactly what a refund of `amount` dollars does (issue 54), as the server splits it: the gift
 * card's part back on the card first, the rest in money.
 */
export function refundSplitText(order: Order, amount: number, storeCredit = false): string {
  const cents = Math.round(amount * 100);
  const giftCents = Math.min(Math.round(giftCardLeftOf(order) * 100), cents);
  const moneyCents = cents - giftCents;
  const rest = storeCredit
    ? `${money(moneyCents / 100)} becomes store credit on a new gift card.`
    : order.payment.method === 'card' ? `${money(moneyCents / 100)} goes back to the customer's card through Stripe.` : `Give the customer ${money(moneyCents / 100)} in cash.`;
  const parts = [
    ...(giftCents > 0 ? [`${money(giftCents / 100)} goes back on the gift card ending ${order.giftCard!.last4}.`] : []),
    ...(moneyCents > 0 ? [rest] : []),
  ];
  return `${parts.join(' ')} The customer is mailed.`;
}

export function RefundForm({ order }: { order: Order }) {
  const refund = useRefundOrder();
  const key = useRef(newKey());
  const [error, setError] = useState<string | null>(null);
  const left = Math.round((refundableOf(order) + giftCardLeftOf(order)) * 100) / 100;
  const restocked = new Set(order.payment.refunds.flatMap((r) => r.restock));
  const restockable = ['cancelled', 'refused'].includes(order.status) ? [] : order.items.filter((l) => !restocked.has(l.bookId));
  if (left <= 0) return <p className="text-sm text-gray-600" data-testid="refund-none">Nothing left to refund.</p>;

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setError(null);
    const form = new FormData(e.currentTarget);
    const amount = String(form.get('amount') ?? '').trim();
    const reason = String(form.get('reason') ?? '').trim();
    const staffNote = String(form.get('staffNote') ?? '').trim();
    const restock = form.getAll('restock').map((bookId) => ({ bookId: String(bookId), quantity: 1 as const }));
    const storeCredit = form.get('destination') === 'store_credit';
    const ok = await confirmAction({
      title: `Refund $${amount}?`,
      text: `${refundSplitText(order, Number(amount), storeCredit)} ${restock.length ? `${restock.length} book(s) go back in stock.` : 'No book goes back in stock.'} This cannot be undone.`,
      confirmButtonText: 'Refund',
      cancelButtonText: 'Back',
      danger: true,
    });
    if (!ok) return;
    try {
      const answer = await refund.mutateAsync({ id: order._id, body: { amount, reason, ...(staffNote ? { staffNote } : {}), restock, ...(storeCredit ? { destination: 'store_credit' as const } : {}) }, key: key.current });
      key.current = newKey();
      (e.target as HTMLFormElement).reset();
      // The new card's code is shown once, to hand over or read out (the customer is mailed it too).
      if (answer.storeCredit?.code) void alertBox('Store credit issued', `Gift card ${answer.storeCredit.code} holds ${money(answer.storeCredit.amount)}. The customer is mailed the code.`, 'success');
      else void toast('Refund recorded', { timer: 2000 });
    } catch (err) {
      // The same key is kept: sending again after a lost answer repeats it, never refunds twice.
      setError(err instanceof ApiError && err.status && err.status < 500 ? err.message : 'The refund could not be made. Please try again.');
    }
  };

  return (
    <form onSubmit={submit} className="space-y-3 border-t border-gray-100 pt-4 text-sm" aria-labelledby="refund-heading">
      <h5 id="refund-heading" className="font-semibold">Refund</h5>
      <p className="text-gray-600">Up to {money(left)} can be refunded.</p>
      <div>
        <label htmlFor="refund-amount" className="block font-medium">Amount ($)</label>
        <input id="refund-amount" name="amount" inputMode="decimal" required pattern="\d+(\.\d{1,2})?" defaultValue={formatDollars(left)} className="mt-1 h-10 w-full rounded-md border border-gray-300 px-3" />
      </div>
      <div>
        <label htmlFor="refund-reason" className="block font-medium">Reason (the customer sees it)</label>
        <input id="refund-reason" name="reason" required maxLength={500} className="mt-1 h-10 w-full rounded-md border border-gray-300 px-3" />
      </div>
      <div>
        <label htmlFor="refund-staff-note" className="block font-medium">Staff note <span className="font-normal text-gray-600">(optional, never shown to the customer)</span></label>
        <input id="refund-staff-note" name="staffNote" maxLength={500} className="mt-1 h-10 w-full rounded-md border border-gray-300 px-3" />
      </div>
      <fieldset>
        <legend className="font-medium">Where the money goes</legend>
        <label className="mt-1 flex items-center gap-2">
          <input type="radio" name="destination" value="original" defaultChecked className="size-4" />
          <span>{order.payment.method === 'card' ? 'Back to the card' : 'In cash'}</span>
        </label>
        <label className="mt-1 flex items-center gap-2">
          <input type="radio" name="destination" value="store_credit" className="size-4" />
          <span>As store credit (a new gift card)</span>
        </label>
        {giftCardLeftOf(order) > 0 && <p className="mt-1 text-gray-600">The gift card that paid this order gets its part back first.</p>}
      </fieldset>
      {restockable.length > 0 && (
        <fieldset>
          <legend className="font-medium">Put back in stock</legend>
          {restockable.map((line) => (
            <label key={line.bookId} className="mt-1 flex items-center gap-2">
              <input type="checkbox" name="restock" value={line.bookId} className="size-4" />
              <span>{line.title}</span>
            </label>
          ))}
        </fieldset>
      )}
      {error && <p role="alert" className="text-danger">{error}</p>}
      <button type="submit" disabled={refund.isPending} className={buttonClass('secondary', 'md', 'w-full')}>{refund.isPending ? 'Refunding...' : 'Refund'}</button>
    </form>
  );
}
