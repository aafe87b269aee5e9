import { describe, expect, it } from 'vitest';
import { DEFAULT_FULFILMENT, FulfilmentSettingsSchema } from './fulfilment';
import { canTransition, nextStatuses, OrderInputSchema } from './order';
import { offerFor, priceOrder, roundDiv, shopCountries, taxPart, zipMatches, zoneFor, type FulfilmentSettings } from './pricing';

const settings: FulfilmentSettings = {
  pickup: { enabled: true, address: 'Shop', hours: '9-5', holdDays: 7 },
  local: { enabled: true, priceCents: 250, country: 'US', zipcodes: ['627*', '60601'] },
  post: {
    enabled: true,
    freeFromCents: 5000,
    zones: [
      { name: 'Illinois', places: [{ country: 'US', region: 'IL' }], rates: [{ upToGrams: 1000, priceCents: 300 }] },
      { name: 'US', places: [{ country: 'US' }], rates: [{ upToGrams: 1000, priceCents: 500 }, { upToGrams: 2000, priceCents: 800 }] },
      { name: 'World', places: [{ country: '*' }], rates: [{ upToGrams: 1000, priceCents: 2000 }] },
    ],
  },
  defaultWeightGrams: 400,
  tax: { mode: 'added', label: 'Sales tax', rateBp: 500, regions: [{ country: 'US', region: 'CA', rateBp: 825 }] },
};

describe('pricing', () => {
  it('rounds halves up, in integers', () => {
    expect(roundDiv(5, 10)).toBe(1);
    expect(roundDiv(4, 10)).toBe(0);
    expect(taxPart(1000, 700, true)).toBe(65); // 1000 x 7/107 = 65.42
    expect(taxPart(1000, 825, false)).toBe(83); // 82.5 -> 83
  });

  it('matches places by code, the most specific zone first, * last', () => {
    expect(zoneFor(settings.post.zones, 'US', 'IL')?.name).toBe('Illinois');
    expect(zoneFor(settings.post.zones, 'US', 'NY')?.name).toBe('US');
    expect(zoneFor(settings.post.zones, 'PE')?.name).toBe('World');
    // Typed spellings are no codes: they are refused before pricing (places.ts), and match nothing here.
    expect(zoneFor(settings.post.zones.slice(0, 2), 'usa', 'il')).toBeUndefined();
    expect(zipMatches(['627*'], '62701')).toBe(true);
    expect(zipMatches(['627*'], '6270')).toBe(true);
    expect(zipMatches(['60601'], '606 01')).toBe(true);
    expect(zipMatches(['60601'], '60602')).toBe(false);
    expect(zipMatches([], undefined)).toBe(true);
  });

  it('offers each method for a place, or says why not (and whether only the address is missing)', () => {
    expect(offerFor(settings, 'local', {}, 0, 400)).toMatchObject({ available: false, needsAddress: true, reason: 'Choose your country' });
    // A bare zipcode is no address: local delivery needs the country first.
    expect(offerFor(settings, 'local', { zipcode: '62701' }, 0, 400)).toMatchObject({ available: false, needsAddress: true, reason: 'Choose your country' });
    expect(offerFor(settings, 'local', { country: 'US' }, 0, 400)).toMatchObject({ available: false, needsAddress: true, reason: 'Enter your zipcode' });
    expect(offerFor(settings, 'local', { country: 'US', zipcode: '10001' }, 0, 400)).toMatchObject({ available: false, reason: 'We do not deliver to this zipcode' });
    expect(offerFor(settings, 'local', { country: 'CA', zipcode: 'K1A 0B1' }, 0, 400)).toMatchObject({ available: false, reason: 'Local delivery is only within United States' });
    expect(offerFor(settings, 'post', { country: 'PE' }, 0, 1001)).toMatchObject({ available: false, reason: 'Too heavy to post to World', zone: 'World' });
    expect(offerFor(settings, 'post', { country: 'US', region: 'NY' }, 4999, 1500)).toMatchObject({ available: true, shippingCents: 800 });
    expect(offerFor(settings, 'post', { country: 'US', region: 'NY' }, 5000, 1500)).toMatchObject({ available: true, shippingCents: 0 });
    const noWorld = { ...settings, post: { ...settings.post, zones: settings.post.zones.slice(0, 2) } };
    expect(offerFor(noWorld, 'post', { country: 'FR' }, 0, 400)).toMatchObject({ available: false, reason: 'We do not post to France' });
  });

  it('prices an order: books, shipping and tax (added by region, per part)', () => {
    const books = [{ priceCents: 1999 }, { priceCents: 1001, weightGrams: 700 }];
    expect(priceOrder(settings, books, 'post', { country: 'US', region: 'CA' })).toMatchObject({
      ok: true, method: 'post', subtotalCents: 3000, shippingCents: 800, taxRateBp: 825, taxCents: 248 + 66, totalCents: 3000 + 800 + 314, weightGrams: 1100, zone: 'US',
    });
    expect(priceOrder(settings, books, 'pickup', { country: 'US', region: 'CA' })).toMatchObject({ ok: true, shippingCents: 0, taxRateBp: 500, totalCents: 3150 });
    expect(priceOrder(settings, books, 'local', { country: 'US', zipcode: '99999' })).toMatchObject({ ok: false, reason: 'We do not deliver to this zipcode' });
    const included = { ...settings, tax: { ...settings.tax, mode: 'included' as const, rateBp: 700 } };
    expect(priceOrder(included, books, 'local', { country: 'US', zipcode: '62701' })).toMatchObject({ ok: true, totalCents: 3250, taxCents: 196 + 16, shippingTaxCents: 16 });
  });

  it('prices an order without a method as the default for its place: the courier where it reaches, else the post, never the books alone', () => {
    const books = [{ priceCents: 999 }];
    // The Paris order of issue 36: 9.99 by post to France, 19.99 postage, 5% added tax on both parts.
    expect(priceOrder(settings, books, undefined, { country: 'FR', zipcode: '75001' })).toMatchObject({
      ok: true, method: 'post', zone: 'World', subtotalCents: 999, shippingCents: 2000, taxCents: 50 + 100, totalCents: 999 + 2000 + 150,
    });
    expect(priceOrder(settings, books, undefined, { country: 'US', region: 'IL', zipcode: '62701' })).toMatchObject({ ok: true, method: 'local', shippingCents: 250 });
    expect(priceOrder(settings, books, undefined, { country: 'US', region: 'IL', zipcode: '60601' })).toMatchObject({ ok: true, method: 'local' });
    expect(priceOrder(settings, books, undefined, { country: 'US', region: 'IL', zipcode: '60602' })).toMatchObject({ ok: true, method: 'post', zone: 'Illinois', shippingCents: 300 });
    // Nothing reaches it: no price, and the reasons say what to choose instead.
    const courierOnly = { ...settings, post: { ...settings.post, enabled: false } };
    expect(priceOrder(courierOnly, books, undefined, { country: 'FR', zipcode: '75001' })).toEqual({
      ok: false, subtotalCents: 999, discountCents: 0, reason: 'Local delivery is only within United States: choose pickup in the shop',
    });
    expect(priceOrder(settings, books, undefined, {})).toMatchObject({ ok: false, reason: 'Choose your country' });
  });

  it('the default settings keep the old meaning: cash on delivery anywhere, nothing added', () => {
    expect(FulfilmentSettingsSchema.safeParse(DEFAULT_FULFILMENT).success).toBe(true);
    expect(priceOrder(DEFAULT_FULFILMENT, [{ priceCents: 1234 }], 'local', { country: 'NZ', zipcode: '6011' })).toMatchObject({ ok: true, totalCents: 1234, taxCents: 0 });
    expect(priceOrder(DEFAULT_FULFILMENT, [{ priceCents: 1234 }], undefined, { country: 'AE' })).toMatchObject({ ok: true, method: 'local', totalCents: 1234 });
  });

  it("lists the shop's countries, local first, and whether every other is reached", () => {
    expect(shopCountries(settings)).toEqual({ countries: ['US'], everyCountry: true });
    const named = { ...settings, post: { ...settings.post, zones: [...settings.post.zones.slice(0, 2), { name: 'North', places: [{ country: 'CA' }, { country: 'MX' }], rates: [{ upToGrams: 1000, priceCents: 1 }] }] } };
    expect(shopCountries(named)).toEqual({ countries: ['US', 'CA', 'MX'], everyCountry: false });
    expect(shopCountries(DEFAULT_FULFILMENT)).toEqual({ countries: [], everyCountry: true });
  });
});

describe('pickup orders', () => {
  it('follow their own lifecycle: confirmed, ready, collected; never shipped, delivered or refused', () => {
    expect(nextStatuses('confirmed', 'admin', 'pickup')).toEqual(['cancelled', 'ready_for_pickup']);
    expect(nextStatuses('ready_for_pickup', 'admin', 'pickup')).toEqual(['cancelled', 'collected']);
    expect(nextStatuses('ready_for_pickup', 'system', 'pickup')).toEqual(['cancelled']);
    expect(nextStatuses('collected', 'admin', 'pickup')).toEqual([]);
    for (const to of ['shipped', 'delivered', 'refused'] as const) for (const from of ['pending', 'confirmed', 'ready_for_pickup'] as const) expect(canTransition(from, to, 'admin', 'pickup')).toBe(false);
    for (const to of ['ready_for_pickup', 'collected'] as const) for (const from of ['pending', 'confirmed', 'shipped'] as const) expect(canTransition(from, to, 'admin')).toBe(false);
  });

  it('need no address; every other order does, and its delivery place must be the address', () => {
    const base = { name: 'Ann', email: 'ann@example.com', phone: '5551234567', productIDs: ['b1'], totalPrice: '12.50' };
    const address = { street: '1 Main St', city: 'Springfield', country: 'US', state: 'IL', zipcode: '62701' };
    expect(OrderInputSchema.safeParse({ ...base, delivery: { method: 'pickup' } }).success).toBe(true);
    expect(OrderInputSchema.safeParse({ ...base, delivery: { method: 'post' } }).success).toBe(false);
    expect(OrderInputSchema.safeParse(base).success).toBe(false);
    expect(OrderInputSchema.safeParse({ ...base, address, delivery: { method: 'post', country: 'US', zipcode: '627 01' } }).success).toBe(true);
    expect(OrderInputSchema.safeParse({ ...base, address, delivery: { method: 'post', country: 'CA' } }).success).toBe(false);
    expect(OrderInputSchema.safeParse({ ...base, address, delivery: { method: 'post', country: 'u.s.a.' } }).success).toBe(false);
  });
});
