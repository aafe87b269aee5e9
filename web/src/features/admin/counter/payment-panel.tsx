import { fromCents, type SalePaymentMethod } from '@bookstore/contract';
import { buttonClass, fieldClass } from '../../../components/ui/button';
import { money } from '../../../lib/format';
import { TillCodesFields, type TillCodes } from './till-codes';

/** The sale's total, the cash tendered and its change, and how it is paid: cash, or the till's card reader (online only). */
export function PaymentPanel({ totalCents, tendered, onTendered, tenderedCents, tenderedProblem, empty, busy, online, onPay, codes }: {
  totalCents: number; tendered: string; onTendered: (value: string) => void; tenderedCents: number | null; tenderedProblem: string | null;
  empty: boolean; busy: boolean; online: boolean; onPay: (method: SalePaymentMethod) => void; codes: TillCodes;
}) {
  const withCodes = codes.discountCode.trim() !== '' || codes.giftCardCode.trim() !== '';
  return (
    <section aria-label="Payment" className="space-y-4 self-start rounded-lg bg-white p-4 shadow sm:p-6">
      <p className="flex items-baseline justify-between">
        <span className="text-lg font-semibold">Total</span>
        <span className="text-3xl font-bold tabular-nums" data-testid="sale-total">{money(fromCents(totalCents))}</span>
      </p>
      <div>
        <label htmlFor="tendered" className="mb-1 block text-sm font-semibold text-gray-700">Amount tendered <span className="font-normal text-gray-600">(optional, cash)</span></label>
        <input id="tendered" value={tendered} onChange={(e) => onTendered(e.target.value)} inputMode="decimal" autoComplete="off" className={fieldClass} aria-describedby="change" />
        <p id="change" className="mt-1 min-h-5 text-sm" aria-live="polite">
          {tenderedProblem ? <span className="text-danger">{tenderedProblem}</span> : tenderedCents !== null && !empty && !withCodes ? <>Change: <strong className="tabular-nums">{money(fromCents(tenderedCents - totalCents))}</strong></> : null}
        </p>
      </div>
      <TillCodesFields codes={codes} online={online} />
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
        <button type="button" disabled={empty || busy} onClick={() => onPay('cash')} className={buttonClass('primary', 'lg')}>Take Cash</button>
        <button type="button" disabled={empty || busy || !online} onClick={() => onPay('card_terminal')} className={buttonClass('secondary', 'lg')} aria-describedby="terminal-note">Card on Terminal</button>
        {codes.giftCardCode.trim() !== '' && (
          <button type="button" disabled={empty || busy || !online} onClick={() => onPay('gift_card')} className={`${buttonClass('secondary', 'lg')} sm:col-span-2 lg:col-span-1 xl:col-span-2`}>Gift Card Only</button>
        )}
      </div>
      <p id="terminal-note" className="text-xs text-gray-600">
        {online ? "Card on Terminal: the till's card reader takes the payment; the sale completes when the card is accepted." : 'Offline: Card on Terminal needs the connection to the shop and its reader. Cash still works.'}
      </p>
    </section>
  );
}
