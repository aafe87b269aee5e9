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

/** A control route's answer: its status and JSON body. */
async function fake<T = unknown>(path: string, json?: unknown, method = json === undefined ? 'GET' : 'POST'): Promise<{ status: number; body: T }> {
  const res = await fetch(`${standIn.url}/_fake/${path}`, { method, ...(json === undefined ? {} : { body: typeof json === 'string' ? json : JSON.stringify(json) }) });
  return { status: res.status, body: (await res.json()) as T };
}

const unique = (what: string) => `${what}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** A paid Checkout Session's PaymentIntent and charge. */
async function paidIntent(): Promise<{ session: Stripe.Checkout.Session; pi: string; charge: string }> {
  const session = await newSession();
  await payForm(session, CARDS.pays);
  const pi = session.payment_intent as string;
  return { session, pi, charge: (await stripe.paymentIntents.retrieve(pi)).latest_charge as string };
}

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

  it('takes allowed_payment_method_types (API 2026-09-30 on) and echoes them: card only, or the dashboard\'s card and link without them', async () => {
    const cardOnly = await newSession({ allowed_payment_method_types: ['card'] });
    expect(cardOnly).toMatchObject({ allowed_payment_method_types: ['card'], payment_method_types: ['card'] });
    expect(await stripe.paymentIntents.retrieve(cardOnly.payment_intent as string)).toMatchObject({ allowed_payment_method_types: ['card'], payment_method_types: ['card'] });
    expect((await stripe.checkout.sessions.retrieve(cardOnly.id)).allowed_payment_method_types).toEqual(['card']);
    expect((await fake<{ id: string; allowed_payment_method_types: string[] }[]>('sessions?order=order-1')).body.find((s) => s.id === cardOnly.id)?.allowed_payment_method_types).toEqual(['card']);
    expect(await newSession()).toMatchObject({ allowed_payment_method_types: null, payment_method_types: ['card', 'link'] });
    await expect(newSession({ allowed_payment_method_types: ['card_present' as 'card'] })).rejects.toMatchObject({ statusCode: 400, param: 'allowed_payment_method_types[0]' });
    await expect(newSession({ allowed_payment_method_types: ['klarna'] })).rejects.toMatchObject({ statusCode: 400, param: 'allowed_payment_method_types' });
    // The parameter Stripe removed: refused as real Stripe refuses an unknown one.
    await expect(newSession({ payment_method_types: ['card'] } as Partial<Stripe.Checkout.SessionCreateParams>)).rejects.toMatchObject({ statusCode: 400, code: 'parameter_unknown' });
  });

  it('fails the next matching calls with a 500 api_error the SDK does not retry, and leaves other calls alone', async () => {
    const email = `${unique('down')}@example.com`;
    const rule = await fake('fail-next', { path: '/v1/checkout/sessions', params: { customer_email: email }, count: 2 });
    expect(rule).toMatchObject({ status: 200, body: { method: 'POST', path: '/v1/checkout/sessions', count: 2 } });
    // The shop's SDK retries 500s twice unless Stripe-Should-Retry says no: each failure is one the shop sees.
    const retrying = new Stripe('sk_test_unit', { apiVersion: '2026-10-28.endive', host: new URL(standIn.url).hostname, port: Number(new URL(standIn.url).port), protocol: 'http', maxNetworkRetries: 2 });
    const create = () => retrying.checkout.sessions.create({ mode: 'payment', customer_email: email, success_url: 'http://127.0.0.1/ok', expires_at: EXPIRES_AT, line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 500, product_data: { name: 'A Book' } } }] });
    expect((await newSession()).status).toBe('open'); // another customer's session: not failed
    await expect(create()).rejects.toMatchObject({ type: 'StripeAPIError', statusCode: 500 });
    await expect(create()).rejects.toMatchObject({ type: 'StripeAPIError', statusCode: 500 });
    const session = await create();
    expect(session.status).toBe('open');

    await fake('fail-next', { path: `/v1/checkout/sessions/${session.id}/expire` });
    await expect(stripe.checkout.sessions.expire(session.id)).rejects.toMatchObject({ statusCode: 500 });
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
    expect((await stripe.checkout.sessions.expire(session.id)).status).toBe('expired');

    const unused = await fake<{ id: string }>('fail-next', { path: '/v1/checkout/sessions', params: { customer_email: 'nobody@example.com' }, count: 3 });
    expect(await fake(`fail-next/${unused.body.id}`, undefined, 'DELETE')).toEqual({ status: 200, body: { id: unused.body.id, left: 3 } });
    expect((await fake(`fail-next/${unused.body.id}`, undefined, 'DELETE')).status).toBe(404);
  });

  it('opens a dispute on a paid charge in Stripe\'s shape, refuses refunds of a chargeback, and closes it won or lost', async () => {
    const { pi, charge } = await paidIntent();
    const before = Math.floor(Date.now() / 1000);
    const opened = await fake<Stripe.Dispute>('disputes', { payment_intent: pi });
    expect(opened.status).toBe(200);
    const dispute = opened.body;
    expect(dispute).toMatchObject({ object: 'dispute', status: 'needs_response', amount: 1749, currency: 'usd', reason: 'fraudulent', charge, payment_intent: pi, livemode: false, is_charge_refundable: false });
    expect(dispute.id).toMatch(/^dp_/);
    expect(dispute.evidence_details.due_by! - before).toBeGreaterThanOrEqual(7 * 24 * 3600 - 5);
    expect(dispute.evidence_details.due_by! - before).toBeLessThanOrEqual(7 * 24 * 3600 + 5);
    expect(shapeProblems(EXAMPLES.dispute, dispute)).toEqual([]);
    const created = await eventOf('charge.dispute.created', dispute.id);
    expect(shapeProblems(EXAMPLES.dispute, created.event.data.object)).toEqual([]);
    expect(await stripe.disputes.retrieve(dispute.id)).toEqual(dispute);
    expect((await stripe.charges.retrieve(charge)).disputed).toBe(true);

    // Stripe refuses to refund a chargeback: the money already went back to the cardholder.
    await expect(stripe.refunds.create({ payment_intent: pi, amount: 100 })).rejects.toMatchObject({ statusCode: 400, code: 'charge_disputed' });
    expect((await stripe.charges.retrieve(charge)).amount_refunded).toBe(0);
    expect((await fake('disputes', { payment_intent: pi })).status).toBe(409);

    expect(await fake(`disputes/${dispute.id}/close`, { status: 'pending' })).toMatchObject({ status: 400, body: { error: { param: 'status' } } });
    const closed = await fake<Stripe.Dispute>(`disputes/${dispute.id}/close`, { status: 'won' });
    expect(closed.body).toMatchObject({ status: 'won', is_charge_refundable: true });
    expect((await eventOf('charge.dispute.closed', dispute.id)).event.data.object).toMatchObject({ status: 'won' });
    expect((await fake(`disputes/${dispute.id}/close`, { status: 'lost' })).status).toBe(409);
    expect((await stripe.refunds.create({ payment_intent: pi, amount: 100 })).status).toBe('succeeded');

    const other = await paidIntent();
    const lost = (await fake<Stripe.Dispute>('disputes', { payment_intent: other.pi, reason: 'product_not_received' })).body;
    expect(lost).toMatchObject({ reason: 'product_not_received', payment_method_details: { card: { network_reason_code: '13.1' } } });
    await fake(`disputes/${lost.id}/close`, { status: 'lost' });
    expect((await eventOf('charge.dispute.closed', lost.id)).event.data.object).toMatchObject({ status: 'lost' });
    await expect(stripe.refunds.create({ payment_intent: other.pi })).rejects.toMatchObject({ code: 'charge_disputed' });
    expect((await fake('disputes', { payment_intent: 'pi_nope' })).status).toBe(404);
  });

  it('fails a refund as a closed card does: refund.updated and refund.failed, and the charge counts it no more', async () => {
    const { pi, charge } = await paidIntent();
    const refund = await stripe.refunds.create({ payment_intent: pi, amount: 500 });
    expect((await stripe.charges.retrieve(charge)).amount_refunded).toBe(500);
    const failed = await fake<Stripe.Refund>(`refunds/${refund.id}/fail`, {});
    expect(failed.body).toMatchObject({ id: refund.id, status: 'failed', failure_reason: 'expired_or_canceled_card', amount: 500 });
    expect(failed.body.failure_balance_transaction).toMatch(/^txn_/);
    expect(shapeProblems(EXAMPLES.refund, failed.body)).toEqual([]);
    expect(await stripe.refunds.retrieve(refund.id)).toMatchObject({ status: 'failed' });
    expect(await stripe.charges.retrieve(charge)).toMatchObject({ amount_refunded: 0, refunded: false });
    const updated = await eventOf('refund.updated', refund.id);
    expect(updated.event.data).toMatchObject({ object: { status: 'failed' }, previous_attributes: { status: 'succeeded', failure_reason: null } });
    expect((await eventOf('refund.failed', refund.id)).event.data.object).toMatchObject({ status: 'failed', failure_reason: 'expired_or_canceled_card' });
    expect((await fake(`refunds/${refund.id}/fail`, {})).status).toBe(409);
    expect((await fake('refunds/re_nope/fail', {})).status).toBe(404);

    const dashboard = (await fake<Stripe.Refund>('refunds', { payment_intent: pi, amount: 300 })).body;
    expect((await fake<Stripe.Refund>(`refunds/${dashboard.id}/fail`, { failure_reason: 'lost_or_stolen_card' })).body).toMatchObject({ status: 'failed', failure_reason: 'lost_or_stolen_card' });
    const types = (await fake<{ type: string }[]>(`events?related=${refund.id}`)).body.map((e) => e.type);
    expect(types).toEqual(['refund.created', 'refund.updated', 'refund.failed']);
  });

  it('refuses the next refunds of one PaymentIntent as Stripe does (balance_insufficient), the others not', async () => {
    const { pi, charge } = await paidIntent();
    const other = await paidIntent();
    expect((await fake('refunds/refuse-next', { count: 1, payment_intent: pi })).body).toMatchObject({ path: '/v1/refunds', count: 1 });
    expect((await stripe.refunds.create({ payment_intent: other.pi, amount: 100 })).status).toBe('succeeded');
    await expect(stripe.refunds.create({ payment_intent: pi, amount: 100 }, { idempotencyKey: unique('refused') })).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, code: 'balance_insufficient' });
    expect((await stripe.charges.retrieve(charge)).amount_refunded).toBe(0);
    expect((await stripe.refunds.create({ payment_intent: pi, amount: 100 })).status).toBe('succeeded');
  });

  it('checks every control route\'s input: 400 with a message, at once, and nothing changed (issue 55)', async () => {
    const { session, pi, charge } = await paidIntent();
    const [event] = (await fake<{ id: string }[]>(`events?session=${session.id}`)).body;
    const bad = [
      [`events/${event!.id}/redeliver`, { concurrent: 0 }, 'concurrent'],
      [`events/${event!.id}/redeliver`, { concurrent: false }, 'concurrent'],
      [`events/${event!.id}/redeliver`, { concurrent: 1.5 }, 'concurrent'],
      [`events/${event!.id}/redeliver`, { concurrent: 51 }, 'concurrent'],
      [`events/${event!.id}/redeliver`, { times: 0 }, 'times'],
      [`events/${event!.id}/redeliver`, { times: '3' }, 'times'],
      [`events/${event!.id}/redeliver`, { times: 1e9 }, 'times'],
      [`events/${event!.id}/redeliver`, { tims: 2 }, 'tims'],
      ['refunds', { payment_intent: pi, amount: -5 }, 'amount'],
      ['refunds', { amount: 5 }, 'payment_intent'],
      ['refunds/refuse-next', { count: 0 }, 'count'],
      ['refunds/refuse-next', { count: 1000 }, 'count'],
      ['fail-next', { count: 1 }, 'path'],
      ['fail-next', { path: 'http://elsewhere/v1/refunds' }, 'path'],
      ['fail-next', { path: '/v1/refunds', method: 'PUT' }, 'method'],
      ['fail-next', { path: '/v1/refunds', params: { amount: 5 } }, 'params'],
      ['disputes', { payment_intent: pi, reason: 'bored' }, 'reason'],
      ['disputes', { payment_intent: pi, amount: 0 }, 'amount'],
      [`sessions/${session.id}/pay`, { notify: 'no' }, 'notify'],
      [`sessions/${session.id}/expire`, { notify: 0 }, 'notify'],
    ] as const;
    for (const [path, json, param] of bad) {
      const answer = await fake(path, json);
      expect(answer, `${path} ${JSON.stringify(json)}`).toMatchObject({ status: 400, body: { error: { message: expect.any(String), param } } });
    }
    expect(await fake(`events/${event!.id}/redeliver`, '{"times": ')).toMatchObject({ status: 400, body: { error: { message: 'The body is not JSON' } } });
    expect(await fake(`events/${event!.id}/redeliver`, '[1]')).toMatchObject({ status: 400 });
    expect(await fake('sessions')).toMatchObject({ status: 400, body: { error: { param: 'order' } } });
    expect((await fake('nowhere', {})).status).toBe(404);
    // Nothing changed: no delivery, refund, dispute or failure rule came of it.
    expect((await fake<{ statuses: number[] }[]>(`events?session=${session.id}`)).body[0]!.statuses).toHaveLength(1);
    expect((await stripe.charges.retrieve(charge)).amount_refunded).toBe(0);
    expect((await stripe.disputes.list({ payment_intent: pi })).data).toEqual([]);
    expect((await stripe.refunds.create({ payment_intent: pi, amount: 100 })).status).toBe('succeeded');
    expect((await fake<{ statuses: number[] }>(`events/${event!.id}/redeliver`, { times: 2, concurrent: 50 })).body.statuses).toEqual([200, 200]);
  });

  describe('Stripe Terminal (issue 57)', () => {
    const tillIntent = (amount: number, key?: string, over: Partial<Stripe.PaymentIntentCreateParams> = {}) =>
      stripe.paymentIntents.create({ amount, currency: 'usd', allowed_payment_method_types: ['card_present'], metadata: { sale: 'till-1' }, ...over }, key ? { idempotencyKey: key } : undefined);

    it('registers simulated readers in Stripe\'s shape, lists, renames and deletes them', async () => {
      const reader = await stripe.terminal.readers.create({ registration_code: 'simulated-wpe', label: 'Till 1', location: 'tml_standIn' });
      expect(reader).toMatchObject({ object: 'terminal.reader', device_type: 'simulated_wisepos_e', label: 'Till 1', location: 'tml_standIn', status: 'online', action: null, livemode: false });
      expect(reader.id).toMatch(/^tmr_/);
      expect(shapeProblems(EXAMPLES['terminal.reader'], reader)).toEqual([]);
      await expect(stripe.terminal.readers.create({ registration_code: 'purple-cat-lamp' })).rejects.toMatchObject({ statusCode: 400, param: 'registration_code' });
      expect((await stripe.terminal.readers.list({ location: 'tml_standIn' })).data.map((r) => r.id)).toContain(reader.id);
      expect(await stripe.terminal.readers.update(reader.id, { label: 'Till 2' })).toMatchObject({ label: 'Till 2' });
      expect(await stripe.terminal.readers.del(reader.id)).toEqual({ id: reader.id, object: 'terminal.reader', deleted: true, device_type: 'simulated_wisepos_e', serial_number: reader.serial_number });
      expect(await stripe.terminal.readers.retrieve(reader.id)).toMatchObject({ deleted: true });
      expect((await stripe.terminal.readers.list({ location: 'tml_standIn' })).data.map((r) => r.id)).not.toContain(reader.id);
      await expect(stripe.terminal.readers.processPaymentIntent(reader.id, { payment_intent: 'pi_x' })).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
    });

    it('takes a card_present payment: 4242 pays (events as Stripe sends them), the charge refunds as any other', async () => {
      const reader = await stripe.terminal.readers.create({ registration_code: 'simulated-wpe' });
      const key = unique('till-sale');
      const intent = await tillIntent(2599, key);
      expect(intent).toMatchObject({ status: 'requires_payment_method', allowed_payment_method_types: ['card_present'], payment_method_types: ['card_present'], amount: 2599 });
      expect(shapeProblems(EXAMPLES.payment_intent, intent)).toEqual([]);
      expect((await tillIntent(2599, key)).id).toBe(intent.id);
      await expect(tillIntent(2599, key, { metadata: { sale: 'till-2' } })).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
      await expect(tillIntent(20)).rejects.toMatchObject({ code: 'amount_too_small' });

      const processing = await stripe.terminal.readers.processPaymentIntent(reader.id, { payment_intent: intent.id });
      expect(processing.action).toMatchObject({ type: 'process_payment_intent', status: 'in_progress', process_payment_intent: { payment_intent: intent.id } });
      expect(shapeProblems(EXAMPLES['terminal.reader'], processing)).toEqual([]);
      await expect(stripe.terminal.readers.processPaymentIntent(reader.id, { payment_intent: intent.id })).rejects.toMatchObject({ code: 'terminal_reader_busy' });

      const done = await stripe.testHelpers.terminal.readers.presentPaymentMethod(reader.id, { card_present: { number: '4242 4242 4242 4242' } });
      expect(done.action).toMatchObject({ status: 'succeeded', failure_code: null });
      const paid = await stripe.paymentIntents.retrieve(intent.id);
      expect(paid).toMatchObject({ status: 'succeeded', amount_received: 2599 });
      const charge = await stripe.charges.retrieve(paid.latest_charge as string);
      expect(charge).toMatchObject({ amount: 2599, captured: true, payment_method_details: { type: 'card_present', card_present: { last4: '4242', reader: reader.id } } });
      // Stripe's example charge was paid online (payment_method_details.card): the rest is compared as is.
      expect(shapeProblems({ ...EXAMPLES.charge, payment_method_details: { type: 'card_present' } }, charge)).toEqual([]);
      expect((await eventOf('terminal.reader.action_succeeded', reader.id)).event.data.object).toMatchObject({ action: { status: 'succeeded', process_payment_intent: { payment_intent: intent.id } } });
      const succeeded = await eventOf('payment_intent.succeeded', intent.id);
      expect(shapeProblems(EXAMPLES.payment_intent, succeeded.event.data.object)).toEqual([]);
      expect((await fake<{ type: string }[]>(`events?related=${intent.id}`)).body.map((e) => e.type)).toEqual(['terminal.reader.action_succeeded', 'payment_intent.succeeded']);

      const refund = await stripe.refunds.create({ payment_intent: intent.id, amount: 599 }, { idempotencyKey: unique('till-refund') });
      expect(refund).toMatchObject({ status: 'succeeded', amount: 599, charge: charge.id });
      expect((await stripe.charges.retrieve(charge.id)).amount_refunded).toBe(599);
      await eventOf('refund.created', refund.id);
      await expect(stripe.paymentIntents.cancel(intent.id)).rejects.toMatchObject({ code: 'payment_intent_unexpected_state' });
    });

    it('declines 4000 0000 0000 0002 (action_failed, payment_failed), lets the till try again, cancel the action and cancel the payment', async () => {
      const reader = await stripe.terminal.readers.create({ registration_code: 'simulated-wpe' });
      const intent = await tillIntent(1500);
      await stripe.terminal.readers.processPaymentIntent(reader.id, { payment_intent: intent.id });
      const declined = await stripe.testHelpers.terminal.readers.presentPaymentMethod(reader.id, { card_present: { number: '4000000000000002' } });
      expect(declined.action).toMatchObject({ status: 'failed', failure_code: 'card_declined', failure_message: 'Your card was declined.' });
      expect(await stripe.paymentIntents.retrieve(intent.id)).toMatchObject({ status: 'requires_payment_method', latest_charge: null, last_payment_error: { code: 'card_declined', payment_method_type: 'card_present' } });
      expect((await eventOf('terminal.reader.action_failed', reader.id)).event.data.object).toMatchObject({ action: { status: 'failed', failure_code: 'card_declined' } });
      expect((await eventOf('payment_intent.payment_failed', intent.id)).event.data.object).toMatchObject({ last_payment_error: { decline_code: 'generic_decline' } });

      // The same PaymentIntent again at the reader; then the cashier cancels, and the sale is called off.
      expect((await stripe.terminal.readers.processPaymentIntent(reader.id, { payment_intent: intent.id })).action?.status).toBe('in_progress');
      expect(await stripe.terminal.readers.cancelAction(reader.id)).toMatchObject({ action: null });
      await expect(stripe.terminal.readers.cancelAction(reader.id)).rejects.toMatchObject({ statusCode: 400 });
      await expect(stripe.testHelpers.terminal.readers.presentPaymentMethod(reader.id)).rejects.toMatchObject({ statusCode: 400 });
      const canceled = await stripe.paymentIntents.cancel(intent.id, { cancellation_reason: 'requested_by_customer' });
      expect(canceled).toMatchObject({ status: 'canceled', cancellation_reason: 'requested_by_customer' });
      await eventOf('payment_intent.canceled', intent.id);
      await expect(stripe.terminal.readers.processPaymentIntent(reader.id, { payment_intent: intent.id })).rejects.toMatchObject({ code: 'payment_intent_unexpected_state' });
      const online = await stripe.paymentIntents.create({ amount: 1500, currency: 'usd' });
      expect(online.payment_method_types).toEqual(['card', 'link']);
      await expect(stripe.terminal.readers.processPaymentIntent(reader.id, { payment_intent: online.id })).rejects.toMatchObject({ param: 'payment_intent' });
    });

    it('authorises a manual-capture payment at the reader and captures it after', async () => {
      const reader = await stripe.terminal.readers.create({ registration_code: 'simulated-s700' });
      expect(reader.device_type).toBe('simulated_stripe_s700');
      const intent = await tillIntent(4200, undefined, { capture_method: 'manual' });
      await stripe.terminal.readers.processPaymentIntent(reader.id, { payment_intent: intent.id });
      await stripe.testHelpers.terminal.readers.presentPaymentMethod(reader.id);
      expect(await stripe.paymentIntents.retrieve(intent.id)).toMatchObject({ status: 'requires_capture', amount_capturable: 4200 });
      await eventOf('payment_intent.amount_capturable_updated', intent.id);
      await expect(stripe.refunds.create({ payment_intent: intent.id })).rejects.toMatchObject({ code: 'charge_not_refundable' });
      expect(await stripe.paymentIntents.capture(intent.id)).toMatchObject({ status: 'succeeded', amount_received: 4200, amount_capturable: 0 });
      await eventOf('payment_intent.succeeded', intent.id);
    });
  });
});
