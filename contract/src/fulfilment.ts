import { z } from 'zod';
import { BookIdSchema } from './book';
import { MAX_PRICE_CENTS } from './money';
import { canonicalPostcode, COUNTRY_MESSAGE, isCountryCode, isRegionOf, placeProblems, regionsOf, type PlaceFields } from './places';
import { DELIVERY_METHODS, TAX_MODES, type DeliveryMethod, type FulfilmentSettings } from './pricing';
import { optionalText, text } from './text';

// The shop's fulfilment settings (pickup, local delivery, post, tax), part of settings/shop, and the
// checkout's quote. Issue 27; the pricing itself is contract/src/pricing.ts.

export const MAX_ORDER_BOOKS_FOR_QUOTE = 50;
export const MAX_WEIGHT_GRAMS = 100_000;
export const MAX_HOLD_DAYS = 60;
/** 50%: no shop taxes books at more; a larger number is a typing mistake (5000 for 50%?). */
export const MAX_TAX_RATE_BP = 5_000;

const cents = (label: string) =>
  z.number({ error: `${label} must be a whole number of cents` }).int(`${label} must be a whole number of cents`).min(0, `${label} cannot be negative`).max(MAX_PRICE_CENTS, `${label} must be at most ${MAX_PRICE_CENTS} cents`);
const grams = (label: string) =>
  z.number({ error: `${label} must be a whole number of grams` }).int(`${label} must be a whole number of grams`).min(1, `${label} must be at least 1 gram`).max(MAX_WEIGHT_GRAMS, `${label} must be at most ${MAX_WEIGHT_GRAMS} grams`);
const rateBp = z.number({ error: 'A tax rate must be a whole number of basis points' }).int('A tax rate must be a whole number of basis points').min(0, 'A tax rate cannot be negative').max(MAX_TAX_RATE_BP, `A tax rate must be at most ${MAX_TAX_RATE_BP} basis points (50%)`);

const SETTINGS_COUNTRY_MESSAGE = 'Choose countries from the list: a two-letter ISO 3166-1 code such as US, or * for everywhere else';

const placeShape = {
  country: z.string({ error: SETTINGS_COUNTRY_MESSAGE }).trim().refine((c) => c === '*' || isCountryCode(c), SETTINGS_COUNTRY_MESSAGE),
  region: optionalText('Region', 100),
};

function checkSettingsRegion(place: { country: string; region?: string }, ctx: z.RefinementCtx) {
  if (!place.region) return;
  if (place.country === '*') ctx.addIssue({ code: 'custom', path: ['region'], message: '* is every country: it has no region' });
  else if (isCountryCode(place.country) && !isRegionOf(place.country, place.region)) {
    const listed = regionsOf(place.country);
    const message = listed.length > 0
      ? `Region ${place.region} is not one of ${place.country}'s: use its code, such as ${listed[0]!.code}`
      : `${place.country} has no list of regions: name the country alone`;
    ctx.addIssue({ code: 'custom', path: ['region'], message });
  }
}

/** A place in the settings: a country code (or `*`) and, for a country with a list of regions, optionally one of them. */
export const PlaceSchema = z.object(placeShape).strip().superRefine(checkSettingsRegion);
const RegionRateSchema = z.object({ ...placeShape, rateBp }).strip().superRefine(checkSettingsRegion);

const PostRateSchema = z.object({ upToGrams: grams('A weight band'), priceCents: cents('A postage price') }).strip();

export const PostZoneSchema = z
  .object({
    name: text('Zone name', 60),
    places: z.array(PlaceSchema).min(1, 'A zone needs at least one country').max(200, 'A zone lists at most 200 places'),
    rates: z
      .array(PostRateSchema)
      .min(1, 'A zone needs at least one weight band')
      .max(20, 'A zone has at most 20 weight bands')
      .refine((rates) => rates.every((r, i) => i === 0 || r.upToGrams > rates[i - 1]!.upToGrams), 'Weight bands must go up'),
  })
  .strip();

export const FulfilmentSettingsSchema = z
  .object({
    pickup: z
      .object({
        enabled: z.boolean({ error: 'pickup.enabled must be true or false' }),
        address: text('Pickup address', 300, { multiline: true }),
        hours: text('Opening hours', 300, { multiline: true }),
        holdDays: z.number({ error: 'Hold days must be a whole number' }).int('Hold days must be a whole number').min(1, 'Hold days must be at least 1').max(MAX_HOLD_DAYS, `Hold days must be at most ${MAX_HOLD_DAYS}`),
      })
      .strip(),
    local: z
      .object({
        enabled: z.boolean({ error: 'local.enabled must be true or false' }),
        priceCents: cents('The local delivery price'),
        // A code, or empty for any country.
        country: z.string({ error: 'Country must be text' }).trim().refine((c) => c === '' || isCountryCode(c), `Local delivery: ${COUNTRY_MESSAGE}, or leave it empty for any country`).default(''),
        zipcodes: z.array(text('A zipcode', 20).refine((v) => /^[A-Za-z0-9 -]+\*?$/.test(v), 'A zipcode is letters, digits, spaces or dashes, with an optional * at the end')).max(500, 'At most 500 zipcodes'),
      })
      .strip(),
    post: z
      .object({
        enabled: z.boolean({ error: 'post.enabled must be true or false' }),
        freeFromCents: cents('Free shipping from').nullable(),
        zones: z.array(PostZoneSchema).max(30, 'At most 30 zones'),
      })
      .strip(),
    defaultWeightGrams: grams('The default weight'),
    tax: z
      .object({
        mode: z.enum(TAX_MODES, { error: 'Tax mode must be included or added' }),
        label: text('Tax name', 30),
        rateBp,
        regions: z.array(RegionRateSchema).max(200, 'At most 200 regional rates'),
      })
      .strip(),
  })
  .strip()
  .refine((s) => s.pickup.enabled || s.local.enabled || s.post.enabled, { message: 'Offer at least one way to get the books', path: ['pickup', 'enabled'] })
  .refine((s) => !s.post.enabled || s.post.zones.length > 0, { message: 'Post needs at least one zone', path: ['post', 'zones'] });
export type FulfilmentSettingsInput = z.input<typeof FulfilmentSettingsSchema>;

/**
 * A shop that never saved its fulfilment settings keeps what it did before issue 27: cash on
 * delivery to any address, nothing added. The demo data seeds a full set (scripts/lib/seed.ts).
 */
export const DEFAULT_FULFILMENT: FulfilmentSettings = {
  pickup: { enabled: false, address: 'The shop', hours: 'Opening hours', holdDays: 7 },
  local: { enabled: true, priceCents: 0, country: '', zipcodes: [] },
  post: { enabled: false, freeFromCents: null, zones: [] },
  defaultWeightGrams: 400,
  tax: { mode: 'included', label: 'Tax', rateBp: 0, regions: [] },
};

// --- The quote -----------------------------------------------------------------------------------

export const DeliveryMethodSchema = z.enum(DELIVERY_METHODS, { error: `Delivery method must be one of ${DELIVERY_METHODS.join(', ')}` });

// Where the books go, as codes (issue 36): a country from the list, a region from its list where it
// has one, a postcode in its country's format. Anything else is 400 with a message per field.
const placeFields = {
  country: optionalText('Country', 100),
  region: optionalText('Region', 100),
  zipcode: optionalText('Zipcode', 20),
};

function checkPlace(place: { country?: string; region?: string; zipcode?: string }, ctx: z.RefinementCtx) {
  const problems = placeProblems({ country: place.country, region: place.region, postcode: place.zipcode }, { complete: false, freeRegion: false });
  const field: Record<keyof PlaceFields, string> = { country: 'country', region: 'region', postcode: 'zipcode' };
  for (const [key, message] of Object.entries(problems)) ctx.addIssue({ code: 'custom', path: [field[key as keyof PlaceFields]], message });
}

const canonical = <T extends { zipcode?: string }>(place: T): T => (place.zipcode ? { ...place, zipcode: canonicalPostcode(place.zipcode) } : place);

/** An order's `delivery`: the method and, optionally, its place (which must be the address's). */
export const DeliveryRequestSchema = z.object({ method: DeliveryMethodSchema, ...placeFields }).strip().superRefine(checkPlace).transform(canonical);
export type DeliveryRequest = z.input<typeof DeliveryRequestSchema>;

/** The quote's `delivery`: without a method, the default for the place (pricing.ts defaultOffer), as an order without one. */
export const QuoteDeliverySchema = z.object({ method: DeliveryMethodSchema.optional(), ...placeFields }).strip().superRefine(checkPlace).transform(canonical);

// POST /api/checkout/quote
export const QuoteRequestSchema = z
  .object({
    productIDs: z
      .array(BookIdSchema, { error: 'productIDs must be a list of book ids' })
      .min(1, 'Choose at least one book')
      .max(MAX_ORDER_BOOKS_FOR_QUOTE, `An order holds at most ${MAX_ORDER_BOOKS_FOR_QUOTE} books`)
      .refine((ids) => new Set(ids).size === ids.length, 'Repeated book ids'),
    delivery: QuoteDeliverySchema,
    /** Issue 40: priced with this discount code when it applies (else `discountProblem`, one answer for every reason: issue 55). */
    // As typed: a code that cannot be one is answered in the quote (`discountProblem`, `giftCard.problem`), not as a 400.
    discountCode: z.string({ error: 'discountCode must be text' }).trim().max(64, 'discountCode is at most 64 characters').transform((v) => v.toUpperCase()).optional(),
    /** Issue 40: what this gift card would pay (its balance now, at most the total) and what remains `due`. */
    giftCardCode: z.string({ error: 'giftCardCode must be text' }).trim().max(40, 'giftCardCode is at most 40 characters').optional(),
  })
  .strip();
export type QuoteRequest = z.input<typeof QuoteRequestSchema>;

/** One method as the checkout offers it (dollars). */
export interface MethodQuote {
  method: DeliveryMethod;
  label: string;
  available: boolean;
  /** The method's price for this cart and place, null when unavailable. */
  price: number | null;
  reason?: string;
  /** Unavailable only until an address is given. */
  needsAddress?: boolean;
  zone?: string;
}

/** The shop's pickup details, for the checkout and the receipts. */
export interface PickupInfo {
  address: string;
  hours: string;
  holdDays: number;
}

/** 200 answer of POST /api/checkout/quote (dollars, like every amount on the wire). */
export interface Quote {
  /** The method asked for, or without one the default for this place; null when no delivery reaches it (then `reason`). */
  method: DeliveryMethod | null;
  /** Whether the method can be used for this place; when false, `reason` says why and the money fields are null. */
  available: boolean;
  reason?: string;
  subtotal: number;
  shipping: number | null;
  tax: number | null;
  total: number | null;
  /**
   * Tax included in the prices (VAT style) or added; its name and rate (percent) as the receipt shows
   * them: the rate for the method and place (before a method, the post's for the place), and whether
   * the shop charges tax anywhere (the checkout's tax row stands from the start when it does).
   */
  taxIncluded: boolean;
  taxLabel: string;
  taxRate: number;
  taxed: boolean;
  weightGrams: number;
  zone?: string;
  /** The subtotal from which post is free, when the shop set one. */
  freeShippingFrom?: number;
  /** What is missing to reach it (absent once reached). */
  toFreeShipping?: number;
  /** The methods the shop offers, each for this place and cart (available or why not). */
  methods: MethodQuote[];
  pickup?: PickupInfo;
  /** Books of the cart that no longer exist: left out of this price (an order with them is refused). */
  unknownProductIDs?: string[];
  /** The countries the shop's settings name (codes, local first), for the checkout's list. */
  countries: string[];
  /** Whether every other country is reached too (a zone of `*`, or a courier for any country). */
  everyCountry: boolean;
  /** Issue 40: off the books (before shipping and tax) by the code asked for; 0 when none applies. */
  discount?: number;
  /** The code that applied, and what it does ('10% off'). */
  discountApplied?: { code: string; label: string };
  /** The code asked for does not apply (the price is then without it): always DISCOUNT_UNAVAILABLE, whatever the reason (issue 55). */
  discountProblem?: { code: string; reason: string; error: string };
  /** What the gift card asked for pays (min(balance, total)), its balance now; or why it cannot. */
  giftCard?: { amount: number; balance: number; last4: string } | { problem: string };
  /** What remains to pay after the gift card (the order's `totalPrice`); null when not priced. */
  due?: number | null;
  /** Issue 54: why the card cannot pay what is due (below Stripe's minimum): pay it in cash or with a gift card. */
  cardProblem?: string;
}

/** 422 of POST /api/orders: the chosen method cannot deliver to this address; nothing was stored. */
export interface DeliveryUnavailableResponse {
  message: string;
  code: 'DELIVERY_UNAVAILABLE';
}

// GET/PUT /api/admin/settings/fulfilment (owner and manager: 'settings.fulfilment')
export interface FulfilmentSettingsResponse {
  message?: string;
  settings: FulfilmentSettings;
}
