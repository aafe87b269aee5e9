import { Router, type RequestHandler } from 'express';
import * as payments from './payments.handlers';
import * as refunds from './refunds.handlers';
import { stripeWebhook } from './webhook.handlers';

/**
 * Middlewares in front of the staff's sensitive payment actions (refunds). Empty here: a recent
 * re-authentication (issue 36, 401 REAUTH_REQUIRED) goes in this list, and applies to every such route.
 */
export const sensitivePaymentActions: RequestHandler[] = [];

/** Mounted at /api/stripe: Stripe's calls to the shop. */
export const stripeRouter = Router();
stripeRouter.post('/webhook', stripeWebhook);

/** Routes mounted under /api/orders (the customer's 'Pay Now'). */
export const orderPaymentRouter = Router();
orderPaymentRouter.post('/:id/payment', payments.startPayment);

/** Routes mounted under /api/admin/orders. */
export const adminPaymentRouter = Router();
adminPaymentRouter.post('/:id/refunds', ...sensitivePaymentActions, refunds.createRefund);

/** Routes mounted under /api/checkout. */
export const checkoutPaymentRouter = Router();
checkoutPaymentRouter.get('/payment-methods', payments.paymentMethods);
