import { describe, expect, it } from 'vitest';
import { DEFAULT_FULFILMENT, type FulfilmentSettings } from '@bookstore/contract';
import { buildQuote } from './quote';

// The quote's tax fields before the address is priced: the checkout shows its tax row from the start
// when the shop charges tax anywhere (`taxed`), so the row never drops in when the price lands.

const books = [{ priceCents: 1250 }];
/** The courier goes anywhere (the shop's settings before issue 27), with this tax. */
const withTax = (tax: FulfilmentSettings['tax']): FulfilmentSettings => ({ ...DEFAULT_FULFILMENT, tax });
const US_SALES_TAX = withTax({ mode: 'added', label: 'Sales tax', rateBp: 0, regions: [{ country: 'US', region: 'IL', rateBp: 625 }] });

describe('the quote’s tax before and after the address', () => {
  it('a shop taxing only in some regions is `taxed` from the start, and names the rate of the place once it has one', () => {
    const empty = buildQuote(US_SALES_TAX, books, undefined, {});
    expect(empty).toMatchObject({ method: null, available: false, tax: null, taxed: true, taxRate: 0 });
    const illinois = buildQuote(US_SALES_TAX, books, undefined, { country: 'US', region: 'IL', zipcode: '62701' });
    expect(illinois).toMatchObject({ available: true, taxed: true, taxRate: 6.25 });
    // A country and state without the zipcode: the courier needs one, so no method yet, but the place's rate.
    expect(buildQuote(US_SALES_TAX, books, undefined, { country: 'US', region: 'IL' })).toMatchObject({ method: null, available: false, taxRate: 6.25 });
    const oregon = buildQuote(US_SALES_TAX, books, undefined, { country: 'US', region: 'OR', zipcode: '97201' });
    expect(oregon).toMatchObject({ available: true, taxed: true, taxRate: 0, tax: 0 });
  });

  it('a shop that charges no tax anywhere is not `taxed`; one with tax included names its rate before any place', () => {
    expect(buildQuote(withTax({ mode: 'included', label: 'Tax', rateBp: 0, regions: [] }), books, undefined, {})).toMatchObject({ taxed: false, taxRate: 0 });
    // Regional rates count only for tax added: tax included is the one rate everywhere.
    expect(buildQuote(withTax({ mode: 'included', label: 'Tax', rateBp: 0, regions: [{ country: 'US', region: 'IL', rateBp: 625 }] }), books, undefined, { country: 'US', region: 'IL', zipcode: '62701' })).toMatchObject({ available: true, taxed: false, taxRate: 0 });
    expect(buildQuote(withTax({ mode: 'included', label: 'Sales tax', rateBp: 625, regions: [] }), books, undefined, {})).toMatchObject({ method: null, taxed: true, taxRate: 6.25 });
  });
});

describe('the quote’s discount before the address', () => {
  it('what a code takes off the books is in the quote before a method is priced, and the same once it is', () => {
    const before = buildQuote(DEFAULT_FULFILMENT, books, undefined, {}, 300);
    expect(before).toMatchObject({ available: false, total: null, discount: 3 });
    const after = buildQuote(DEFAULT_FULFILMENT, books, undefined, { country: 'US', zipcode: '62701' }, 300);
    expect(after).toMatchObject({ available: true, discount: 3, total: 9.5 });
    // Never more than the books: the cap is priceOrder's, priced or not.
    expect(buildQuote(DEFAULT_FULFILMENT, books, undefined, {}, 5000)).toMatchObject({ discount: 12.5 });
    expect(buildQuote(DEFAULT_FULFILMENT, books, undefined, {})).not.toHaveProperty('discount');
  });
});
