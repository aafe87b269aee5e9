import { describe, expect, it } from 'vitest';
import { adminToken, db, expectUnchangedIn, http, makeBooks, newCustomer, NEEDS_TRANSACTIONS, officialBackend, removeBooks, stockOf, validOrder } from './helpers';
import { delivered, pay, sdk, stored, type CardOrder } from './stripe-helpers';

// Issue 41: cancelling a paid card pre-order refunds it by itself, through the payments code's
// refund path (Stripe's Refunds API, then the order's refund record, counters and mail), once even
// when the cancel is sent twice at once, never more than was paid, and what a gift card paid back on
// the card first (decision 040). Over HTTP to the real function, the Firestore emulator and our
// Stripe stand-in.

const REASON = 'Pre-order cancelled: refunded in full';
const nextYear = () => `${new Date().getUTCFullYear() + 1}-06-15`;
let seq = 0;

/** A forthcoming book of this test's own at stock 0, $15.00, through the API (the write path). */
async function forthcomingBook(): Promise<{ _id: string; title: string; newPrice: number }> {
  const title = `Refund pre-order ${Date.now()}-${(seq += 1)}-${Math.random().toString(36).slice(2, 6)}`;
  const fields = { title, description: 'Not out yet.', category: 'Fiction', trending: false, oldPrice: 20, newPrice: 15, coverImage: 'book-2', stock: 0, publishedOn: nextYear() };
  const res = await http('/api/books/create-book', { method: 'POST', token: await adminToken(), json: fields });
  if (res.status !== 201) throw new Error(`create-book: ${res.status} ${JSON.stringify(res.body)}`);
  return { _id: res.body.book._id, title, newPrice: 15 };
}

/** A card order of `books` by a new customer (optionally part paid by a gift card), paid at the stand-in. */
async function paidCardOrder(books: { _id: string; newPrice: number }[], extra: Record<string, unknown> = {}, dueCents?: number): Promise<CardOrder & { uid: string }> {
  const customer = await newCustomer('preorder-refund');
  const body = { ...validOrder(customer.email, books), ...(dueCents !== undefined ? { totalPrice: (dueCents / 100).toFixed(2) } : {}), ...extra, payment: { method: 'card' } };
  const res = await http('/api/orders', { method: 'POST', token: customer.token, headers: { 'Idempotency-Key': `pre-refund-${Date.now()}-${Math.random().toString(36).slice(2)}` }, json: body });
  if (res.status !== 201) throw new Error(`card order: ${res.status} ${JSON.stringify(res.body)}`);
  const order = { id: res.body._id, sessionId: res.body.payment.sessionId, checkoutUrl: res.body.checkoutUrl, books: [], token: customer.token, totalCents: Math.round(res.body.totalPrice * 100), uid: customer.uid };
  await pay(order);
  return order;
}

/** Stripe's own record of the refunds of the order's payment: what left the shop's account. */
async function stripeRefunds(orderId: string) {
  const intent = (await stored(orderId)).payment.paymentIntentId as string;
  return (await sdk().refunds.list({ payment_intent: intent, limit: 100 })).data;
}

const bookDoc = async (id: string) => (await db().collection('books').doc(id).get()).data()!;

describe('cancelling a paid card pre-order refunds it', () => {
  it.skipIf(!officialBackend)(`the customer cancels a waiting card pre-order twice at once: one cancel, one refund of all it paid, shown on their order ${officialBackend ? '' : NEEDS_TRANSACTIONS}`, async () => {
    const book = await forthcomingBook();
    const order = await paidCardOrder([book]);
    expect(order.totalCents).toBe(1500);
    expect((await stored(order.id)).items[0].preorder).toBe('waiting');

    const cancel = () => http(`/api/orders/${order.id}/cancel`, { method: 'POST', token: order.token });
    const answers = await Promise.all([cancel(), cancel()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const ok = answers.find((a) => a.status === 200)!;
    expect(ok.body.order.status).toBe('cancelled');

    // Every event Stripe sent about it answered, then: exactly one refund, at Stripe and in the order.
    await delivered(order.sessionId);
    const atStripe = await stripeRefunds(order.id);
    expect(atStripe.map((r) => r.amount)).toEqual([1500]);
    const doc = await stored(order.id);
    expect(doc.payment).toMatchObject({ status: 'refunded', paidCents: 1500, refundedCents: 1500 });
    expect(doc.payment.refunds).toHaveLength(1);
    expect(doc.payment.refunds[0]).toMatchObject({ amountCents: 1500, status: 'succeeded', reason: REASON, stripeRefundId: atStripe[0]!.id, restock: [] });
    expect(doc.refundDue).toMatchObject({ cents: 1500, refundId: doc.payment.refunds[0].id });
    // The customer's order page: cancelled, refunded, the refund listed; and its mail went out once.
    const page = await http(`/api/orders/${order.id}`, { token: order.token });
    expect(page.body).toMatchObject({ status: 'cancelled', payment: { status: 'refunded', refunded: 15, refunds: [{ amount: 15, reason: REASON, status: 'succeeded' }] } });
    expect((await db().collection('mail').doc(`${order.id}-refund-${doc.payment.refunds[0].id}`).get()).exists).toBe(true);
    // Out of the queue, no copy to put back.
    expect((await db().collection('preorders').doc(`${order.id}-${book._id}`).get()).data()!.state).toBe('cancelled');
    expect(await bookDoc(book._id)).toMatchObject({ stock: 0, preorderWaiting: 0 });

    // A third cancel: 409, nothing more refunded.
    expect((await cancel()).status).toBe(409);
    expect((await stripeRefunds(order.id)).length).toBe(1);
    expect((await stored(order.id)).payment.refundedCents).toBe(1500);
  });

  it('the desk cancels a mixed order part paid by a gift card after a refund: the gift card back first, the rest by card, never more than was paid', async () => {
    const [shelf] = await makeBooks(1, 3, 1250);
    const book = await forthcomingBook();
    const admin = await adminToken();
    const card = await http('/api/admin/gift-cards', { method: 'POST', token: admin, json: { amount: 10 } });
    expect(card.status).toBe(201);
    // 12.50 + 15.00 = 27.50: 10.00 by the gift card, 17.50 by card.
    const order = await paidCardOrder([shelf!, book], { giftCardCode: card.body.code }, 1750);
    expect(order.totalCents).toBe(1750);
    expect(await stockOf(shelf!._id)).toBe(2);

    // A desk refund of 12.00 first: 10.00 back on the gift card, 2.00 by card.
    const refund = await http(`/api/admin/orders/${order.id}/refunds`, { method: 'POST', token: admin, headers: { 'Idempotency-Key': `pre-mixed-${order.id}` }, json: { amount: '12.00', reason: 'Goodwill' } });
    expect(refund.status).toBe(201);
    expect((await stored(order.id)).giftCard).toMatchObject({ cents: 1000, returnedCents: 1000 });

    const cancelled = await http(`/api/admin/orders/${order.id}/status`, { method: 'POST', token: admin, json: { status: 'cancelled' } });
    expect(cancelled.status).toBe(200);
    // What remained, 15.50, by card: with the 2.00 the card got back exactly what it paid; the gift card nothing twice.
    expect((await stripeRefunds(order.id)).map((r) => r.amount).sort((a, b) => a - b)).toEqual([200, 1550]);
    const doc = await stored(order.id);
    expect(doc.payment).toMatchObject({ status: 'refunded', paidCents: 1750, refundedCents: 1750 });
    expect(doc.payment.refunds.map((r: any) => [r.amountCents, r.reason])).toEqual([[200, 'Goodwill'], [1550, REASON]]);
    expect(doc.payment.refunds[1].by).toBe('owner');
    const balance = await http(`/api/admin/gift-cards/${card.body.id}?limit=100`, { token: admin });
    expect(balance.body.ledger.map((l: any) => [l.kind, l.amount])).toEqual([['returned', 10], ['spent', -10], ['issued', 10]]);
    // The shelf copy is back; the pre-order left the queue; the cancel's refund is in the audit chain.
    expect(await stockOf(shelf!._id)).toBe(3);
    expect(await bookDoc(book._id)).toMatchObject({ preorderWaiting: 0 });
    const audits = (await db().collection('audit').where('target', '==', `orders/${order.id}`).get()).docs.map((d) => d.data());
    expect(audits.filter((a) => a.action === 'order.refund' && a.changes.refund.after.reason === REASON)).toHaveLength(1);
    await removeBooks([shelf!]);
  });

  it('an order with a part already shipped cannot be cancelled (409 PART_SHIPPED, nothing changed); a paid card order with no pre-order waiting is still the shop\'s to cancel', async () => {
    const [shelf] = await makeBooks(1, 3, 1250);
    const book = await forthcomingBook();
    const customer = await newCustomer('preorder-part');
    const placed = await http('/api/orders', { method: 'POST', token: customer.token, json: validOrder(customer.email, [shelf!, book]) });
    expect(placed.status).toBe(201);
    const id = placed.body._id as string;
    const admin = await adminToken();
    expect((await http(`/api/admin/orders/${id}/status`, { method: 'POST', token: admin, json: { status: 'confirmed' } })).status).toBe(200);
    expect((await http(`/api/admin/orders/${id}/ship-available`, { method: 'POST', token: admin })).status).toBe(200);
    const scope = [db().collection('orders').doc(id), db().collection('books').doc(shelf!._id), db().collection('books').doc(book._id), db().collection('preorders').doc(`${id}-${book._id}`)];
    const refused = await expectUnchangedIn(scope, () => http(`/api/orders/${id}/cancel`, { method: 'POST', token: admin }));
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('PART_SHIPPED');

    const [plain] = await makeBooks(1, 3, 1250);
    const paid = await paidCardOrder([plain!]);
    const mine = await http(`/api/orders/${paid.id}/cancel`, { method: 'POST', token: paid.token });
    expect(mine.status).toBe(409);
    expect(mine.body.code).toBe('ORDER_PAID');
    await removeBooks([shelf!, plain!]);
  });
});
