import { Router, type RequestHandler } from 'express';
import { sensitiveRoute } from '../lib/auth';
import * as payments from './payments.handlers';
import * as refunds from './refunds.handlers';
import { stripeWebhook } from './webhook.handlers';
import * as problems from './problems.handlers';

/**
 * Middlewares in front of the staff's sensitive payment actions (refunds): the role's permission, then
 * a proof from the last 5 minutes (issue 36: else 401 REAUTH_REQUIRED, nothing asked of Stripe or stored).
 */
export const sensitivePaymentActions: RequestHandler[] = [sensitiveRoute('orders.refund')];

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

/** Routes mounted under /api/admin/payment-problems (issue 54). */
export const paymentProblemsRouter = Router();
paymentProblemsRouter.get('/', problems.listProblems);
paymentProblemsRouter.post('/:id/resolve', ...sensitivePaymentActions, problems.resolve);
