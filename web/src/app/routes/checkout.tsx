import { DELIVERY_LABELS, formatDollars, moneyLabel, type Address, type DeliveryMethod, type PaymentMethod } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { buttonClass } from '../../components/ui/button';
import { OfflineNotice } from '../../components/ui/offline-notice';
import { useAuth, type SessionUser } from '../../lib/auth/auth-context';
import { RequireUser } from '../../lib/auth/require-user';
import { removeUnavailableItems } from '../../features/cart/cart-actions';
import { lineProblem, unavailableIds } from '../../features/cart/cart-rules';
import { cart, useCartState } from '../../features/cart/cart-store';
import { ProblemBadge, UnavailableNotice } from '../../features/cart/unavailable-notice';
import { newIdempotencyKey, unavailableFromError, usePlaceOrder } from '../../features/checkout/create-order';
import { EMPTY_ADDRESS, draftFromOrder, quotePlaceOf, type AddressDraft } from '../../features/checkout/address-draft';
import { AddressFields } from '../../features/checkout/address-fields';
import { DeliveryOptions, PickupNote, QuoteSummary } from '../../features/checkout/delivery-options';
import { quoteQuery } from '../../features/checkout/get-quote';
import { PaymentOptions, paymentMethodsQuery } from '../../features/checkout/payment-options';
import { acceptedPromotions, PromotionFields, type Promotions } from '../../features/checkout/promotion-fields';
import { VerifyEmailGate } from '../../features/checkout/verify-email-gate';
import { usePrefillFromLatestOrder } from '../../features/orders/prefill-delivery';
import { ApiError } from '../../lib/api-client';
import { money } from '../../lib/format';
import { alertBox, confirmBox } from '../../lib/notify';
import { useOnline } from '../../lib/use-online';
import { usePageTitle } from '../../lib/use-page-title';

const PERSON = [
  { name: 'name', label: 'Full Name', type: 'text', autoComplete: 'name', span: 'md:col-span-5' },
  { name: 'phone', label: 'Phone Number', type: 'number', autoComplete: 'tel', span: 'md:col-span-5', placeholder: '+123 456 7890' },
] as const;

export function Component() {
  usePageTitle('Checkout');
  return (
    <RequireUser>
      <SignedInCheckout />
    </RequireUser>
  );
}

function SignedInCheckout() {
  return <CheckoutForm user={useAuth().user} />;
}

const INPUT = 'mt-1 h-10 w-full rounded-md border border-gray-300 bg-gray-50 px-4 focus:bg-white focus:outline-2 focus:outline-accent';

/** `value`, once it has stopped changing for `ms` (an address being typed asks for one quote, not one per key). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [key, ms]); // eslint-disable-line react-hooks/exhaustive-deps -- compared by value
  return settled;
}

/** The cart's books, the delivery form and the order's placement, for the signed-in `user`. */
export function CheckoutForm({ user }: { user: Pick<SessionUser, 'uid' | 'email'> | null }) {
  const { items, flags } = useCartState();
  const unavailable = unavailableIds(items, flags).length;
  const navigate = useNavigate();
  const [agreed, setAgreed] = useState(false);
  const place = usePlaceOrder();
  // From the click until the page moves on: the request, a price-change question, the receipt.
  const loading = place.isPending || (place.isSuccess && place.data !== null);
  const online = useOnline();
  const key = useRef(newIdempotencyKey());
  const formRef = useRef<HTMLFormElement>(null);
  // How the books come (issue 27): the shopper's choice, else what the server prices by default for
  // the address (issue 36: the courier where it reaches, else the post; nothing before a country is chosen).
  const [chosen, setChosen] = useState<DeliveryMethod | undefined>();
  const [address, setAddress] = useState<AddressDraft>(EMPTY_ADDRESS);
  // The pre-fill fills only what is still empty, with codes for an old order's typed country.
  const prefill = useCallback((last?: Address) => {
    if (last) setAddress((now) => (Object.values(now).some(Boolean) ? now : draftFromOrder(last)));
  }, []);
  usePrefillFromLatestOrder(formRef, user?.uid, prefill);
  const quotePlace = quotePlaceOf(address);
  const settledPlace = useSettled(quotePlace, 300);
  // Issue 40: a discount code and a gift card, applied with 'Apply' (priced by the server's quote).
  const [promotions, setPromotions] = useState<Promotions>({});
  const quote = useQuery(quoteQuery(items.map((item) => item._id), chosen, settledPlace, promotions));
  // Only an answer for exactly what the form says now (not the previous address's, kept on screen meanwhile).
  const current = !quote.isFetching && !quote.isPlaceholderData && JSON.stringify(settledPlace) === JSON.stringify(quotePlace);
  // What is on screen is for the address as it was, and a new answer is on its way (dimmed meanwhile).
  const stale = !current && !quote.isError;
  // A chosen method the new address cannot have gives way to what it can (said beside the methods).
  const [gaveWay, setGaveWay] = useState<string | undefined>();
  if (chosen && chosen !== 'pickup' && current && quote.data?.method === chosen && !quote.data.available && !quote.data.methods.find((m) => m.method === chosen)?.needsAddress) {
    setGaveWay(`${DELIVERY_LABELS[chosen]}: ${quote.data.reason}.`);
    setChosen(undefined);
  }
  const choose = (m: DeliveryMethod) => {
    setGaveWay(undefined);
    setChosen(m);
  };
  const method = chosen ?? quote.data?.method ?? undefined;
  const offer = quote.data?.methods.find((m) => m.method === method);
  // The server's total for this method and address (shipping and tax included): what the order is charged.
  const priced = current && method && quote.data?.method === method && quote.data.available && quote.data.total !== null ? quote.data : undefined;
  const pickup = method === 'pickup';
  // What remains to pay once a gift card paid its part (the order's totalPrice); 0: nothing to pay.
  const due = priced ? (priced.due ?? priced.total!) : undefined;
  // Whether a gift card pays it all, as last priced: while a new address is priced the payment step
  // does not come back for half a second (moving everything below it).
  const [coveredBefore, setCoveredBefore] = useState(false);
  if (due !== undefined && (due === 0) !== coveredBefore) setCoveredBefore(due === 0);
  const covered = due === undefined ? coveredBefore && !!promotions.giftCardCode : due === 0;
  // How the shopper pays (issue 35): 'Pay by Card' only when the shop offers it; cash otherwise, as before.
  const methods = useQuery(paymentMethodsQuery()).data?.methods ?? ['cash'];
  const [paying, setPaying] = useState<PaymentMethod>('cash');
  // Nothing left to pay (a gift card covers it): no payment step.
  const payBy: PaymentMethod = methods.includes(paying) && due !== 0 ? paying : 'cash';

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (place.isPending) return;
    const form = new FormData(e.currentTarget);
    const field = (name: string) => String(form.get(name) ?? '').trim();
    if (!priced) return;
    const order = {
      name: field('name'),
      email: user?.email ?? '',
      phone: field('phone'),
      // A pickup needs no address: the books wait in the shop.
      ...(pickup ? {} : { address: { street: field('street'), city: field('city'), country: field('country'), state: field('state'), zipcode: field('zipcode') } }),
      productIDs: items.map((item) => item._id),
      totalPrice: formatDollars(due!),
      delivery: { method: priced.method! },
      ...acceptedPromotions(promotions, priced),
      ...(payBy === 'card' ? { payment: { method: payBy } } : {}),
    };
    try {
      const placed = await place.mutateAsync({
        order,
        idempotencyKey: key.current,
        confirmNewTotal: (newTotal) => confirmBox('Prices have changed', `The new total is ${moneyLabel(newTotal)}. Place the order at this price?`, 'Place order'),
      });
      if (!placed) return;
      key.current = newIdempotencyKey();
      cart.clear();
      // By card: straight on to the payment page; it returns to the order's own page.
      if (placed.checkoutUrl) {
        window.location.assign(placed.checkoutUrl);
        return;
      }
      const when = placed.delivery?.method === 'pickup' ? 'at the counter when you collect it' : 'on delivery';
      const pays = placed.totalPrice === 0 ? 'Your gift card paid for it: there is nothing more to pay.' : `You will pay ${moneyLabel(placed.totalPrice)} ${when}.`;
      await alertBox('Confirmed Order', `Your order ${placed._id} has been placed. ${pays}`, 'success', 'Yes, OK!');
      navigate('/orders');
    } catch (error) {
      console.error('Order failed', error);
      const gone = unavailableFromError(error);
      if (gone) {
        cart.markUnavailable(gone.productIDs, gone.reason);
        const what = gone.reason === 'deleted' ? 'are no longer sold' : 'are out of stock';
        await alertBox('Failed to create order', `Some books in your cart ${what}. Remove them and place your order again.`, 'error');
        return;
      }
      const detail = error instanceof ApiError && error.status && error.status < 500 ? error.message : undefined;
      await alertBox('Failed to create order', detail, 'error');
    }
  };

  if (items.length === 0 && !loading) {
    return (
      <section className="py-6 md:py-10">
        <h1 className="mb-4 text-2xl font-bold md:text-3xl">Cash On Delevary</h1>
        <p className="mb-6 text-gray-700">Your cart is empty. Add a book before checking out.</p>
        <Link to="/" className={buttonClass('primary', 'md')}>Continue Shopping</Link>
      </section>
    );
  }
  return (
    <>
      {loading && <p role="status" className="py-16 text-center text-lg">Loading...</p>}
      {/* Hidden, not unmounted, while loading: a failed attempt keeps what the shopper typed. */}
      <section className="py-6 md:py-10" hidden={loading}>
        <h1 className="mb-2 text-2xl font-bold md:text-3xl">Cash On Delevary</h1>
        <p className="text-gray-700" data-testid="checkout-total">Total Price: {priced ? moneyLabel(priced.total!) : quote.data ? moneyLabel(quote.data.subtotal) : '...'}</p>
        <p className="mb-6 text-gray-700">Items: {items.length}</p>
        <VerifyEmailGate />
        {unavailable > 0 && (
          <div className="mb-6">
            <UnavailableNotice count={unavailable} onRemove={removeUnavailableItems} />
          </div>
        )}
        <div className="rounded-lg bg-white p-4 shadow-lg ring-1 ring-gray-100 md:p-8">
          <form ref={formRef} onSubmit={submit} className="grid grid-cols-1 gap-6 text-sm lg:grid-cols-3">
            <div className="text-gray-700">
              <p className="text-lg font-medium">Personal Details</p>
              <p>Please fill out all the fields.</p>
              <h2 className="mt-6 font-semibold text-gray-900">Your Items</h2>
              <ul className="mt-2 divide-y divide-gray-100" aria-label="Your items">
                {items.map((item) => {
                  const problem = lineProblem(item, flags);
                  return (
                    <li key={item._id} className="flex items-start justify-between gap-3 py-2">
                      <span className="min-w-0">
                        <span className={`block ${problem ? 'text-gray-500' : 'text-gray-900'}`}>{item.title}</span>
                        {problem && <ProblemBadge problem={problem} />}
                      </span>
                      <span className={problem ? 'text-gray-500 line-through' : 'font-medium text-gray-900'}>{money(item.newPrice)}</span>
                    </li>
                  );
                })}
              </ul>
            </div>
            <div className="lg:col-span-2">
              <div className="grid grid-cols-1 gap-4 md:grid-cols-5">
                <div className="md:col-span-5">
                  <label htmlFor="email">Email Address</label>
                  <input id="email" name="email" type="email" readOnly value={user?.email ?? ''} className="mt-1 h-10 w-full rounded border border-gray-300 bg-gray-100 px-4" />
                </div>
                {PERSON.map((f) => (
                  <div key={f.name} className={f.span}>
                    <label htmlFor={f.name}>{f.label}</label>
                    <input id={f.name} name={f.name} type={f.type} required autoComplete={f.autoComplete} placeholder={'placeholder' in f ? f.placeholder : ''} className={INPUT} />
                  </div>
                ))}
                <AddressFields value={address} onChange={setAddress} shop={quote.data} hidden={pickup} />
                <DeliveryOptions quote={quote.data} value={offer ? method : undefined} onChange={choose} note={gaveWay} stale={stale} failed={quote.isError} />
                {pickup && quote.data?.pickup && <PickupNote pickup={quote.data.pickup} />}
                <PromotionFields value={promotions} onChange={setPromotions} quote={current ? quote.data : undefined} />
                {!covered && <PaymentOptions methods={methods} value={payBy} onChange={setPaying} pickup={pickup} cardProblem={priced?.cardProblem} />}
                {quote.data && <QuoteSummary quote={quote.data} stale={stale} />}
                {quote.isError && (
                  <p role="alert" className="text-danger md:col-span-5">
                    Could not price the delivery. <button type="button" onClick={() => quote.refetch()} className="font-semibold underline">Try Again</button>
                  </p>
                )}
                <div className="mt-3 md:col-span-5">
                  <div className="inline-flex items-center gap-2">
                    <input id="terms" type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} className="size-4" />
                    <label htmlFor="terms">
                      I agree to the <a href="#terms" className="text-accent underline">Terms &amp; Conditions</a> and <a href="#privacy" className="text-accent underline">Shopping Policy</a>.
                    </label>
                  </div>
                </div>
                {/* The total, what cash on delivery means, and why the button waits, beside the button (issue 29). */}
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
              </div>
            </div>
          </form>
        </div>
      </section>
    </>
  );
}
