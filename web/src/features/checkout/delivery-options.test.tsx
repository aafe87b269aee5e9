// @vitest-environment happy-dom
import type { Quote } from '@bookstore/contract';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryOptions, QuoteSummary } from './delivery-options';

// The summary's rows as the server's quote has them, before and after the place is priced: the rows
// stand (so nothing below moves), and what they say is true at each step.

const methods: Quote['methods'] = [
  { method: 'local', label: 'Local delivery', available: false, price: null, needsAddress: true, reason: 'Enter your zipcode' },
  { method: 'post', label: 'Post', available: false, price: null, needsAddress: true, reason: 'Choose your country' },
];
const unpriced: Quote = {
  method: null, available: false, reason: 'Choose your country', subtotal: 30, shipping: null, tax: null, total: null,
  taxIncluded: false, taxLabel: 'Sales tax', taxRate: 0, taxed: true, weightGrams: 400, freeShippingFrom: 50, toFreeShipping: 20,
  methods, countries: ['US'], everyCountry: false,
};
const lines = () => [...screen.getByTestId('quote-summary').children].map((line) => `${line.children[0]!.textContent} ${line.children[1]!.textContent}`);

afterEach(cleanup);

describe('QuoteSummary', () => {
  it('a shop taxing by region names no rate before the place has one, then the place’s', () => {
    render(<QuoteSummary quote={unpriced} />);
    expect(lines()).toEqual(['Subtotal $30.00', 'Shipping -not priced yet', 'Sales tax -not priced yet', 'Free shipping Post is free from $50.00', 'Total -not priced yet']);
    cleanup();
    const post = { method: 'post' as const, label: 'Post', available: true, price: 5 };
    render(<QuoteSummary quote={{ ...unpriced, method: 'post', available: true, shipping: 5, tax: 2.19, total: 37.19, taxRate: 6.25, methods: [methods[0]!, post] }} />);
    expect(lines()).toEqual(['Subtotal $30.00', 'Post $5.00', 'Sales tax (6.25%) $2.19', 'Free shipping You are $20.00 from free shipping', 'Total $37.19']);
  });

  it('where the post cannot reach the address, the free-shipping line keeps its room unseen', () => {
    const noPost = { method: 'post' as const, label: 'Post', available: false, price: null, reason: 'We do not post to France' };
    render(<QuoteSummary quote={{ ...unpriced, reason: 'We do not post to France', methods: [methods[0]!, noPost] }} />);
    expect(screen.getByTestId('free-shipping').parentElement!.className).toContain('invisible');
    expect(lines()).toHaveLength(5);
  });
});

describe('the discount row before the address is priced', () => {
  it('says what the code takes off the books, which does not wait for the address', () => {
    render(<QuoteSummary quote={{ ...unpriced, discount: 3, discountApplied: { code: 'SPRING10', label: '10% off' } }} />);
    expect(lines()).toContain('Discount (SPRING10) -$3.00');
  });
});

describe('DeliveryOptions without an answer', () => {
  it('says it is finding the options while the first quote is asked, and nothing once it failed (the checkout says so)', () => {
    render(<DeliveryOptions quote={undefined} value={undefined} onChange={() => {}} />);
    expect(screen.getByText('Finding delivery options...')).toBeTruthy();
    cleanup();
    render(<DeliveryOptions quote={undefined} value={undefined} onChange={() => {}} failed />);
    expect(screen.queryByText('Finding delivery options...')).toBeNull();
  });
});
