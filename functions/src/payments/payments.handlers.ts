import type { CheckoutStart, PaymentMethods } from '@bookstore/contract';
import type { Request, Response } from 'express';
import { requireCustomer } from '../lib/auth';
import { noStore } from '../lib/cache';
import { orderIdParam } from '../orders/orders.handlers';
import { openSession, retirePrevious } from './checkout';
import { requireStripe } from './stripe-client';
import { beginAttempt } from './payments.repo';
import { cardPaymentsOn } from './stripe-client';

// GET /api/checkout/payment-methods
// What checkout offers: card only when both Stripe secrets are set (issue 35). Anyone may ask.
export function paymentMethods(_req: Request, res: Response) {
  res.set('Cache-Control', 'public, max-age=60');
  res.json({ methods: cardPaymentsOn() ? ['cash', 'card'] : ['cash'] } satisfies PaymentMethods);
}

// POST /api/orders/:id/payment
// 'Pay Now' on an unpaid card order: a new Checkout session, then the previous one closed (issue 54:
// in that order, so Stripe failing to open the new one leaves the order with a session that ends it).
export async function startPayment(req: Request, res: Response) {
  const customer = await requireCustomer(req);
  const orderId = orderIdParam(req);
  const { stripe } = requireStripe();
  const { attempt, previous, doc } = await beginAttempt(orderId, customer.uid);
  // The previous session could still take a card: closed once the new one exists (retirePrevious).
  const opened = await retirePrevious(stripe, orderId, previous, await openSession(orderId, doc, attempt));
  noStore(res);
  res.status(201).json({ checkoutUrl: opened.checkoutUrl, sessionId: opened.sessionId } satisfies CheckoutStart);
}
