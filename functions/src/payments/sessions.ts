import { sessionFact } from './payment-facts';
import { applyPaymentFact } from './payments.repo';
import { providerError, type Stripe } from './stripe-client';

// Closing a Checkout session the shop no longer wants paid ('Pay Now' opens another, or the order is
// cancelled): until Stripe expires it, its page still takes a card.

/** The session's payment recorded as its completed event would record it (idempotent: keyed on the session). */
async function recordPaid(orderId: string, session: Stripe.Checkout.Session): Promise<void> {
  const id = `closed-${session.id}`;
  await applyPaymentFact(id, 'checkout.session.completed', orderId, sessionFact({ id, type: 'checkout.session.completed', data: { object: session } } as unknown as Stripe.Event));
}

/** Expires `sessionId` at Stripe if it is open; 'paid' if it turned out paid (recorded on the order). */
export async function closeSession(stripe: Stripe, orderId: string, sessionId: string): Promise<'closed' | 'paid'> {
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.retrieve(sessionId);
    if (session.status === 'open') session = await stripe.checkout.sessions.expire(sessionId);
  } catch (error) {
    // Paid between our read and the expire: Stripe refuses to expire a complete session.
    try {
      session = await stripe.checkout.sessions.retrieve(sessionId);
    } catch {
      throw providerError(error, 'expiring a Checkout session');
    }
    if (session.status === 'open') throw providerError(error, 'expiring a Checkout session');
  }
  if (session.status === 'complete' && session.payment_status === 'paid') {
    await recordPaid(orderId, session);
    return 'paid';
  }
  return 'closed';
}
