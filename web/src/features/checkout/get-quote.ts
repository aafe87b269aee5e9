import type { DeliveryMethod, Quote } from '@bookstore/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

/** Where the books go, as the quote takes it (issue 27): codes and a checked postcode (issue 36). */
export interface QuotePlace {
  country?: string;
  region?: string;
  zipcode?: string;
}

const clean = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

// POST /api/checkout/quote: the server prices the cart for a method and a place with the same function
// that prices the order, so the checkout's total is the order's. Without a method it answers the
// default for the place (and names it), which the checkout preselects. A read (no write): a query, keyed by
// what it prices; the previous answer stays on screen while the next one loads (no flicker as the
// shopper types an address).
export const quoteQuery = (productIDs: string[], method: DeliveryMethod | undefined, place: QuotePlace = {}, promotions: { discountCode?: string; giftCardCode?: string } = {}) => {
  const delivery = { method, country: clean(place.country), region: clean(place.region), zipcode: clean(place.zipcode) };
  // Issue 40: a discount code and a gift card, when applied, priced by the server with the cart.
  const promo = { ...(promotions.discountCode ? { discountCode: promotions.discountCode } : {}), ...(promotions.giftCardCode ? { giftCardCode: promotions.giftCardCode } : {}) };
  return queryOptions({
    queryKey: [...queryKeys.quotes, productIDs, delivery, promo] as const,
    queryFn: ({ signal }) => apiFetch<Quote>('/api/checkout/quote', { method: 'POST', body: { productIDs, delivery, ...promo }, signal }),
    enabled: productIDs.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: false,
  });
};
