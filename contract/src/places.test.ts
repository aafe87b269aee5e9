import { describe, expect, it } from 'vitest';
import { FulfilmentSettingsSchema, QuoteRequestSchema } from './fulfilment';
import { AddressInputSchema, addressPlace } from './order';
import { allCountries, canonicalPostcode, countryName, isPostcodeOf, placeProblems, regionName } from './places';
import { COUNTRY_ROWS } from './places-data';
import { legacyCountryCode, legacyRegionCode, upgradeFulfilment, usesCodes } from './places-legacy';
import type { FulfilmentSettings } from './pricing';

const strict = { complete: true, freeRegion: true };

describe('countries, regions and postcodes', () => {
  it('lists every ISO 3166-1 alpha-2 code once, by name, and each postcode example fits its own pattern', () => {
    const countries = allCountries();
    expect(countries).toHaveLength(249);
    expect(new Set(countries.map((c) => c.code)).size).toBe(249);
    expect(countries.every((c) => /^[A-Z]{2}$/.test(c.code) && c.name.length > 2 && c.name !== c.code)).toBe(true);
    expect(countries[0]!.name).toBe('Afghanistan');
    for (const [code, pattern, example] of COUNTRY_ROWS) {
      if (pattern) expect(isPostcodeOf(code, example!), `${code} ${example}`).toBe(true);
    }
  });

  it('reads codes as names, and anything stored before as it was typed', () => {
    expect(countryName('US')).toBe('United States');
    expect(countryName('FR')).toBe('France');
    expect(countryName('USA')).toBe('USA');
    expect(regionName('US', 'IL')).toBe('Illinois');
    expect(regionName('DE', 'Bavaria')).toBe('Bavaria');
  });

  it('checks postcodes by country, spaces, dashes and case aside', () => {
    expect(isPostcodeOf('US', '62701')).toBe(true);
    expect(isPostcodeOf('US', '62701-1234')).toBe(true);
    expect(isPostcodeOf('US', '6270')).toBe(false);
    expect(isPostcodeOf('CA', 'm5v 2t6')).toBe(true);
    expect(isPostcodeOf('CA', '62701')).toBe(false);
    expect(isPostcodeOf('GB', 'SW1A 1AA')).toBe(true);
    expect(isPostcodeOf('FR', '75001')).toBe(true);
    expect(isPostcodeOf('FR', '7500')).toBe(false);
    expect(isPostcodeOf('JP', '100-0001')).toBe(true);
    expect(canonicalPostcode(' m5v   2t6 ')).toBe('M5V 2T6');
  });

  it("says what to choose for each field of a place that is not one", () => {
    expect(placeProblems({ country: 'US', region: 'IL', postcode: '62701' }, strict)).toEqual({});
    expect(placeProblems({ country: 'U.S.A' }, strict).country).toMatch(/Choose a country from the list .*US/);
    expect(placeProblems({ country: 'Untied States' }, strict).country).toMatch(/Choose a country from the list/);
    expect(placeProblems({ country: 'us', region: 'IL', postcode: '62701' }, strict).country).toMatch(/Choose a country/);
    expect(placeProblems({ country: 'US', region: 'Ill.', postcode: '62701' }, strict)).toEqual({ region: 'Choose a state of United States from the list (its code, such as AL)' });
    expect(placeProblems({ country: 'US', postcode: '62701' }, strict)).toEqual({ region: 'Choose your state' });
    expect(placeProblems({ country: 'US', region: 'IL', postcode: 'ABCDE' }, strict)).toEqual({ postcode: 'Enter a United States zipcode, such as 62701' });
    expect(placeProblems({ country: 'FR', postcode: '75001' }, strict)).toEqual({});
    expect(placeProblems({ country: 'FR', region: 'Île-de-France', postcode: '75001' }, strict)).toEqual({});
    expect(placeProblems({ country: 'FR', region: 'Île-de-France' }, { complete: false, freeRegion: false })).toEqual({ region: 'France has no regions to choose from: leave the region out' });
    expect(placeProblems({ country: 'AE', postcode: '12345' }, strict)).toEqual({ postcode: 'United Arab Emirates has no postcodes: leave the postcode empty' });
    expect(placeProblems({ country: 'AE' }, strict)).toEqual({});
    expect(placeProblems({ postcode: '62701' }, { complete: false, freeRegion: false })).toEqual({ postcode: 'Choose the country first: a postcode is checked against its country' });
    expect(placeProblems({}, { complete: false, freeRegion: false })).toEqual({});
  });
});

describe('the wire: quotes, addresses and settings take codes', () => {
  const quote = (delivery: Record<string, unknown>) => QuoteRequestSchema.safeParse({ productIDs: ['b1'], delivery });
  const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) => r.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

  it("refuses 'U.S.A', 'Untied States' and a bare zipcode in a quote, naming the field and what to choose", () => {
    expect(messages(quote({ method: 'post', country: 'U.S.A' }))).toEqual([expect.stringMatching(/^delivery\.country: Choose a country from the list/)]);
    expect(messages(quote({ method: 'post', country: 'Untied States' }))).toEqual([expect.stringMatching(/^delivery\.country: Choose a country/)]);
    expect(messages(quote({ method: 'local', zipcode: '62701' }))).toEqual(['delivery.zipcode: Choose the country first: a postcode is checked against its country']);
    expect(quote({ country: 'US', region: 'IL', zipcode: '62701' }).success).toBe(true); // no method: the default for the place
    expect(quote({ method: 'post', country: 'CA', zipcode: 'm5v 2t6' }).data?.delivery.zipcode).toBe('M5V 2T6');
  });

  it('takes an address with codes, a free state where the country has no list, and a street', () => {
    const ok = { street: '1 Main St', city: 'Springfield', country: 'US', state: 'IL', zipcode: '62701' };
    expect(AddressInputSchema.parse(ok)).toEqual(ok);
    expect(AddressInputSchema.parse({ street: '5 Rue de Rivoli', city: 'Paris', country: 'FR', zipcode: '75001' })).toEqual({ street: '5 Rue de Rivoli', city: 'Paris', country: 'FR', state: '', zipcode: '75001' });
    expect(addressPlace({ street: 'x', city: 'Paris', country: 'FR', state: 'Île-de-France', zipcode: '75001' })).toEqual({ country: 'FR', zipcode: '75001' });
    expect(addressPlace(ok)).toEqual({ country: 'US', region: 'IL', zipcode: '62701' });
    const fails = (over: Record<string, string>) => AddressInputSchema.safeParse({ ...ok, ...over }).error?.issues.map((i) => i.path.join('.'));
    expect(fails({ country: 'USA' })).toEqual(['country']);
    expect(fails({ state: 'Illinois' })).toEqual(['state']);
    expect(fails({ zipcode: '627' })).toEqual(['zipcode']);
    expect(fails({ street: '62701' })).toEqual(['street']); // a bare zipcode is no street
  });

  it('settings name countries and regions by code, or * for everywhere else', () => {
    const place = (p: Record<string, string>) => FulfilmentSettingsSchema.safeParse({
      pickup: { enabled: false, address: 'a', hours: 'h', holdDays: 1 }, local: { enabled: false, priceCents: 0, country: '', zipcodes: [] },
      post: { enabled: true, freeFromCents: null, zones: [{ name: 'Z', places: [p], rates: [{ upToGrams: 1, priceCents: 1 }] }] },
      defaultWeightGrams: 1, tax: { mode: 'included', label: 'T', rateBp: 0, regions: [] },
    }).success;
    expect(place({ country: 'US' })).toBe(true);
    expect(place({ country: 'US', region: 'CA' })).toBe(true);
    expect(place({ country: '*' })).toBe(true);
    expect(place({ country: 'USA' })).toBe(false);
    expect(place({ country: 'US', region: 'California' })).toBe(false);
    expect(place({ country: 'DE', region: 'Bavaria' })).toBe(false);
  });
});

describe('settings and orders from before codes', () => {
  it('reads what people typed as codes, and leaves what it cannot read', () => {
    for (const typed of ['USA', 'U.S.A.', 'u.s.a', 'United States', 'united states of america', 'US', 'us']) expect(legacyCountryCode(typed), typed).toBe('US');
    expect(legacyCountryCode('Germany')).toBe('DE');
    expect(legacyCountryCode('Bosnia and Herzegovina')).toBe('BA');
    expect(legacyCountryCode('Côte d’Ivoire')).toBe('CI');
    expect(legacyCountryCode('Untied States')).toBeUndefined();
    expect(legacyRegionCode('US', 'california')).toBe('CA');
    expect(legacyRegionCode('US', 'ny')).toBe('NY');
  });

  it('upgrades stored settings to codes, failing closed: an unreadable place reaches no one', () => {
    const old = {
      pickup: { enabled: true, address: 'Shop', hours: '9-5', holdDays: 7 },
      local: { enabled: true, priceCents: 0, country: 'USA', zipcodes: ['627*'] },
      post: {
        enabled: true, freeFromCents: 5000,
        zones: [
          { name: 'United States', places: [{ country: 'USA' }, { country: 'United States' }, { country: 'US' }], rates: [{ upToGrams: 500, priceCents: 399 }] },
          { name: 'West', places: [{ country: 'usa', region: 'california' }], rates: [{ upToGrams: 500, priceCents: 499 }] },
          { name: 'Typos', places: [{ country: 'Untied States' }], rates: [{ upToGrams: 500, priceCents: 1 }] },
          { name: 'Rest', places: [{ country: '*' }], rates: [{ upToGrams: 500, priceCents: 1999 }] },
        ],
      },
      defaultWeightGrams: 400,
      tax: { mode: 'added', label: 'Tax', rateBp: 500, regions: [{ country: 'U.S.A.', region: 'NY', rateBp: 800 }] },
    };
    const { settings, changed, dropped } = upgradeFulfilment(old);
    const parsed = FulfilmentSettingsSchema.parse(settings) as FulfilmentSettings;
    expect(parsed.local.country).toBe('US');
    expect(parsed.post.zones.map((z) => [z.name, z.places])).toEqual([
      ['United States', [{ country: 'US' }]],
      ['West', [{ country: 'US', region: 'CA' }]],
      ['Rest', [{ country: '*' }]],
    ]);
    expect(parsed.tax.regions).toEqual([{ country: 'US', region: 'NY', rateBp: 800 }]);
    expect(dropped).toEqual(["zone Typos: country 'Untied States'", 'zone Typos: no place left']);
    expect(changed).toContain('local delivery: USA -> US');
    expect(usesCodes(parsed)).toBe(true);
    // Already codes: nothing to do.
    expect(upgradeFulfilment(parsed)).toMatchObject({ changed: [], dropped: [] });
    // A courier country that cannot be read turns local delivery off, never on for every country.
    const unreadable = upgradeFulfilment({ ...old, local: { ...old.local, country: 'Springfield county' } });
    expect((unreadable.settings as FulfilmentSettings).local).toMatchObject({ enabled: false, country: '' });
  });
});
