import { createHash } from 'node:crypto';
import { RefundRequestSchema, type Order, type Refund } from '@bookstore/contract';
import type { Request, Response } from 'express';
import { requirePermission } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { jsonBody, parseWith } from '../lib/validate';
import { idempotencyKey, orderIdParam } from '../orders/orders.handlers';
import { providerError, requireStripe } from './stripe-client';
import { logger } from 'firebase-functions/logger';
import { refundStatusOf } from './payment-facts';
import { beginRefund, recordRefund, releaseRefundLock, type RefundAnswer, type RefundAsk } from './refunds.repo';
import { newGiftCardCode } from '../promotions/gift-cards.repo';

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

/** What Stripe's refusal means for the desk: a 409 that says why, or 502 to try again. Nothing was refunded. */
function refusedAtStripe(error: unknown): HttpError {
  if (exceedsAtStripe(error)) return new HttpError(409, 'Stripe refused: the payment has no more to refund', { code: 'REFUND_EXCEEDS_PAYMENT', refundable: 0 });
  if ((error as { code?: string }).code === 'charge_disputed') {
    return new HttpError(409, 'This payment is disputed: Stripe cannot refund it while the dispute is open. Answer the dispute in Stripe.', { code: 'CHARGE_DISPUTED' });
  }
  return providerError(error, 'creating a refund');
}

// POST /api/admin/orders/:id/refunds {amount, reason, restock: [{bookId, quantity}]} with an Idempotency-Key
// Owner and manager (orders.refund). One outcome (issue 54, refunds.repo.ts): the gift card's part
// back on the card and the rest in money (card: Stripe's Refunds API under our key, so a retry cannot
// refund twice; cash: recorded), or nothing at all; one refund at a time per order. One audit event
// and one mail per refund. The router puts a recent re-authentication in front of it (issue 36).
export async function createRefund(req: Request, res: Response) {
  const actor = requirePermission(req, 'orders.refund');
  const orderId = orderIdParam(req);
  const key = idempotencyKey(req);
  if (!key) throw new HttpError(400, 'An Idempotency-Key header is required for a refund');
  const request = parseWith(RefundRequestSchema, jsonBody(req));
  const refundId = createHash('sha256').update(`${orderId}\n${key}`).digest('hex').slice(0, 20);
  const requestHash = createHash('sha256').update(JSON.stringify(request)).digest('hex');
  const ask: RefundAsk = { orderId, refundId, requestHash, request, actor };
  const plan = await beginRefund(ask);
  let answer: RefundAnswer;
  if ('replay' in plan) answer = plan.replay;
  else {
    try {
      let made = plan.madeAtStripe;
      // Store credit (issue 54): the money part is a new gift card, made by the server, never asked of Stripe.
      const creditCode = request.destination === 'store_credit' && plan.moneyCents > 0 && !made ? newGiftCardCode() : undefined;
      if (plan.moneyCents > 0 && plan.payment.method === 'card' && !made && !creditCode) {
        const { stripe } = requireStripe();
        try {
          const refund = await stripe.refunds.create(
            { payment_intent: plan.payment.paymentIntentId!, amount: plan.moneyCents, reason: 'requested_by_customer', metadata: { orderId, refundId } },
            { idempotencyKey: `refund-${refundId}` },
          );
          made = { id: refund.id, amountCents: refund.amount, status: refundStatusOf(refund.status) };
        } catch (error) {
          throw refusedAtStripe(error);
        }
      }
      answer = await recordRefund({ ...ask, giftCardCents: plan.giftCardCents, ...(creditCode ? { creditCode } : {}) }, made);
    } catch (error) {
      // Nothing was written but the lock (Stripe refused, or the record failed and a retry under the same key completes it).
      await releaseRefundLock(orderId, refundId).catch((e: unknown) => logger.warn('Refund lock not released', { orderId, message: (e as Error).message }));
      throw error;
    }
  }
  noStore(res);
  if (answer.replayed) res.set('Idempotent-Replayed', 'true');
  const giftCard = { ...(answer.giftCardCents > 0 ? { giftCard: { amount: answer.giftCardCents / 100 } } : {}), ...(answer.storeCredit ? { storeCredit: answer.storeCredit } : {}) };
  if (!answer.refund) {
    res.status(201).json({ message: 'Refund put back on the gift card', order: answer.order, ...giftCard });
    return;
  }
  res.status(201).json({ message: 'Refund recorded', order: answer.order, refund: answer.refund, ...giftCard } satisfies RefundResponse);
}
