import type { DeliveryMethod, PickupInfo, Quote } from '@bookstore/contract';
import { money } from '../../lib/format';

// The checkout's choice of how the books come (issue 27): the methods the server offers for the
// address, each with its price for this cart, or why it cannot be used there. Nothing is chosen for
// the shopper until the address says what it can have (issue 36: the server's default for it).

const DESCRIPTION: Record<DeliveryMethod, string> = {
  pickup: 'Collect it in the shop and pay at the counter',
  local: 'Our courier brings it; cash on delivery',
  post: 'Posted to your address; cash on delivery',
};

interface Props {
  quote: Quote | undefined;
  value: DeliveryMethod | undefined;
  onChange: (method: DeliveryMethod) => void;
  /** Why the method chosen before gave way to what the new address can have. */
  note?: string;
  /** The answer on screen is for the address as it was: a new one is on its way. */
  stale?: boolean;
  /** No answer came (offline, or the server failed): the checkout says so and offers to try again. */
  failed?: boolean;
}

export function DeliveryOptions({ quote, value, onChange, note, stale = false, failed = false }: Props) {
  const offered = quote?.methods ?? [];
  const waiting = !value && offered.some((o) => o.needsAddress);
  const help = stale && quote
    ? 'Checking what delivery costs to this address...'
    : waiting ? 'Choose your country above to see what delivery costs, or pick up in the shop.' : 'Prices for your cart and address.';
  return (
    <fieldset className="md:col-span-5" aria-describedby="delivery-help" aria-busy={stale}>
      <legend className="font-semibold text-gray-900">Delivery</legend>
      <p id="delivery-help" className="mb-2 min-h-10 text-gray-600 sm:min-h-0">{help}</p>
      {!quote && !failed && <p role="status" className="text-gray-600">Finding delivery options...</p>}
      <p role="status" className="mb-2 text-secondary empty:hidden" data-testid="method-gave-way">{note}</p>
      <div className={`space-y-2 ${stale ? 'opacity-60' : ''}`}>
        {offered.map((o) => {
          const usable = o.available || o.needsAddress;
          const note = `delivery-${o.method}-note`;
          // The label is the method and its price; why it is (not) offered is its description, so the
          // radio's name never repeats the address fields' names ('Enter your zipcode').
          return (
            <div key={o.method} className={`rounded-md border p-3 ${usable ? 'border-gray-300 has-[:checked]:border-secondary has-[:checked]:bg-accent-soft' : 'border-gray-200 text-gray-500'}`}>
              <label className={`flex items-start gap-3 ${usable ? 'cursor-pointer' : ''}`}>
                <input type="radio" name="delivery-method" value={o.method} checked={value === o.method} disabled={!usable} onChange={() => onChange(o.method)} aria-describedby={note} className="mt-1 size-4" />
                <span className="flex min-w-0 flex-1 flex-wrap justify-between gap-x-3">
                  <span className="font-medium text-gray-900">{o.label}{o.zone ? ` (${o.zone})` : ''}</span>
                  <span className="tabular-nums">{o.price === null ? '' : o.price === 0 ? 'Free' : money(o.price)}</span>
                </span>
              </label>
              {/* Two lines on a phone (as the help above), where every description wraps, so a short
                  reason ('Enter your zipcode') giving way to it does not move what is below. */}
              <p id={note} className="ml-7 min-h-10 text-gray-600 sm:min-h-0">{o.available ? DESCRIPTION[o.method] : o.reason}</p>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

export function PickupNote({ pickup }: { pickup: PickupInfo }) {
  return (
    <div className="rounded-md bg-accent-soft p-3 text-secondary ring-1 ring-accent md:col-span-5" data-testid="pickup-note">
      <p><span className="font-semibold">Collect at:</span> <span className="whitespace-pre-line">{pickup.address}</span></p>
      <p><span className="font-semibold">Opening hours:</span> <span className="whitespace-pre-line">{pickup.hours}</span></p>
      <p>We tell you by email when it is ready, and keep it for {pickup.holdDays} days.</p>
    </div>
  );
}

/** '-' until the address is priced; named for a screen reader, which may read a bare dash as nothing. */
function Unpriced() {
  return (
    <>
      <span aria-hidden="true">-</span>
      <span className="sr-only">not priced yet</span>
    </>
  );
}

const amount = (dollars: number | null | undefined, free = false) =>
  dollars === null || dollars === undefined ? <Unpriced /> : free && dollars === 0 ? 'Free' : money(dollars);

/**
 * Subtotal, the method's price, the tax line and the total, as the server priced them. Every row
 * stands before the address is priced (with '-' until it is) and whatever the method, so the terms
 * box and Place an Order below do not move when the price lands: a tap as they move is lost. While
 * a new address is priced (`stale`) the rows are dimmed, as the methods are.
 */
export function QuoteSummary({ quote, stale = false }: { quote: Quote; stale?: boolean }) {
  const method = quote.methods.find((m) => m.method === quote.method);
  const post = quote.methods.find((m) => m.method === 'post');
  const card = quote.giftCard && 'amount' in quote.giftCard ? quote.giftCard : undefined;
  const unpriced = quote.total === null;
  // A shop taxing by region names no rate before the place has one: '0%' would say there is no tax.
  const rate = unpriced && quote.taxRate === 0 ? '' : ` (${quote.taxRate}%)`;
  return (
    <dl className={`space-y-1 rounded-md bg-gray-50 p-3 text-gray-800 ring-1 ring-gray-200 md:col-span-5 ${stale ? 'opacity-60' : ''}`} aria-label="Order summary" aria-busy={stale} data-testid="quote-summary">
      <div className="flex justify-between"><dt>Subtotal</dt><dd className="tabular-nums">{money(quote.subtotal)}</dd></div>
      {/* Issue 40: off the books, before shipping and tax. */}
      {quote.discountApplied && (
        <div className="flex justify-between text-secondary">
          <dt>Discount ({quote.discountApplied.code})</dt>
          {/* Known before the address is: it comes off the books, whatever the delivery. */}
          <dd className="tabular-nums" data-testid="quote-discount">-{money(quote.discount ?? 0)}</dd>
        </div>
      )}
      <div className="flex justify-between"><dt>{method?.label ?? 'Shipping'}</dt><dd className="tabular-nums" data-testid="quote-shipping">{amount(quote.shipping, true)}</dd></div>
      {quote.taxed && (
        <div className="flex justify-between text-gray-600">
          <dt>{quote.taxIncluded ? 'Includes ' : ''}{quote.taxLabel}{rate}</dt>
          <dd className="tabular-nums" data-testid="quote-tax">{amount(quote.tax)}</dd>
        </div>
      )}
      {/* The threshold is the cart's: the line stands whatever the method; where the post cannot reach
          the address it keeps its room, unseen, so nothing below moves. */}
      {quote.toFreeShipping !== undefined && quote.freeShippingFrom !== undefined && (
        <div className={`text-secondary ${post && (post.available || post.needsAddress) ? '' : 'invisible'}`}>
          <dt className="sr-only">Free shipping</dt>
          <dd data-testid="free-shipping">{quote.method === 'post' ? `You are ${money(quote.toFreeShipping)} from free shipping` : `Post is free from ${money(quote.freeShippingFrom)}`}</dd>
        </div>
      )}
      <div className="flex justify-between border-t border-gray-200 pt-1 font-semibold text-gray-900">
        <dt>Total</dt>
        <dd className="tabular-nums" data-testid="quote-total">{amount(quote.total)}</dd>
      </div>
      {card && (
        <>
          <div className="flex justify-between text-secondary">
            <dt>Gift card ending {card.last4}</dt>
            <dd className="tabular-nums" data-testid="quote-gift-card">{unpriced ? <Unpriced /> : `-${money(card.amount)}`}</dd>
          </div>
          <div className="flex justify-between font-semibold text-gray-900">
            <dt>To pay</dt>
            <dd className="tabular-nums" data-testid="quote-due">{amount(quote.due)}</dd>
          </div>
        </>
      )}
    </dl>
  );
}
