import { formatDollars, moneyLabel } from '@bookstore/contract';
import { useRef, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { SessionUser } from '../../lib/auth/auth-context';
import { ApiError } from '../../lib/api-client';
import { alertBox, confirmBox } from '../../lib/notify';
import type { CartItem } from '../../features/cart/cart-rules';
import { cart } from '../../features/cart/cart-store';
import { newIdempotencyKey, unavailableFromError, usePlaceOrder } from '../../features/checkout/create-order';
import { acceptedPromotions } from '../../features/checkout/promotion-fields';
import type { CheckoutQuote } from '../../features/checkout/use-checkout-quote';

/**
 * Placing the order: the form's fields and the quote's method, promotions and amount due, under one
 * idempotency key until an order is placed; then the payment page, or the confirmation and /orders.
 */
export function useSubmitOrder(user: Pick<SessionUser, 'email'> | null, items: CartItem[], checkout: CheckoutQuote) {
  const navigate = useNavigate();
  const place = usePlaceOrder();
  const key = useRef(newIdempotencyKey());
  const { priced, due, pickup, promotions, payBy } = checkout;

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
  // From the click until the page moves on: the request, a price-change question, the receipt.
  const loading = place.isPending || (place.isSuccess && place.data !== null);
  return { submit, loading };
}
