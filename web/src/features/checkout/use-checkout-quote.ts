import { DELIVERY_LABELS, type DeliveryMethod, type PaymentMethod } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { EMPTY_ADDRESS, quotePlaceOf, type AddressDraft } from './address-draft';
import { quoteQuery } from './get-quote';
import { paymentMethodsQuery } from './payment-options';
import type { Promotions } from './promotion-fields';

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

/**
 * The checkout's pricing state: the address and delivery method the shopper chose, the promotions
 * applied, the server's quote for exactly those, and what it leaves to pay and how. Every amount
 * shown comes from the server's quote; the order is priced again on the server.
 */
export function useCheckoutQuote(productIds: string[]) {
  // How the books come (issue 27): the shopper's choice, else what the server prices by default for
  // the address (issue 36: the courier where it reaches, else the post; nothing before a country is chosen).
  const [chosen, setChosen] = useState<DeliveryMethod | undefined>();
  const [address, setAddress] = useState<AddressDraft>(EMPTY_ADDRESS);
  const quotePlace = quotePlaceOf(address);
  const settledPlace = useSettled(quotePlace, 300);
  // Issue 40: a discount code and a gift card, applied with 'Apply' (priced by the server's quote).
  const [promotions, setPromotions] = useState<Promotions>({});
  const quote = useQuery(quoteQuery(productIds, chosen, settledPlace, promotions));
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
  return {
    address, setAddress, quote, current, stale, gaveWay, choose, method, offer, priced, due,
    pickup: method === 'pickup', covered, promotions, setPromotions, methods, payBy, setPaying,
  };
}

export type CheckoutQuote = ReturnType<typeof useCheckoutQuote>;
