import { moneyLabel } from '@bookstore/contract';
import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { OfflineNotice } from '../../components/ui/offline-notice';
import { useAuth, type SessionUser } from '../../lib/auth/auth-context';
import { RequireUser } from '../../lib/auth/require-user';
import { removeUnavailableItems } from '../../features/cart/cart-actions';
import { lineProblem, subtotal, unavailableIds } from '../../features/cart/cart-rules';
import { cart, useCartState } from '../../features/cart/cart-store';
import { ProblemBadge, UnavailableNotice } from '../../features/cart/unavailable-notice';
import { newIdempotencyKey, unavailableFromError, usePlaceOrder } from '../../features/checkout/create-order';
import { VerifyEmailGate } from '../../features/checkout/verify-email-gate';
import { usePrefillFromLatestOrder } from '../../features/orders/prefill-delivery';
import { ApiError } from '../../lib/api-client';
import { money } from '../../lib/format';
import { alertBox, confirmBox } from '../../lib/notify';
import { useOnline } from '../../lib/use-online';
import { usePageTitle } from '../../lib/use-page-title';

const FIELDS = [
  { name: 'name', label: 'Full Name', type: 'text', autoComplete: 'name', span: 'md:col-span-5' },
  { name: 'phone', label: 'Phone Number', type: 'number', autoComplete: 'tel', span: 'md:col-span-5', placeholder: '+123 456 7890' },
  { name: 'street', label: 'Address / Street', type: 'text', autoComplete: 'street-address', span: 'md:col-span-3' },
  { name: 'city', label: 'City', type: 'text', autoComplete: 'address-level2', span: 'md:col-span-2' },
  { name: 'country', label: 'Country / region', type: 'text', autoComplete: 'country-name', span: 'md:col-span-2' },
  { name: 'state', label: 'State / province', type: 'text', autoComplete: 'address-level1', span: 'md:col-span-2' },
  { name: 'zipcode', label: 'Zipcode', type: 'text', autoComplete: 'postal-code', span: 'md:col-span-1' },
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

/** The cart's books, the delivery form and the order's placement, for the signed-in `user`. */
export function CheckoutForm({ user }: { user: Pick<SessionUser, 'uid' | 'email'> | null }) {
  const { items, flags } = useCartState();
  const total = subtotal(items);
  const unavailable = unavailableIds(items, flags).length;
  const navigate = useNavigate();
  const [agreed, setAgreed] = useState(false);
  const place = usePlaceOrder();
  // From the click until the page moves on: the request, a price-change question, the receipt.
  const loading = place.isPending || (place.isSuccess && place.data !== null);
  const online = useOnline();
  const key = useRef(newIdempotencyKey());
  const formRef = useRef<HTMLFormElement>(null);
  usePrefillFromLatestOrder(formRef, user?.uid);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (place.isPending) return;
    const form = new FormData(e.currentTarget);
    const field = (name: string) => String(form.get(name) ?? '').trim();
    const order = {
      name: field('name'),
      email: user?.email ?? '',
      phone: field('phone'),
      address: { street: field('street'), city: field('city'), country: field('country'), state: field('state'), zipcode: field('zipcode') },
      productIDs: items.map((item) => item._id),
      totalPrice: total,
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
      await alertBox('Confirmed Order', `Your order ${placed._id} has been placed. You will pay ${moneyLabel(placed.totalPrice)} on delivery.`, 'success', 'Yes, OK!');
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
      <section className="py-16 text-center">
        <h1 className="mb-4 text-2xl font-semibold">Cash On Delevary</h1>
        <p className="mb-6 text-gray-700">Your cart is empty. Add a book before checking out.</p>
        <Link to="/" className="rounded-md bg-primary px-6 py-2 font-semibold text-secondary">Continue Shopping</Link>
      </section>
    );
  }
  return (
    <>
      {loading && <p role="status" className="py-16 text-center text-lg">Loading...</p>}
      {/* Hidden, not unmounted, while loading: a failed attempt keeps what the shopper typed. */}
      <section className="mx-auto max-w-5xl py-10" hidden={loading}>
        <h1 className="mb-2 text-2xl font-semibold text-gray-700">Cash On Delevary</h1>
        <p className="text-gray-700">Total Price: ${total}</p>
        <p className="mb-6 text-gray-700">Items: {items.length}</p>
        <VerifyEmailGate />
        {unavailable > 0 && (
          <div className="mb-6">
            <UnavailableNotice count={unavailable} onRemove={removeUnavailableItems} />
          </div>
        )}
        <div className="rounded bg-white p-4 shadow-lg ring-1 ring-gray-100 md:p-8">
          <form ref={formRef} onSubmit={submit} className="grid grid-cols-1 gap-6 text-sm lg:grid-cols-3">
            <div className="text-gray-700">
              <p className="text-lg font-medium">Personal Details</p>
              <p>Please fill out all the fields.</p>
              <h2 className="mt-6 font-semibold text-gray-900">Your items</h2>
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
                {FIELDS.map((f) => (
                  <div key={f.name} className={f.span}>
                    <label htmlFor={f.name}>{f.label}</label>
                    <input id={f.name} name={f.name} type={f.type} required autoComplete={f.autoComplete} placeholder={'placeholder' in f ? f.placeholder : ''} className="mt-1 h-10 w-full rounded border border-gray-300 bg-gray-50 px-4 focus:bg-white focus:outline-2 focus:outline-indigo-600" />
                  </div>
                ))}
                <div className="mt-3 md:col-span-5">
                  <div className="inline-flex items-center gap-2">
                    <input id="terms" type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} className="size-4" />
                    <label htmlFor="terms">
                      I agree to the <a href="#terms" className="text-blue-700 underline">Terms &amp; Conditions</a> and <a href="#privacy" className="text-blue-700 underline">Shopping Policy</a>.
                    </label>
                  </div>
                </div>
                <div className="text-right md:col-span-5">
                  {unavailable > 0 && <p className="mb-2 text-red-800">Remove the unavailable items to place your order.</p>}
                  <OfflineNotice className="mb-2 text-left" />
                  <button disabled={!agreed || unavailable > 0 || !online} className="rounded bg-blue-700 px-4 py-2 font-bold text-white hover:bg-blue-800 disabled:cursor-not-allowed disabled:bg-gray-400">
                    Place an Order
                  </button>
                </div>
              </div>
            </div>
          </form>
        </div>
      </section>
    </>
  );
}
