import { createHash } from 'node:crypto';
import { RefundRequestSchema, type Order, type Refund } from '@bookstore/contract';
import type { Request, Response } from 'express';
import { requirePermission } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { jsonBody, parseWith } from '../lib/validate';
import { idempotencyKey, orderIdParam } from '../orders/orders.handlers';
import { providerError, requireStripe } from './stripe-client';
import { refundStatusOf } from './payment-facts';
import { checkRefund, recordRefund, restockBookIds, type RefundAnswer } from './payments.repo';
import { refundToGiftCard } from '../promotions/gift-card-refunds';
import type { Stripe } from './stripe-client';

export interface RefundResponse {
  message: string;
  order: Order;
  refund: Refund;
}

/** Stripe's answer when the charge has no more to give back: the same 409 as our own check. */
function exceedsAtStripe(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'charge_already_refunded' || code === 'amount_too_large' || code === 'refund_exceeds';
}

// POST /api/admin/orders/:id/refunds {amount, reason, restock: [{bookId, quantity}]} with an Idempotency-Key
// Owner and manager (orders.refund). Card: through Stripe's Refunds API (its idempotency key is
// ours, so a retry cannot refund twice); cash: recorded. One audit event per refund.
// The router puts a recent re-authentication in front of it (sensitivePaymentActions, issue 36).
export async function createRefund(req: Request, res: Response) {
  const actor = requirePermission(req, 'orders.refund');
  const orderId = orderIdParam(req);
  const key = idempotencyKey(req);
  if (!key) throw new HttpError(400, 'An Idempotency-Key header is required for a refund');
  const request = parseWith(RefundRequestSchema, jsonBody(req));
  const refundId = createHash('sha256').update(`${orderId}\n${key}`).digest('hex').slice(0, 20);
  const requestHash = createHash('sha256').update(JSON.stringify(request)).digest('hex');
  // Issue 40: what a gift card paid goes back on it first; the rest, if any, is refunded in money below.
  const toCard = await refundToGiftCard(orderId, refundId, request, actor, (doc) => restockBookIds(doc, request));
  if (toCard.cents > 0 && toCard.cents === Math.round(request.amount * 100)) {
    noStore(res);
    res.status(201).json({ message: 'Refund put back on the gift card', order: toCard.order!, giftCard: { amount: toCard.cents / 100 } });
    return;
  }
  const rest = toCard.cents > 0 ? { ...request, amount: (Math.round(request.amount * 100) - toCard.cents) / 100 } : request;
  const ask = { orderId, refundId, requestHash, request: rest, actor };
  const checked = await checkRefund(ask);
  let answer: RefundAnswer;
  if ('replay' in checked) answer = checked.replay;
  else if (checked.payment.method === 'cash') answer = await recordRefund(ask);
  else {
    const { stripe } = requireStripe();
    const paymentIntent = checked.payment.paymentIntentId;
    if (!paymentIntent) throw new HttpError(409, 'This order has no card payment to refund', { code: 'REFUND_EXCEEDS_PAYMENT', refundable: 0 });
    let refund: Stripe.Refund;
    try {
      refund = await stripe.refunds.create(
        { payment_intent: paymentIntent, amount: Math.round(rest.amount * 100), reason: 'requested_by_customer', metadata: { orderId, refundId } },
        { idempotencyKey: `refund-${refundId}` },
      );
    } catch (error) {
      if (exceedsAtStripe(error)) throw new HttpError(409, 'Stripe refused: the payment has no more to refund', { code: 'REFUND_EXCEEDS_PAYMENT', refundable: 0 });
      throw providerError(error, 'creating a refund');
    }
    answer = await recordRefund(ask, { id: refund.id, amountCents: refund.amount, status: refundStatusOf(refund.status) });
  }
  noStore(res);
  if (answer.replayed) res.set('Idempotent-Replayed', 'true');
  res.status(201).json({ message: 'Refund recorded', order: answer.order, refund: answer.refund } satisfies RefundResponse);
}
