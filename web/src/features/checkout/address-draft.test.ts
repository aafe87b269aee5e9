import { describe, expect, it } from 'vitest';
import { addressProblems, countryChoices, draftFromOrder, EMPTY_ADDRESS, quotePlaceOf } from './address-draft';

describe("the checkout's address", () => {
  it('asks the quote only with the parts that are already right', () => {
    expect(quotePlaceOf(EMPTY_ADDRESS)).toEqual({});
    expect(quotePlaceOf({ ...EMPTY_ADDRESS, zipcode: '62701' })).toEqual({}); // a bare zipcode is no place
    expect(quotePlaceOf({ ...EMPTY_ADDRESS, country: 'US', state: 'IL', zipcode: '627' })).toEqual({ country: 'US', region: 'IL' });
    expect(quotePlaceOf({ ...EMPTY_ADDRESS, country: 'US', state: 'IL', zipcode: ' 62701 ' })).toEqual({ country: 'US', region: 'IL', zipcode: '62701' });
    expect(quotePlaceOf({ ...EMPTY_ADDRESS, country: 'FR', state: 'Île-de-France', zipcode: '75001' })).toEqual({ country: 'FR', zipcode: '75001' });
  });

  it("names each field's problem in the server's words", () => {
    expect(addressProblems({ street: '62701', city: 'x', country: 'US', state: 'IL', zipcode: 'ABCDE' })).toEqual({
      street: 'Enter your street address (the street and house number)', zipcode: 'Enter a United States zipcode, such as 62701',
    });
    expect(addressProblems({ street: '1 Main St', city: 'x', country: 'AE', state: '', zipcode: '' })).toEqual({});
    // A zipcode of another state (issue 55): named under the zipcode, and the quote is asked without it.
    const beverlyHillsInOregon = { street: '1 Main St', city: 'Portland', country: 'US', state: 'OR', zipcode: '90210' };
    expect(addressProblems(beverlyHillsInOregon)).toEqual({ zipcode: '90210 is not a zipcode in Oregon: check the zipcode and the state' });
    expect(quotePlaceOf(beverlyHillsInOregon)).toEqual({ country: 'US', region: 'OR' });
    expect(addressProblems({ ...beverlyHillsInOregon, zipcode: '97201' })).toEqual({});
  });

  it("offers the shop's countries first, and every other one only when the shop reaches it", () => {
    expect(countryChoices(['US', 'CA', 'MX'], false)).toEqual({ ours: [{ code: 'CA', name: 'Canada' }, { code: 'MX', name: 'Mexico' }, { code: 'US', name: 'United States' }], others: [] });
    const every = countryChoices(['US'], true);
    expect(every.others).toHaveLength(248);
    expect(every.others.some((c) => c.code === 'US')).toBe(false);
  });

  it("fills the form from an order placed before codes: 'USA' and 'Illinois' become US and IL, what cannot be read is left to choose", () => {
    expect(draftFromOrder({ street: '1 Main St', city: 'Springfield', country: 'USA', state: 'Illinois', zipcode: '62701' })).toEqual({ street: '1 Main St', city: 'Springfield', country: 'US', state: 'IL', zipcode: '62701' });
    expect(draftFromOrder({ street: '1 Main St', city: 'Springfield', country: 'Untied States', state: 'IL', zipcode: '62701' }).country).toBe('');
    expect(draftFromOrder({ street: '5 Rue de Rivoli', city: 'Paris', country: 'FR', state: 'Île-de-France', zipcode: '75001' }).state).toBe('Île-de-France');
  });
});
