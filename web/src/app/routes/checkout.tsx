import { moneyLabel, type Address } from '@bookstore/contract';
import { useCallback, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { buttonClass } from '../../components/ui/button';
import { useAuth, type SessionUser } from '../../lib/auth/auth-context';
import { RequireUser } from '../../lib/auth/require-user';
import { removeUnavailableItems } from '../../features/cart/cart-actions';
import { unavailableIds } from '../../features/cart/cart-rules';
import { useCartState } from '../../features/cart/cart-store';
import { UnavailableNotice } from '../../features/cart/unavailable-notice';
import { draftFromOrder } from '../../features/checkout/address-draft';
import { AddressFields } from '../../features/checkout/address-fields';
import { CheckoutItems } from '../checkout/checkout-items';
import { DeliveryOptions, PickupNote, QuoteSummary } from '../../features/checkout/delivery-options';
import { PaymentOptions } from '../../features/checkout/payment-options';
import { PersonalFields } from '../../features/checkout/personal-fields';
import { PlaceOrderBox } from '../../features/checkout/place-order-box';
import { PromotionFields } from '../../features/checkout/promotion-fields';
import { useCheckoutQuote } from '../../features/checkout/use-checkout-quote';
import { useSubmitOrder } from '../checkout/use-submit-order';
import { VerifyEmailGate } from '../../features/checkout/verify-email-gate';
import { usePrefillFromLatestOrder } from '../../features/orders/prefill-delivery';
import { useOnline } from '../../lib/use-online';
import { usePageTitle } from '../../lib/use-page-title';

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

// The page puts its parts together: pricing (use-checkout-quote), placing (use-submit-order), the
// items, the person, the address, delivery, promotions, payment, and the box with the button.

/** The cart's books, the delivery form and the order's placement, for the signed-in `user`. */
export function CheckoutForm({ user }: { user: Pick<SessionUser, 'uid' | 'email'> | null }) {
  const { items, flags } = useCartState();
  const unavailable = unavailableIds(items, flags).length;
  const [agreed, setAgreed] = useState(false);
  const online = useOnline();
  const formRef = useRef<HTMLFormElement>(null);
  const checkout = useCheckoutQuote(items.map((item) => item._id));
  const { quote, current, stale, priced, pickup, setAddress } = checkout;
  // The pre-fill fills only what is still empty, with codes for an old order's typed country.
  const prefill = useCallback((last?: Address) => {
    if (last) setAddress((now) => (Object.values(now).some(Boolean) ? now : draftFromOrder(last)));
  }, [setAddress]);
  usePrefillFromLatestOrder(formRef, user?.uid, prefill);
  const { submit, loading } = useSubmitOrder(user, items, checkout);

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
            <CheckoutItems items={items} flags={flags} />
            <div className="lg:col-span-2">
              <div className="grid grid-cols-1 gap-4 md:grid-cols-5">
                <PersonalFields email={user?.email ?? ''} />
                <AddressFields value={checkout.address} onChange={setAddress} shop={quote.data} hidden={pickup} />
                <DeliveryOptions quote={quote.data} value={checkout.offer ? checkout.method : undefined} onChange={checkout.choose} note={checkout.gaveWay} stale={stale} failed={quote.isError} />
                {pickup && quote.data?.pickup && <PickupNote pickup={quote.data.pickup} />}
                <PromotionFields value={checkout.promotions} onChange={checkout.setPromotions} quote={current ? quote.data : undefined} />
                {!checkout.covered && <PaymentOptions methods={checkout.methods} value={checkout.payBy} onChange={checkout.setPaying} pickup={pickup} cardProblem={priced?.cardProblem} />}
                {quote.data && <QuoteSummary quote={quote.data} stale={stale} />}
                {quote.isError && (
                  <p role="alert" className="text-danger md:col-span-5">
                    Could not price the delivery. <button type="button" onClick={() => quote.refetch()} className="font-semibold underline">Try Again</button>
                  </p>
                )}
                <PlaceOrderBox checkout={checkout} agreed={agreed} onAgree={setAgreed} unavailable={unavailable} online={online} />
              </div>
            </div>
          </form>
        </div>
      </section>
    </>
  );
}
