// @vitest-environment happy-dom
import type { Quote } from '@bookstore/contract';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PromotionFields, type Promotions } from './promotion-fields';

// The code's line from the tap on Apply to the answer, and while a new address is priced (no answer
// then): it never blinks out and back, which would move the terms box and Place an Order below it.

const answer = { discount: 2.5, discountApplied: { code: 'SPRING20', label: '20% off' } } as Quote;
const field = (value: Promotions, quote: Quote | undefined) => <PromotionFields value={value} onChange={() => {}} quote={quote} />;
const status = () => screen.getByTestId('discount-code-status').textContent;

afterEach(cleanup);

describe('PromotionFields', () => {
  it('says it is checking a new code, keeps the answer while a new address is priced, and drops it for another code', () => {
    const { rerender } = render(field({ discountCode: 'SPRING20' }, undefined));
    expect(status()).toBe('Checking the code...');
    rerender(field({ discountCode: 'SPRING20' }, answer));
    expect(status()).toBe('SPRING20: 20% off ($2.50 off your books) Remove');
    rerender(field({ discountCode: 'SPRING20' }, undefined)); // a new address being priced
    expect(status()).toBe('SPRING20: 20% off ($2.50 off your books) Remove');
    rerender(field({ discountCode: 'AUTUMN5' }, undefined));
    expect(status()).toBe('Checking the code...');
    rerender(field({}, undefined));
    expect(status()).toBe('');
  });
});
