// How an order is priced: the books, the delivery method's price and the tax (issue 27). ONE pure
// function, `priceOrder`, answers both the checkout's quote (POST /api/checkout/quote) and the order
// transaction (POST /api/orders), so the total a shopper is shown is the total they are charged.
// Money in integer cents throughout. Zod-free: the storefront's cart reads these types and labels.
// Places are codes (contract/src/places.ts): a country's ISO 3166-1 alpha-2, a region's ISO 3166-2.

import { countryName, hasPostcodes, postcodeKey, postcodeWord } from './places';

export const DELIVERY_METHODS = ['pickup', 'local', 'post'] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

export const DELIVERY_LABELS: Record<DeliveryMethod, string> = {
  pickup: 'Pickup in the shop',
  local: 'Local delivery',
  post: 'Post',
};

/** A place a rule applies to: a country code, optionally one region (state) code of it. `*` is anywhere. */
export interface Place {
  country: string;
  region?: string;
}

/** Parcels up to `upToGrams` (inclusive) cost `priceCents`. */
export interface PostRate {
  upToGrams: number;
  priceCents: number;
}

export interface PostZone {
  name: string;
  places: Place[];
  /** Ascending by weight; a parcel heavier than the last band cannot be posted to this zone. */
  rates: PostRate[];
}

export interface RegionRate extends Place {
  rateBp: number;
}

export const TAX_MODES = ['included', 'added'] as const;
export type TaxMode = (typeof TAX_MODES)[number];

export interface TaxSettings {
  /** `included`: prices include the tax (VAT style), the receipt shows the part that is tax. `added`: tax is added on top. */
  mode: TaxMode;
  /** What the receipt calls it ('VAT', 'Sales tax'). */
  label: string;
  /** Basis points (700 = 7%): the rate when included; when added, the rate for pickup and for places not listed. */
  rateBp: number;
  /** When added: rates by country or region (the most specific match wins). */
  regions: RegionRate[];
}

export interface FulfilmentSettings {
  pickup: { enabled: boolean; address: string; hours: string; holdDays: number };
  /** Cash on delivery by the shop's own courier, within `country` (a code; empty: any) and the listed zipcodes (empty: any; `101*` is a prefix). */
  local: { enabled: boolean; priceCents: number; country: string; zipcodes: string[] };
  post: { enabled: boolean; freeFromCents: number | null; zones: PostZone[] };
  /** The weight of a book without its own `weightGrams`. */
  defaultWeightGrams: number;
  tax: TaxSettings;
}

/** Where the books go, as codes and a checked postcode (the quote takes it; an order takes the same from its address). */
export interface DeliveryPlace {
  country?: string;
  region?: string;
  zipcode?: string;
}

export interface PricedBook {
  priceCents: number;
  weightGrams?: number | null;
}

/** One method as the checkout offers it for a place and a cart. */
export interface MethodOffer {
  method: DeliveryMethod;
  available: boolean;
  /** The method's price for this cart and place (cents), or null when unavailable. */
  shippingCents: number | null;
  /** Why it is not available (shown beside it). */
  reason?: string;
  /** Unavailable only for want of an address (country or zipcode not given yet). */
  needsAddress?: boolean;
  /** The postal zone that priced it. */
  zone?: string;
}

export interface Charges {
  subtotalCents: number;
  /** Taken off the books by a discount code (issue 40; contract/src/promotions.ts): before shipping and tax. */
  discountCents: number;
  /** The method's price as charged (tax included in it when prices include tax). */
  shippingCents: number;
  /** All the tax: included in the total or added to it. */
  taxCents: number;
  /** The part of `taxCents` that is on the shipping (so the counters can keep shipping apart from tax). */
  shippingTaxCents: number;
  totalCents: number;
  taxRateBp: number;
  taxIncluded: boolean;
  taxLabel: string;
  weightGrams: number;
  zone?: string;
}

/** Priced with `method` (the one asked for, or the default for the place), or why not (`method` absent: no default reaches it). */
export type Priced =
  | ({ ok: true; method: DeliveryMethod } & Charges)
  // The discount off the books is known before the address is: it does not depend on the method.
  | { ok: false; method?: DeliveryMethod; reason: string; subtotalCents: number; discountCents: number };

// --- Matching places ---------------------------------------------------------------------------

/** How well `place` matches a country and region (codes): 0 not at all, 1 anywhere (`*`), 2 the country, 3 the country and region. */
export function placeScore(place: Place, country: string | undefined, region: string | undefined): number {
  if (place.country === '*') return 1;
  if (!country || place.country !== country) return 0;
  if (!place.region) return 2;
  return region && place.region === region ? 3 : 0;
}

/** The best match among `items` (highest score; the first listed on a tie). */
function bestMatch<T>(items: readonly T[], placesOf: (item: T) => readonly Place[], country?: string, region?: string): T | undefined {
  let best: T | undefined;
  let bestScore = 0;
  for (const item of items) {
    const score = Math.max(0, ...placesOf(item).map((p) => placeScore(p, country, region)));
    if (score > bestScore) {
      best = item;
      bestScore = score;
    }
  }
  return best;
}

export function zoneFor(zones: readonly PostZone[], country?: string, region?: string): PostZone | undefined {
  return bestMatch(zones, (z) => z.places, country, region);
}

export const zipKey = postcodeKey;

/** `101*` matches 10115; `10115` only itself. An empty list matches every zipcode. */
export function zipMatches(patterns: readonly string[], zipcode: string | undefined): boolean {
  if (patterns.length === 0) return true;
  const zip = zipKey(zipcode);
  if (!zip) return false;
  return patterns.some((p) => (p.trim().endsWith('*') ? zip.startsWith(zipKey(p.trim().slice(0, -1))) : zip === zipKey(p)));
}

// --- Prices ------------------------------------------------------------------------------------

/** n / d rounded half up, in integers (n >= 0, d > 0). */
export function roundDiv(n: number, d: number): number {
  return Math.floor((2 * n + d) / (2 * d));
}

/** The tax in `amountCents`: the included part (amount x r / (1 + r)) or the added amount (amount x r). */
export function taxPart(amountCents: number, rateBp: number, included: boolean): number {
  return included ? roundDiv(amountCents * rateBp, 10_000 + rateBp) : roundDiv(amountCents * rateBp, 10_000);
}

export function taxRateFor(tax: TaxSettings, method: DeliveryMethod, place: DeliveryPlace): number {
  if (tax.mode === 'included' || method === 'pickup') return tax.rateBp;
  return bestMatch(tax.regions, (r) => [r], place.country, place.region)?.rateBp ?? tax.rateBp;
}

export function cartWeight(settings: Pick<FulfilmentSettings, 'defaultWeightGrams'>, books: readonly PricedBook[]): number {
  return books.reduce((sum, b) => sum + (b.weightGrams ?? settings.defaultWeightGrams), 0);
}

/** The subtotal from which post is free, when the shop posts and set one. */
export function freeShippingFromCents(settings: FulfilmentSettings): number | null {
  return settings.post.enabled ? settings.post.freeFromCents : null;
}

const unavailable = (method: DeliveryMethod, reason: string): MethodOffer => ({ method, available: false, shippingCents: null, reason });
const addressMissing = (method: DeliveryMethod, reason: string): MethodOffer => ({ ...unavailable(method, reason), needsAddress: true });

/** One method for this place and cart: available with its price, or why not. */
export function offerFor(settings: FulfilmentSettings, method: DeliveryMethod, place: DeliveryPlace, subtotalCents: number, weightGrams: number): MethodOffer {
  if (method === 'pickup') {
    return settings.pickup.enabled ? { method, available: true, shippingCents: 0 } : unavailable(method, 'The shop does not offer pickup');
  }
  if (method === 'local') {
    const local = settings.local;
    if (!local.enabled) return unavailable(method, 'The shop does not deliver locally');
    // A courier needs a country and, where the country has them, a postcode: a bare zipcode is no address.
    if (!place.country) return addressMissing(method, 'Choose your country');
    if (local.country && place.country !== local.country) return unavailable(method, `Local delivery is only within ${countryName(local.country)}`);
    if ((local.zipcodes.length > 0 || hasPostcodes(place.country)) && !postcodeKey(place.zipcode)) {
      return addressMissing(method, `Enter your ${postcodeWord(place.country)}`);
    }
    if (!zipMatches(local.zipcodes, place.zipcode)) return unavailable(method, `We do not deliver to this ${postcodeWord(place.country)}`);
    return { method, available: true, shippingCents: local.priceCents };
  }
  const post = settings.post;
  if (!post.enabled) return unavailable(method, 'The shop does not post orders');
  if (!place.country) return addressMissing(method, 'Choose your country');
  const zone = zoneFor(post.zones, place.country, place.region);
  if (!zone) return unavailable(method, `We do not post to ${countryName(place.country)}`);
  const rate = zone.rates.find((r) => weightGrams <= r.upToGrams);
  if (!rate) return { ...unavailable(method, `Too heavy to post to ${zone.name}`), zone: zone.name };
  const free = post.freeFromCents !== null && subtotalCents >= post.freeFromCents;
  return { method, available: true, shippingCents: free ? 0 : rate.priceCents, zone: zone.name };
}

export function offers(settings: FulfilmentSettings, place: DeliveryPlace, books: readonly PricedBook[]): MethodOffer[] {
  const subtotal = books.reduce((sum, b) => sum + b.priceCents, 0);
  const weight = cartWeight(settings, books);
  return DELIVERY_METHODS.map((m) => offerFor(settings, m, place, subtotal, weight));
}

/**
 * What an order or a quote without a method gets (issue 36): delivery to its address, the shop's
 * courier where it reaches, else the post. Never pickup, which the shopper must choose: an address
 * means the books should come to it. The checkout preselects the same.
 */
export const DEFAULT_METHODS: readonly DeliveryMethod[] = ['local', 'post'];

export function defaultOffer(settings: FulfilmentSettings, place: DeliveryPlace, subtotalCents: number, weightGrams: number): MethodOffer | undefined {
  return DEFAULT_METHODS.map((m) => offerFor(settings, m, place, subtotalCents, weightGrams)).find((o) => o.available);
}

/** Why no method reaches this place by default: what the address still lacks, else each enabled delivery method's reason. */
function noDefaultReason(settings: FulfilmentSettings, place: DeliveryPlace, subtotalCents: number, weightGrams: number): string {
  const tried = DEFAULT_METHODS.filter((m) => settings[m].enabled).map((m) => offerFor(settings, m, place, subtotalCents, weightGrams));
  const missing = tried.find((o) => o.needsAddress);
  if (missing?.reason) return missing.reason;
  const reasons = [...new Set(tried.map((o) => o.reason).filter(Boolean))];
  const pickup = settings.pickup.enabled ? 'choose pickup in the shop' : '';
  if (reasons.length === 0) return `The shop does not deliver${pickup ? `: ${pickup}` : ''}`;
  return `${reasons.join('; ')}${pickup ? `: ${pickup}` : ''}`;
}

/**
 * THE price of an order: the books, the method's price for the place, and the tax, or why the method
 * cannot be used there. Without a method (an order from a client that sends none): the default for
 * the place (`defaultOffer`), priced the same way and named in the result.
 */
export function priceOrder(settings: FulfilmentSettings, books: readonly PricedBook[], method: DeliveryMethod | undefined, place: DeliveryPlace, discountCents = 0): Priced {
  const subtotalCents = books.reduce((sum, b) => sum + b.priceCents, 0);
  // Issue 40: the discount comes off the books (never below 0); shipping is priced on the books before it.
  const discount = Math.max(0, Math.min(discountCents, subtotalCents));
  const weightGrams = cartWeight(settings, books);
  const offer = method ? offerFor(settings, method, place, subtotalCents, weightGrams) : defaultOffer(settings, place, subtotalCents, weightGrams);
  if (!offer) return { ok: false, reason: noDefaultReason(settings, place, subtotalCents, weightGrams), subtotalCents, discountCents: discount };
  if (!offer.available || offer.shippingCents === null) return { ok: false, method: offer.method, reason: offer.reason ?? 'Not available', subtotalCents, discountCents: discount };
  const shippingCents = offer.shippingCents;
  const taxRateBp = taxRateFor(settings.tax, offer.method, place);
  const taxIncluded = settings.tax.mode === 'included';
  const shippingTaxCents = taxPart(shippingCents, taxRateBp, taxIncluded);
  const taxCents = taxPart(subtotalCents - discount, taxRateBp, taxIncluded) + shippingTaxCents;
  const totalCents = subtotalCents - discount + shippingCents + (taxIncluded ? 0 : taxCents);
  return {
    ok: true, method: offer.method, subtotalCents, discountCents: discount, shippingCents, taxCents, shippingTaxCents, totalCents, taxRateBp, taxIncluded,
    taxLabel: settings.tax.label, weightGrams, ...(offer.zone ? { zone: offer.zone } : {}),
  };
}

/** The countries the shop delivers to, as its settings name them (local first, then each zone's), and whether `*` or an any-country courier reaches every other. */
export function shopCountries(settings: FulfilmentSettings): { countries: string[]; everyCountry: boolean } {
  const named: string[] = [];
  let everyCountry = false;
  if (settings.local.enabled) {
    if (settings.local.country) named.push(settings.local.country);
    else everyCountry = true;
  }
  if (settings.post.enabled) {
    for (const place of settings.post.zones.flatMap((z) => z.places)) {
      if (place.country === '*') everyCountry = true;
      else named.push(place.country);
    }
  }
  return { countries: [...new Set(named)], everyCountry };
}

/** '7%' or '8.25%' from basis points. */
export function ratePercentLabel(rateBp: number): string {
  return `${Number((rateBp / 100).toFixed(2))}%`;
}
