import type { CheckoutStart, PaymentMethods } from '@bookstore/contract';
import type { Request, Response } from 'express';
import { requireCustomer } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { orderIdParam } from '../orders/orders.handlers';
import { failed, openSession } from './checkout';
import { requireStripe } from './stripe-client';
import { beginAttempt } from './payments.repo';
import { closeSession } from './sessions';
import { cardPaymentsOn } from './stripe-client';

// GET /api/checkout/payment-methods
// What checkout offers: card only when both Stripe secrets are set (issue 35). Anyone may ask.
export function paymentMethods(_req: Request, res: Response) {
  res.set('Cache-Control', 'public, max-age=60');
  res.json({ methods: cardPaymentsOn() ? ['cash', 'card'] : ['cash'] } satisfies PaymentMethods);
}

// POST /api/orders/:id/payment
// 'Pay Now' on an unpaid card order: a new Checkout session (the previous one is expired first).
export async function startPayment(req: Request, res: Response) {
  const customer = await requireCustomer(req);
  const orderId = orderIdParam(req);
  const { stripe } = requireStripe();
  const { attempt, retired, doc } = await beginAttempt(orderId, customer.uid);
  // The previous session could still take a card: closed first. Paid meanwhile: recorded, and said so.
  if (retired) {
    const closed = await closeSession(stripe, orderId, retired).catch(async (error: unknown) => {
      throw await failed(orderId, attempt, error);
    });
    if (closed === 'paid') throw new HttpError(409, 'This order is already paid', { code: 'ORDER_PAID' });
  }
  const opened = await openSession(orderId, doc, attempt);
  noStore(res);
  res.status(201).json({ checkoutUrl: opened.checkoutUrl, sessionId: opened.sessionId } satisfies CheckoutStart);
}
