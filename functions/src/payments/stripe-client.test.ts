import { describe, expect, it } from 'vitest';
import { assertStripeConfig, cardConfig, cardPaymentsOn } from './stripe-client';

describe('card payments configuration', () => {
  const on = { STRIPE_SECRET_KEY: 'sk_test_abcdefgh1234', STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh1234' };

  it('is on with both Stripe secrets, off with neither or both "off"', () => {
    expect(cardConfig(on)).toMatchObject({ secretKey: on.STRIPE_SECRET_KEY, webhookSecret: on.STRIPE_WEBHOOK_SECRET });
    expect(cardConfig({})).toBeNull();
    expect(cardConfig({ STRIPE_SECRET_KEY: 'off', STRIPE_WEBHOOK_SECRET: 'OFF' })).toBeNull();
    expect(cardPaymentsOn({})).toBe(false);
  });

  it('refuses one without the other, a value of the wrong shape, or a stand-in off this machine', () => {
    expect(() => cardConfig({ STRIPE_SECRET_KEY: on.STRIPE_SECRET_KEY })).toThrow(/both/);
    expect(() => cardConfig({ ...on, STRIPE_SECRET_KEY: 'pk_test_abcdefgh1234' })).toThrow(/secret key/);
    expect(() => cardConfig({ ...on, STRIPE_WEBHOOK_SECRET: 'abcdefgh1234' })).toThrow(/whsec_/);
    expect(() => cardConfig({ ...on, STRIPE_API_BASE: 'http://stripe.example.com' })).toThrow(/this machine/);
    expect(cardConfig({ ...on, STRIPE_API_BASE: 'http://127.0.0.1:12111' })?.apiBase?.port).toBe('12111');
    expect(cardPaymentsOn({ STRIPE_SECRET_KEY: on.STRIPE_SECRET_KEY })).toBe(false);
  });

  it('stops the function that declares the secrets from starting half configured, and only that one', () => {
    const half = { K_SERVICE: 'api', STRIPE_SECRET_KEY: on.STRIPE_SECRET_KEY };
    expect(() => assertStripeConfig(half, ['ADMIN_JWT_SECRET', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'])).toThrow();
    expect(() => assertStripeConfig(half, [])).not.toThrow(); // pages declares none
    expect(() => assertStripeConfig({ ...half, FUNCTIONS_CONTROL_API: 'true' }, null)).not.toThrow();
    expect(() => assertStripeConfig({ K_SERVICE: 'api' }, null)).not.toThrow(); // off
  });
});
