import { DEFAULT_FULFILMENT } from '@bookstore/contract';
import type { DocumentSnapshot } from 'firebase-admin/firestore';
import { describe, expect, it } from 'vitest';
import { fulfilmentFrom } from './settings.repo';

const snap = (fulfilment: unknown) => ({ exists: true, data: () => ({ fulfilment }) }) as unknown as DocumentSnapshot;

// Settings saved before issue 36 name places as typed: read as codes, failing closed.
const typed = {
  pickup: { enabled: true, address: 'Shop', hours: '9-5', holdDays: 7 },
  local: { enabled: true, priceCents: 0, country: 'USA', zipcodes: ['627*'] },
  post: { enabled: true, freeFromCents: 5000, zones: [{ name: 'US', places: [{ country: 'United States' }, { country: 'U.S.A.' }], rates: [{ upToGrams: 500, priceCents: 399 }] }] },
  defaultWeightGrams: 400,
  tax: { mode: 'included', label: 'Sales tax', rateBp: 625, regions: [] },
};

describe('stored fulfilment settings', () => {
  it('reads settings typed before codes as codes', () => {
    const read = fulfilmentFrom(snap(typed));
    expect(read.local.country).toBe('US');
    expect(read.post.zones[0]!.places).toEqual([{ country: 'US' }]);
  });

  it('falls back to the defaults only for settings that do not parse even so', () => {
    expect(fulfilmentFrom(snap({ ...typed, defaultWeightGrams: -1 }))).toBe(DEFAULT_FULFILMENT);
    expect(fulfilmentFrom(undefined)).toBe(DEFAULT_FULFILMENT);
  });
});
