import { fromCents, type ParsedRefundRequest } from '@bookstore/contract';
import { appendAudit, openAudit, type AuditActor } from '../admin/audit.repo';
import { noAfterCommit } from '../books/book-writes';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { countReads } from '../lib/read-counter';
import { refundDelta } from '../orders/counters';
import { addToCounters } from '../orders/counters.repo';
import { busy, orderFromDoc, orders, readRestock, TX_OPTIONS, writeRestock, type OrderDoc } from '../orders/orders.repo';
import type { Order } from '@bookstore/contract';
import { updateOrder } from '../orders/order-writes';
import { giveBackToCard, readCardForReturn } from './gift-cards.repo';

// A desk refund of an order a gift card paid for (issue 40; docs/decisions/040-discounts-and-gift-cards.md):
// the refund's amount goes back on the gift card FIRST, up to what the card paid and was not given
// back yet; only the rest is refunded in money (through Stripe for a card payment, or cash), by the
// refund route as before. The card's part is written in its own order transaction, keyed by the
// refund's id (from the Idempotency-Key): a retry finds it done and gives nothing back twice.

export interface GiftCardRefundPart {
  /** What went back on the card for this refund (0: nothing of it was the card's). */
  cents: number;
  order?: Order;
  /** The lines restocked here (a refund wholly on the card): the money refund does not restock them again. */
  restocked: boolean;
}

export async function refundToGiftCard(orderId: string, refundId: string, request: ParsedRefundRequest, actor: AuditActor, restockLines: (doc: OrderDoc) => string[]): Promise<GiftCardRefundPart> {
  const ref = orders().doc(orderId);
  let afterCommit = noAfterCommit;
  const part = await db().runTransaction(async (tx): Promise<GiftCardRefundPart> => {
    afterCommit = noAfterCommit;
    const snap = await tx.get(ref);
    countReads(1);
    const doc = snap.data() as OrderDoc | undefined;
    if (!doc) throw new HttpError(404, 'Order not found');
    const gift = doc.giftCard;
    if (!gift) return { cents: 0, restocked: false };
    const done = gift.refunds?.find((r) => r.id === refundId);
    if (done) return { cents: done.cents, order: orderFromDoc(orderId, doc), restocked: done.restocked };
    const requested = Math.round(request.amount * 100);
    const owed = gift.cents - gift.returnedCents;
    const cents = Math.min(owed, requested);
    if (cents <= 0) return { cents: 0, restocked: false };
    // Wholly on the card: this transaction restocks the lines asked for too (there is no money refund to do it).
    const whole = cents === requested;
    const bookIds = whole ? restockLines(doc) : [];
    const restock = await readRestock(tx, bookIds, ref.path);
    const card = await readCardForReturn(tx, gift.id);
    if (!card) throw new HttpError(409, 'The gift card that paid this order no longer exists', { code: 'GIFT_CARD_GONE' });
    const log = await openAudit(tx);
    const at = new Date().toISOString();
    giveBackToCard(tx, card, cents, orderId, at, actor.username);
    const giftCard = { ...gift, returnedCents: gift.returnedCents + cents, refunds: [...(gift.refunds ?? []), { id: refundId, cents, at, restocked: whole }] };
    const updated: OrderDoc = { ...doc, giftCard, updatedAt: at, ...(bookIds.length ? { restocked: [...(doc.restocked ?? []), ...bookIds] } : {}) };
    updateOrder(tx, ref, { giftCard, updatedAt: at, ...(bookIds.length ? { restocked: updated.restocked } : {}) });
    afterCommit = writeRestock(restock);
    addToCounters(tx, refundDelta(cents));
    appendAudit(log, actor, {
      action: 'order.refund', target: `orders/${orderId}`,
      changes: { giftCardReturned: { before: fromCents(gift.returnedCents), after: fromCents(giftCard.returnedCents) }, refund: { before: null, after: { id: refundId, amount: fromCents(cents), reason: request.reason, toGiftCard: gift.last4, restock: bookIds } } },
    }, at);
    return { cents, order: orderFromDoc(orderId, updated), restocked: whole };
  }, TX_OPTIONS).catch(busy);
  await afterCommit();
  return part;
}
