import { describe, expect, it } from 'vitest';
import { AddressInputSchema } from './order';
import { placeProblems, regionsOf } from './places';
import { zipBelongsTo, zipPrefixRegions } from './us-zip-prefixes';

describe('US zipcodes belong to their state (issue 55)', () => {
  it('names every US region of the list, and no other', () => {
    expect(zipPrefixRegions().sort()).toEqual(regionsOf('US').map((r) => r.code).sort());
  });

  it('knows a zipcode of each kind of entry: a range, a single prefix, a five-digit exception, ZIP+4', () => {
    expect(zipBelongsTo('OR', '97201')).toBe(true);
    expect(zipBelongsTo('OR', '90210')).toBe(false);
    expect(zipBelongsTo('CA', '90210')).toBe(true);
    expect(zipBelongsTo('IL', '62701-1234')).toBe(true);
    expect(zipBelongsTo('TX', '88510')).toBe(true); // El Paso: 885, apart from Texas's 750-799
    expect(zipBelongsTo('NM', '88510')).toBe(false);
    expect(zipBelongsTo('NY', '06390')).toBe(true); // Fishers Island, NY, in Connecticut's 063
    expect(zipBelongsTo('NY', '06391')).toBe(false);
    expect(zipBelongsTo('CT', '06390')).toBe(true);
    expect(zipBelongsTo('MA', '01001')).toBe(true);
    expect(zipBelongsTo('AK', '99501')).toBe(true);
    expect(zipBelongsTo('HI', '99501')).toBe(false);
    expect(zipBelongsTo('PR', '00901')).toBe(true);
  });

  it('an address of Beverly Hills with the state OR is refused on its zipcode, naming both; Portland, OR passes', () => {
    expect(placeProblems({ country: 'US', region: 'OR', postcode: '90210' }, { complete: true, freeRegion: true })).toEqual({
      postcode: '90210 is not a zipcode in Oregon: check the zipcode and the state',
    });
    const address = { street: '1 Main St', city: 'Portland', country: 'US', state: 'OR', zipcode: '90210' };
    const refused = AddressInputSchema.safeParse(address);
    expect(refused.success).toBe(false);
    expect(refused.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['zipcode', '90210 is not a zipcode in Oregon: check the zipcode and the state']]);
    expect(AddressInputSchema.safeParse({ ...address, zipcode: '97201' }).success).toBe(true);
  });
});
