import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionParams } from '../../../functions/src/payments/checkout-session';
import { STRIPE_API_VERSION } from '../../../functions/src/payments/stripe-client';
import { startStripeStandIn, type StripeStandIn } from './server';
import { shapeProblems } from './shape';

// The test-mode check (issue 35): runs only when a Stripe TEST key is given, e.g.
//   STRIPE_TEST_SECRET_KEY=sk_test_... npx vitest run --project unit scripts/lib/stripe-stand-in/real-stripe
// It sends the shop's own Checkout Session parameters to real Stripe (test mode: no money moves),
// and compares what Stripe answers with what our stand-in answers for the same request, both ways:
// a field Stripe has that the stand-in lacks (or the other way round) fails. Without a key: skipped.

const KEY = process.env.STRIPE_TEST_SECRET_KEY ?? '';
const ORDER = {
  email: 'test-mode@example.com', totalCents: 1749,
  items: [{ bookId: 'b1', title: 'A Test-Mode Book', unitPriceCents: 1250, coverImage: 'book-1' }],
  charges: { subtotalCents: 1250, shippingCents: 499, taxCents: 0, shippingTaxCents: 0, taxRateBp: 0, taxIncluded: true, taxLabel: 'Tax' },
};

describe.skipIf(!KEY.startsWith('sk_test_'))('real Stripe, test mode (STRIPE_TEST_SECRET_KEY)', () => {
  let standIn: StripeStandIn;
  let real: Stripe;
  let local: Stripe;
  beforeAll(async () => {
    standIn = await startStripeStandIn({ port: 0, webhookUrl: 'http://127.0.0.1:9/unused', webhookSecret: 'whsec_unusedForThisCheck', deliveryAttempts: 1 });
    real = new Stripe(KEY, { apiVersion: STRIPE_API_VERSION });
    const url = new URL(standIn.url);
    local = new Stripe('sk_test_local', { apiVersion: STRIPE_API_VERSION, host: url.hostname, port: Number(url.port), protocol: 'http' });
  });
  afterAll(async () => standIn?.close());

  it('answers a Checkout Session, its PaymentIntent-less state and its expiry in the shapes the stand-in uses', async () => {
    const params = sessionParams({ orderId: `test-mode-${Date.now()}`, order: ORDER, origin: 'https://example.com', attempt: 1 });
    const [theirs, ours] = await Promise.all([real.checkout.sessions.create(params), local.checkout.sessions.create(params)]);
    expect(theirs).toMatchObject({ mode: 'payment', amount_total: 1749, status: 'open', payment_status: 'unpaid' });
    expect(shapeProblems(theirs, ours)).toEqual([]);
    expect(shapeProblems(ours, theirs).filter((p) => !p.startsWith('payment_intent'))).toEqual([]); // Stripe makes the PaymentIntent at payment time
    const [expiredTheirs, expiredOurs] = await Promise.all([real.checkout.sessions.expire(theirs.id), local.checkout.sessions.expire(ours.id)]);
    expect(expiredTheirs.status).toBe('expired');
    expect(expiredOurs.status).toBe('expired');
    await expect(real.checkout.sessions.expire(theirs.id)).rejects.toMatchObject({ statusCode: 400 });
  });
});
