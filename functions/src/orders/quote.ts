import {
  DELIVERY_LABELS, freeShippingFromCents, fromCents, offers, priceOrder, ratePercentLabel, shopCountries, taxRateFor,
  type DeliveryMethod, type DeliveryPlace, type FulfilmentSettings, type PricedBook, type Quote,
} from '@bookstore/contract';

// POST /api/checkout/quote's answer, from THE pricing function (contract/src/pricing.ts priceOrder)
// the order transaction uses too: what the checkout shows is what the order will be charged.
// Without a method it prices the default for the place, as an order without one (issue 36), so the
// checkout preselects what the address can have.

const dollarsOrNull = (cents: number | null) => (cents === null ? null : fromCents(cents));

export function buildQuote(settings: FulfilmentSettings, books: readonly PricedBook[], asked: DeliveryMethod | undefined, place: DeliveryPlace, discountCents = 0): Quote {
  const priced = priceOrder(settings, books, asked, place, discountCents);
  const method = priced.method ?? asked ?? null;
  const free = freeShippingFromCents(settings);
  const taxIncluded = settings.tax.mode === 'included';
  const base = {
    method,
    subtotal: fromCents(priced.subtotalCents),
    ...(priced.discountCents ? { discount: fromCents(priced.discountCents) } : {}),
    taxIncluded,
    taxLabel: settings.tax.label,
    // Regional rates apply only to tax added (taxRateFor): included tax is the one rate everywhere.
    taxed: settings.tax.rateBp > 0 || (!taxIncluded && settings.tax.regions.some((r) => r.rateBp > 0)),
    weightGrams: books.reduce((sum, b) => sum + (b.weightGrams ?? settings.defaultWeightGrams), 0),
    ...(free !== null ? { freeShippingFrom: fromCents(free), ...(priced.subtotalCents < free ? { toFreeShipping: fromCents(free - priced.subtotalCents) } : {}) } : {}),
    // The methods the shop offers (enabled in its settings), each for this place and cart.
    methods: offers(settings, place, books).filter((o) => settings[o.method].enabled).map((o) => ({
      method: o.method,
      label: DELIVERY_LABELS[o.method],
      available: o.available,
      price: dollarsOrNull(o.shippingCents),
      ...(o.reason ? { reason: o.reason } : {}),
      ...(o.needsAddress ? { needsAddress: true } : {}),
      ...(o.zone ? { zone: o.zone } : {}),
    })),
    ...(settings.pickup.enabled ? { pickup: { address: settings.pickup.address, hours: settings.pickup.hours, holdDays: settings.pickup.holdDays } } : {}),
    ...shopCountries(settings),
  };
  if (!priced.ok) {
    // Before the place names a method, the post's rate for it (its region's, else the shop's own).
    const taxRate = ratePercentNumber(taxRateFor(settings.tax, method ?? 'post', place));
    return { ...base, available: false, reason: priced.reason, shipping: null, tax: null, total: null, taxRate };
  }
  return {
    ...base,
    available: true,
    shipping: fromCents(priced.shippingCents),
    tax: fromCents(priced.taxCents),
    total: fromCents(priced.totalCents),
    taxRate: ratePercentNumber(priced.taxRateBp),
    ...(priced.zone ? { zone: priced.zone } : {}),
  };
}

/** 7 for 700 basis points, 8.25 for 825. */
const ratePercentNumber = (bp: number) => Number(ratePercentLabel(bp).slice(0, -1));
