import { moneyLabel } from '@bookstore/contract';
import { buttonClass } from '../../components/ui/button';
import { OfflineNotice } from '../../components/ui/offline-notice';
import type { CheckoutQuote } from './use-checkout-quote';

/**
 * The terms to agree to, then beside the button the total, what paying this way means, and why the
 * button waits (issue 29).
 */
export function PlaceOrderBox({ checkout, agreed, onAgree, unavailable, online }: {
  checkout: CheckoutQuote; agreed: boolean; onAgree: (agreed: boolean) => void; unavailable: number; online: boolean;
}) {
  const { quote, current, offer, priced, due, covered, payBy, pickup } = checkout;
  return (
    <>
      <div className="mt-3 md:col-span-5">
        <div className="inline-flex items-center gap-2">
          <input id="terms" type="checkbox" checked={agreed} onChange={(e) => onAgree(e.target.checked)} className="size-4" />
          <label htmlFor="terms">
            I agree to the <a href="#terms" className="text-accent underline">Terms &amp; Conditions</a> and <a href="#privacy" className="text-accent underline">Shopping Policy</a>.
          </label>
        </div>
      </div>
      <div className="rounded-md bg-gray-50 p-4 ring-1 ring-gray-200 md:col-span-5">
        {unavailable > 0 && <p className="mb-2 text-danger">Remove the unavailable items to place your order.</p>}
        <OfflineNotice className="mb-2" />
        {current && quote.data && !quote.data.available && (
          <p className="mb-2 text-gray-700" data-testid="method-needed">
            {/* What the address still lacks, or why this method cannot reach it. */}
            {quote.data.method === null || offer?.needsAddress ? `${quote.data.reason}.` : `${quote.data.reason}: choose another way to get your books.`}
          </p>
        )}
        <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="min-w-0">
            <p className="text-lg font-bold text-gray-900">
              {due !== undefined && due !== priced?.total ? 'To pay' : 'Total'}: <span data-testid="place-total" className="tabular-nums">{due !== undefined ? moneyLabel(due) : '...'}</span>
            </p>
            <p id="cod-note" className="text-gray-700">
              {covered
                ? 'Paid by your gift card: there is nothing more to pay.'
                : payBy === 'card'
                ? 'By card: placing the order opens the payment page, where you pay this total.'
                : pickup
                  ? 'Nothing is charged now: you pay this total at the counter when you collect your books.'
                  : 'Cash on delivery: nothing is charged now, you pay this total in cash when your books arrive.'}
            </p>
          </div>
          <button
            disabled={!agreed || unavailable > 0 || !online || !priced}
            aria-describedby={agreed ? 'cod-note' : 'cod-note terms-needed'}
            className={buttonClass('primary', 'lg', 'shrink-0')}
          >
            Place an Order
          </button>
        </div>
        {!agreed && (
          <p id="terms-needed" className="mt-2 text-gray-700" data-testid="terms-needed">
            Tick &lsquo;I agree to the Terms &amp; Conditions&rsquo; above to place your order.
          </p>
        )}
      </div>
    </>
  );
}
