import { FulfilmentSettingsSchema, type FulfilmentSettings } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import { fromDraft, placeOf, placesReadOut, toDraft } from './settings-draft';

describe('the Settings page names places by code', () => {
  it("reads 'US', 'us-ca', 'US / CA' and '*', and passes anything else on for the schema to refuse", () => {
    expect(placeOf('US')).toEqual({ country: 'US' });
    expect(placeOf('us-ca')).toEqual({ country: 'US', region: 'CA' });
    expect(placeOf('US / CA')).toEqual({ country: 'US', region: 'CA' });
    expect(placeOf('*')).toEqual({ country: '*' });
    expect(placeOf('United States')).toEqual({ country: 'United States' });
  });

  it('shows what the codes mean', () => {
    expect(placesReadOut('US\nUS-CA\n*')).toBe('United States; California (United States); everywhere else');
    expect(placesReadOut('US-CA, 8.25')).toBe('California (United States)');
  });

  it('round-trips settings with regions, * and regional tax rates through the form', () => {
    const settings: FulfilmentSettings = {
      pickup: { enabled: true, address: 'Shop', hours: '9-5', holdDays: 7 },
      local: { enabled: true, priceCents: 0, country: 'US', zipcodes: ['627*'] },
      post: {
        enabled: true, freeFromCents: 5000,
        zones: [
          { name: 'West', places: [{ country: 'US', region: 'CA' }, { country: 'US', region: 'OR' }], rates: [{ upToGrams: 1000, priceCents: 599 }] },
          { name: 'North', places: [{ country: 'CA' }, { country: 'MX' }], rates: [{ upToGrams: 1000, priceCents: 1299 }] },
          { name: 'World', places: [{ country: '*' }], rates: [{ upToGrams: 1000, priceCents: 1999 }] },
        ],
      },
      defaultWeightGrams: 400,
      tax: { mode: 'added', label: 'Sales tax', rateBp: 500, regions: [{ country: 'US', region: 'CA', rateBp: 825 }, { country: 'CA', rateBp: 1300 }] },
    };
    expect(FulfilmentSettingsSchema.parse(fromDraft(toDraft(settings)))).toEqual(settings);
  });
});
