import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, startStripeStandIn, type StripeStandIn } from './server';
import { parseForm } from './form';
import { shapeProblems } from './shape';

// The stand-in against the real `stripe` SDK (host, port, protocol options), and each object it
// returns against Stripe's published example of that resource: every field present, same JSON type.

const EXAMPLES = JSON.parse(readFileSync(new URL('./fixtures/stripe-examples.json', import.meta.url), 'utf8')) as Record<string, Record<string, unknown>>;
const SECRET = 'whsec_standInUnitTestSecret0123456789';

interface Received {
  event: Stripe.Event;
  raw: string;
}

let standIn: StripeStandIn;
let receiver: Server;
const received: Received[] = [];
let stripe: Stripe;
let answerWith = 200;

async function until<T>(find: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never saw ${what}`);
}

const eventOf = (type: string, objectId: string) => until(() => received.find((r) => r.event.type === type && (r.event.data.object as { id: string }).id === objectId), `${type} for ${objectId}`);

beforeAll(async () => {
  // The shop's side of the webhook, as it verifies it: the SDK's constructEvent on the raw bytes.
  const verifier = new Stripe('sk_test_receiver', { apiVersion: '2026-10-28.endive' });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      try {
        const event = verifier.webhooks.constructEvent(raw, String(req.headers['stripe-signature']), SECRET, 300);
        received.push({ event, raw: raw.toString() });
        res.writeHead(answerWith).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  standIn = await startStripeStandIn({ port: 0, webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, webhookSecret: SECRET, deliveryAttempts: 2 });
  const url = new URL(standIn.url);
  stripe = new Stripe('sk_test_unit', { apiVersion: '2026-10-28.endive', host: url.hostname, port: Number(url.port), protocol: 'http', maxNetworkRetries: 0 });
});

afterAll(async () => {
  await standIn?.settled();
  await standIn?.close();
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
});

// Fixed once: a session sent again under its idempotency key must carry the same parameters (an
// expiry read from the clock per call differed when the two calls straddled a second, a busy CI's flake).
const EXPIRES_AT = Math.floor(Date.now() / 1000) + 31 * 60;

const newSession = (over: Partial<Stripe.Checkout.SessionCreateParams> = {}, key?: string) =>
  stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [
      { quantity: 1, price_data: { currency: 'usd', unit_amount: 1250, product_data: { name: 'A Book' } } },
      { quantity: 1, price_data: { currency: 'usd', unit_amount: 499, product_data: { name: 'Shipping' } } },
    ],
    client_reference_id: 'order-1',
    metadata: { orderId: 'order-1' },
    payment_intent_data: { metadata: { orderId: 'order-1' } },
    customer_email: 'reader@example.com',
    expires_at: EXPIRES_AT,
    success_url: 'http://127.0.0.1/orders/order-1?checkout=success',
    cancel_url: 'http://127.0.0.1/orders/order-1?checkout=cancelled',
    ...over,
  }, key ? { idempotencyKey: key } : undefined);

const payForm = (session: Stripe.Checkout.Session, card: string) =>
  fetch(session.url!, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ card }), redirect: 'manual' });

describe('Stripe stand-in', () => {
  it('parses the SDK\'s bracketed form bodies', () => {
    expect(parseForm('line_items[0][price_data][unit_amount]=5&line_items[1][quantity]=2&metadata[orderId]=x&mode=payment')).toEqual({
      line_items: [{ price_data: { unit_amount: '5' } }, { quantity: '2' }], metadata: { orderId: 'x' }, mode: 'payment',
    });
  });

  it('creates and retrieves a Checkout Session in Stripe\'s shape, once per idempotency key', async () => {
    const session = await newSession({}, 'key-session-1');
    expect(session).toMatchObject({ object: 'checkout.session', mode: 'payment', status: 'open', payment_status: 'unpaid', amount_total: 1749, currency: 'usd', client_reference_id: 'order-1', metadata: { orderId: 'order-1' } });
    expect(shapeProblems(EXAMPLES['checkout.session'], session)).toEqual([]);
    expect((await newSession({}, 'key-session-1')).id).toBe(session.id);
    await expect(newSession({ client_reference_id: 'other' }, 'key-session-1')).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
    expect((await stripe.checkout.sessions.retrieve(session.id)).id).toBe(session.id);
    const intent = await stripe.paymentIntents.retrieve(session.payment_intent as string);
    expect(intent).toMatchObject({ amount: 1749, status: 'requires_payment_method', metadata: { orderId: 'order-1' } });
    expect(shapeProblems(EXAMPLES.payment_intent, intent)).toEqual([]);
  });

  it('refuses a key it does not know the shape of, an unknown session and a session shorter than 30 minutes', async () => {
    const anonymous = await fetch(`${standIn.url}/v1/checkout/sessions/cs_x`);
    expect(anonymous.status).toBe(401);
    await expect(stripe.checkout.sessions.retrieve('cs_test_nope')).rejects.toMatchObject({ code: 'resource_missing', statusCode: 404 });
    await expect(newSession({ expires_at: Math.floor(Date.now() / 1000) + 60 })).rejects.toMatchObject({ param: 'expires_at' });
  });

  it('serves a payment page: a declined card leaves the session open, 4242 pays and returns to the success URL', async () => {
    const session = await newSession();
    const pageHtml = await (await fetch(session.url!)).text();
    expect(pageHtml).toContain('<label for="card">Card number</label>');
    expect(pageHtml).toMatch(/<button type="submit">Pay<\/button>/);
    expect(pageHtml).toContain('$17.49');

    const declined = await payForm(session, '4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
    expect((await stripe.paymentIntents.retrieve(session.payment_intent as string)).last_payment_error?.code).toBe('card_declined');

    const paid = await payForm(session, CARDS.pays);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(session.success_url);
    const done = await stripe.checkout.sessions.retrieve(session.id);
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid', url: null });
    const intent = await stripe.paymentIntents.retrieve(session.payment_intent as string);
    expect(intent).toMatchObject({ status: 'succeeded', amount_received: 1749 });

    const { event, raw } = await eventOf('checkout.session.completed', session.id);
    expect(JSON.parse(raw).id).toBe(event.id);
    expect(shapeProblems({ ...EXAMPLES.event, data: {} }, event)).toEqual([]);
    expect(shapeProblems(EXAMPLES['checkout.session'], event.data.object)).toEqual([]);
    expect(event.data.object).toMatchObject({ payment_status: 'paid', amount_total: 1749 });
    const charge = await stripe.charges.retrieve(intent.latest_charge as string);
    expect(shapeProblems(EXAMPLES.charge, charge)).toEqual([]);
  });

  it('refunds in part, up to the charge, once per idempotency key, and sends refund.created and charge.refunded', async () => {
    const session = await newSession();
    await payForm(session, CARDS.pays);
    const pi = session.payment_intent as string;
    const refund = await stripe.refunds.create({ payment_intent: pi, amount: 500, metadata: { orderId: 'order-1', refundId: 'r1' } }, { idempotencyKey: 'refund-key-1' });
    expect(refund).toMatchObject({ object: 'refund', amount: 500, status: 'succeeded', payment_intent: pi, metadata: { refundId: 'r1' } });
    expect(shapeProblems(EXAMPLES.refund, refund)).toEqual([]);
    expect((await stripe.refunds.create({ payment_intent: pi, amount: 500, metadata: { orderId: 'order-1', refundId: 'r1' } }, { idempotencyKey: 'refund-key-1' })).id).toBe(refund.id);
    expect((await stripe.refunds.retrieve(refund.id)).amount).toBe(500);
    await expect(stripe.refunds.create({ payment_intent: pi, amount: 1250 })).rejects.toMatchObject({ code: 'amount_too_large' });
    expect((await stripe.refunds.list({ payment_intent: pi })).data.map((r) => r.id)).toEqual([refund.id]);
    const refunded = await eventOf('charge.refunded', (await stripe.paymentIntents.retrieve(pi)).latest_charge as string);
    expect(refunded.event.data.object).toMatchObject({ amount_refunded: 500, refunded: false });
    await eventOf('refund.created', refund.id);
  });

  it('expires a session through the API and on its own clock, once', async () => {
    const session = await newSession();
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ status: 'expired', url: null });
    await eventOf('checkout.session.expired', session.id);
    await expect(stripe.checkout.sessions.expire(session.id)).rejects.toMatchObject({ statusCode: 400 });
    expect(await (await fetch(session.url!)).text()).toContain('This payment page has expired.');
  });

  it('has a control API: events per session, redelivery (concurrent), a dashboard refund, a quiet expiry', async () => {
    const session = await newSession();
    await payForm(session, CARDS.pays);
    await eventOf('checkout.session.completed', session.id);
    const listed = (await (await fetch(`${standIn.url}/_fake/events?session=${session.id}`)).json()) as { id: string; type: string }[];
    expect(listed.map((e) => e.type)).toEqual(['checkout.session.completed']);
    const before = received.length;
    const redelivered = await fetch(`${standIn.url}/_fake/events/${listed[0]!.id}/redeliver`, { method: 'POST', body: JSON.stringify({ times: 3, concurrent: 3 }) });
    expect(((await redelivered.json()) as { statuses: number[] }).statuses).toEqual([200, 200, 200]);
    expect(received.slice(before).map((r) => r.event.id)).toEqual([listed[0]!.id, listed[0]!.id, listed[0]!.id]);

    const dashboard = await fetch(`${standIn.url}/_fake/refunds`, { method: 'POST', body: JSON.stringify({ payment_intent: session.payment_intent, amount: 300 }) });
    const made = (await dashboard.json()) as Stripe.Refund;
    expect(made).toMatchObject({ amount: 300, metadata: {} });
    await eventOf('refund.created', made.id);

    const quiet = await newSession();
    const sent = received.length;
    await fetch(`${standIn.url}/_fake/sessions/${quiet.id}/expire`, { method: 'POST', body: JSON.stringify({ notify: false }) });
    expect((await stripe.checkout.sessions.retrieve(quiet.id)).status).toBe('expired');
    await standIn.settled();
    expect(received.slice(sent).some((r) => (r.event.data.object as { id: string }).id === quiet.id)).toBe(false);
  });

  it('retries an event the endpoint did not take, and records each answer', async () => {
    answerWith = 500;
    const session = await newSession();
    await payForm(session, CARDS.pays);
    await standIn.settled();
    answerWith = 200;
    const [event] = (await (await fetch(`${standIn.url}/_fake/events?session=${session.id}`)).json()) as { statuses: number[] }[];
    expect(event!.statuses).toEqual([500, 500]);
  });
});
