import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { parseForm } from './form';
import * as make from './objects';
import { paymentPage, type PageState } from './payment-page';

// Our stand-in for Stripe (issue 35): a small server the real `stripe` SDK talks to through its
// host, port and protocol options, with the state of what the shop calls (Checkout Sessions,
// PaymentIntents, Charges, Refunds), Stripe's idempotency keys, a payment page at each session's
// url, and a webhook sender that signs events with the SDK's own generateTestHeaderString. No npm
// package fakes Stripe offline with a session's life (stripe-mock needs Go or Docker). Its control
// API (/_fake/...) lets tests redeliver events and refund as Stripe's dashboard would.
// What only real Stripe can prove (3-D Secure, wallets, real retry timing): README.md.

export const CARDS = { pays: '4242424242424242', declined: '4000000000000002' } as const;

export interface StandInOptions {
  port: number;
  host?: string;
  /** Where events are delivered (the shop's POST /api/stripe/webhook), and the endpoint's signing secret. */
  webhookUrl: string;
  webhookSecret: string;
  /** Attempts per event when the endpoint does not answer 2xx (Stripe retries for days; we, a few seconds). */
  deliveryAttempts?: number;
  log?: (line: string) => void;
}

interface DeliveredEvent {
  event: Stripe.Event;
  sessionId: string | null;
  statuses: number[];
}

interface SessionRecord {
  session: Stripe.Checkout.Session;
  lineItems: { name: string; amount: number; quantity: number }[];
  declined: boolean;
}

export interface StripeStandIn {
  url: string;
  close(): Promise<void>;
  /** Waits until every event sent so far has been delivered (or has used its attempts). */
  settled(): Promise<void>;
}

type Json = Record<string, unknown>;
type Form = ReturnType<typeof parseForm>;

class ApiError extends Error {
  constructor(readonly status: number, readonly body: ReturnType<typeof make.stripeError>) {
    super(body.error.message);
  }
}

const invalid = (message: string, param?: string, code?: string) => new ApiError(400, make.stripeError('invalid_request_error', message, { ...(param ? { param } : {}), ...(code ? { code } : {}) }));
const missing = (what: string, id: string) => new ApiError(404, make.stripeError('invalid_request_error', `No such ${what}: '${id}'`, { code: 'resource_missing', param: 'id' }));

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const int = (v: unknown): number | undefined => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined);
const dict = (v: unknown): Record<string, string> => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string')) as Record<string, string> : {});

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': make.newId('req', 14), 'Stripe-Version': make.API_VERSION, ...headers });
  res.end(JSON.stringify(payload));
}

export async function startStripeStandIn(options: StandInOptions): Promise<StripeStandIn> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => {});
  const attempts = options.deliveryAttempts ?? 4;
  const sessions = new Map<string, SessionRecord>();
  const intents = new Map<string, Stripe.PaymentIntent>();
  const charges = new Map<string, Stripe.Charge>();
  const refunds = new Map<string, Stripe.Refund>();
  const events = new Map<string, DeliveredEvent>();
  const replies = new Map<string, { status: number; body: unknown; params: string }>();
  const inFlight = new Set<Promise<unknown>>();
  // The SDK only to sign events, exactly as Stripe signs them (its webhooks helper needs no key).
  const signer = new Stripe('sk_test_stand_in_signer', { apiVersion: make.API_VERSION });
  let base = '';

  // --- Webhooks ----------------------------------------------------------------------------------

  async function deliverOnce(delivered: DeliveredEvent): Promise<number> {
    const payload = JSON.stringify(delivered.event, null, 2);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: options.webhookSecret });
    let status = 0; // 0: the endpoint did not answer
    try {
      const res = await fetch(options.webhookUrl, { method: 'POST', headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': header, 'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' }, body: payload });
      status = res.status;
      await res.arrayBuffer();
    } catch {
      /* refused or reset: recorded as 0 */
    }
    delivered.statuses.push(status);
    return status;
  }

  async function deliver(delivered: DeliveredEvent): Promise<void> {
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const status = await deliverOnce(delivered);
      if (status >= 200 && status < 300) return;
      log(`webhook ${delivered.event.type} ${delivered.event.id}: ${status || 'no answer'} (attempt ${attempt} of ${attempts})`);
      await new Promise((r) => setTimeout(r, 500 * 2 ** (attempt - 1)));
    }
  }

  /** Records an event and sends it (unless `quiet`: a delivery lost on the way, for tests to redeliver later). */
  function emit(type: string, object: Stripe.Event.Data.Object, sessionId: string | null, request?: { id: string | null; idempotency_key: string | null }, quiet = false): Stripe.Event {
    // A snapshot: later changes to the object do not rewrite what was sent.
    const event = make.event(type, structuredClone(object), request);
    const delivered: DeliveredEvent = { event, sessionId, statuses: [] };
    events.set(event.id, delivered);
    if (quiet) return event;
    const p = deliver(delivered).finally(() => inFlight.delete(p));
    inFlight.add(p);
    return event;
  }

  // --- State changes -------------------------------------------------------------------------------

  function expireSession(record: SessionRecord, notify = true): void {
    const { session } = record;
    session.status = 'expired';
    session.url = null;
    const intent = intents.get(session.payment_intent as string);
    if (intent) {
      intent.status = 'canceled';
      intent.canceled_at = make.nowSeconds();
      intent.cancellation_reason = 'abandoned';
    }
    if (notify) emit('checkout.session.expired', session, session.id);
  }

  function pay(record: SessionRecord, card: string, quiet = false): 'paid' | 'declined' | 'invalid' {
    const digits = card.replace(/[\s-]/g, '');
    const intent = intents.get(record.session.payment_intent as string)!;
    if (digits === CARDS.declined) {
      intent.last_payment_error = make.cardDeclined();
      record.declined = true;
      return 'declined';
    }
    if (digits !== CARDS.pays) return 'invalid';
    const made = make.charge({ amount: intent.amount, currency: intent.currency, paymentIntentId: intent.id, last4: digits.slice(-4), metadata: intent.metadata });
    charges.set(made.id, made);
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, latest_charge: made.id, last_payment_error: null, payment_method: made.payment_method });
    Object.assign(record.session, { status: 'complete', payment_status: 'paid', url: null });
    emit('checkout.session.completed', record.session, record.session.id, undefined, quiet);
    return 'paid';
  }

  function createRefund(params: Form, idempotencyKey: string | null): Stripe.Refund {
    const intentId = str(params.payment_intent) ?? '';
    const chargeId = str(params.charge);
    const intent = intents.get(intentId) ?? [...intents.values()].find((i) => i.latest_charge === chargeId);
    if (!intent) throw missing('payment_intent', intentId || chargeId || '');
    const paid = intent.latest_charge ? charges.get(intent.latest_charge as string) : undefined;
    if (!paid) throw invalid(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, 'payment_intent');
    const left = paid.amount - paid.amount_refunded;
    if (left === 0) throw invalid(`Charge ${paid.id} has already been refunded.`, 'charge', 'charge_already_refunded');
    const amount = params.amount === undefined ? left : int(params.amount);
    if (amount === undefined || amount < 1) throw invalid('Invalid positive integer', 'amount');
    if (amount > left) throw invalid(`Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`, 'amount', 'amount_too_large');
    const reason = str(params.reason) as Stripe.Refund.Reason | undefined;
    const made = make.refund({ amount, currency: paid.currency, chargeId: paid.id, paymentIntentId: intent.id, reason: reason ?? null, metadata: dict(params.metadata) });
    refunds.set(made.id, made);
    paid.amount_refunded += amount;
    paid.refunded = paid.amount_refunded === paid.amount;
    const request = { id: make.newId('req', 14), idempotency_key: idempotencyKey };
    const sessionId = [...sessions.values()].find((s) => s.session.payment_intent === intent.id)?.session.id ?? null;
    emit('refund.created', made, sessionId, request);
    emit('charge.refunded', paid, sessionId, request);
    return made;
  }

  // Sessions expire on their own at expires_at, as at Stripe (and send their event).
  const clock = setInterval(() => {
    for (const record of sessions.values()) if (record.session.status === 'open' && record.session.expires_at <= make.nowSeconds()) expireSession(record);
  }, 1000);
  clock.unref();

  // --- The API the SDK calls ------------------------------------------------------------------------

  function createSession(params: Form): Stripe.Checkout.Session {
    if (params.mode !== 'payment') throw invalid('The stand-in supports mode=payment only', 'mode');
    const successUrl = str(params.success_url);
    if (!successUrl) throw invalid('Missing required param: success_url.', 'success_url');
    const items = Array.isArray(params.line_items) ? params.line_items : [];
    if (items.length === 0) throw invalid('Missing required param: line_items.', 'line_items');
    const lineItems = items.map((raw, i) => {
      const item = raw as Form;
      const price = (item.price_data ?? {}) as Form;
      const amount = int(price.unit_amount);
      const quantity = int(item.quantity) ?? 1;
      const name = str((price.product_data as Form | undefined)?.name);
      if (amount === undefined || !name || !str(price.currency)) throw invalid('line_items need price_data with currency, unit_amount and product_data[name]', `line_items[${i}][price_data]`);
      return { name, amount, quantity, currency: str(price.currency)! };
    });
    const currency = lineItems[0]!.currency;
    const total = lineItems.reduce((sum, l) => sum + l.amount * l.quantity, 0);
    const expiresAt = int(params.expires_at) ?? make.nowSeconds() + 24 * 3600;
    const span = expiresAt - make.nowSeconds();
    if (span < 30 * 60 - 5 || span > 24 * 3600) throw invalid('The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.', 'expires_at');
    const intentMeta = dict((params.payment_intent_data as Form | undefined)?.metadata);
    const intent = make.paymentIntent({ amount: total, currency, metadata: intentMeta });
    intents.set(intent.id, intent);
    const session = make.checkoutSession({
      amountTotal: total, currency, successUrl, cancelUrl: str(params.cancel_url) ?? null, clientReferenceId: str(params.client_reference_id) ?? null,
      customerEmail: str(params.customer_email) ?? null, metadata: dict(params.metadata), expiresAt, paymentIntentId: intent.id, url: (id) => `${base}/pay/${id}`,
    });
    sessions.set(session.id, { session, lineItems, declined: false });
    return session;
  }

  function sessionRecord(id: string): SessionRecord {
    const record = sessions.get(id);
    if (!record) throw missing('checkout.session', id);
    return record;
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    try {
      await answerApi(req, res, url);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      send(res, error.status, error.body);
    }
  }

  async function answerApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const auth = req.headers.authorization ?? '';
    if (!/^Bearer (sk|rk)_test_\S+$/.test(auth)) {
      throw new ApiError(401, make.stripeError('invalid_request_error', 'Invalid API Key provided (the stand-in takes any sk_test_... key).'));
    }
    const params = req.method === 'POST' ? parseForm(await body(req)) : parseForm(url.search.slice(1));
    const key = req.method === 'POST' ? (req.headers['idempotency-key'] as string | undefined) ?? null : null;
    const replayKey = key ? `${req.method} ${url.pathname} ${key}` : null;
    const previous = replayKey ? replies.get(replayKey) : undefined;
    if (previous) {
      if (previous.params !== JSON.stringify(params)) {
        throw new ApiError(400, make.stripeError('idempotency_error', `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`));
      }
      return send(res, previous.status, previous.body, { 'Idempotent-Replayed': 'true', 'Idempotency-Key': key! });
    }
    const path = url.pathname;
    let m: RegExpExecArray | null;
    let status = 200;
    let answer: unknown;
    try {
      if (req.method === 'POST' && path === '/v1/checkout/sessions') answer = createSession(params);
      else if (req.method === 'GET' && (m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path))) answer = sessionRecord(m[1]!).session;
      else if (req.method === 'POST' && (m = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path))) {
        const record = sessionRecord(m[1]!);
        if (record.session.status !== 'open') throw invalid(`Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${record.session.status}".`, undefined, 'checkout_session_not_open');
        expireSession(record);
        answer = record.session;
      } else if (req.method === 'GET' && (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) {
        answer = intents.get(m[1]!) ?? (() => { throw missing('payment_intent', m![1]!); })();
      } else if (req.method === 'POST' && path === '/v1/refunds') answer = createRefund(params, key);
      else if (req.method === 'GET' && (m = /^\/v1\/refunds\/([^/]+)$/.exec(path))) {
        answer = refunds.get(m[1]!) ?? (() => { throw missing('refund', m![1]!); })();
      } else if (req.method === 'GET' && path === '/v1/refunds') {
        const pi = str(params.payment_intent);
        const all = [...refunds.values()].filter((r) => !pi || r.payment_intent === pi).sort((a, b) => b.created - a.created);
        answer = make.list(all.slice(0, int(params.limit) ?? 10), '/v1/refunds');
      } else if (req.method === 'GET' && (m = /^\/v1\/charges\/([^/]+)$/.exec(path))) {
        answer = charges.get(m[1]!) ?? (() => { throw missing('charge', m![1]!); })();
      } else throw new ApiError(404, make.stripeError('invalid_request_error', `Unrecognized request URL (${req.method}: ${path}). The stand-in answers only what the shop calls.`));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status = error.status;
      answer = error.body;
    }
    // Stripe keeps an idempotent request's answer, errors included (except its own 5xx), for 24 hours.
    if (replayKey && status < 500) replies.set(replayKey, { status, body: answer, params: JSON.stringify(params) });
    send(res, status, answer, key ? { 'Idempotency-Key': key } : {});
  }

  // --- The payment page -------------------------------------------------------------------------

  function page(res: ServerResponse, state: PageState, status = 200): void {
    res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(paymentPage(state));
  }

  async function payPage(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const record = sessions.get(id);
    if (!record) return page(res, { kind: 'gone', message: 'This payment page does not exist.' }, 404);
    const { session } = record;
    if (session.status === 'open' && session.expires_at <= make.nowSeconds()) expireSession(record);
    if (session.status === 'expired') return page(res, { kind: 'gone', message: 'This payment page has expired.', back: session.cancel_url });
    if (session.status === 'complete') return page(res, { kind: 'gone', message: 'This order is already paid.', back: session.success_url });
    const view = { amount: session.amount_total ?? 0, currency: session.currency ?? 'usd', lines: record.lineItems, email: session.customer_email, cancelUrl: session.cancel_url, action: `/pay/${id}` };
    if (req.method !== 'POST') return page(res, { kind: 'form', ...view });
    const card = str(new URLSearchParams(await body(req)).get('card') ?? '') ?? '';
    const outcome = pay(record, card);
    if (outcome === 'paid') {
      res.writeHead(303, { Location: session.success_url!.replace('{CHECKOUT_SESSION_ID}', id) });
      return void res.end();
    }
    page(res, { kind: 'form', ...view, error: outcome === 'declined' ? 'Your card was declined.' : 'Your card number is invalid.' }, 402);
  }

  // --- The control API for tests (/_fake/...) ---------------------------------------------------

  async function control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const json = async (): Promise<Json> => {
      const text = await body(req);
      return text ? (JSON.parse(text) as Json) : {};
    };
    let m: RegExpExecArray | null;
    if (req.method === 'GET' && url.pathname === '/_fake/events') {
      const session = url.searchParams.get('session');
      const list = [...events.values()].filter((e) => !session || e.sessionId === session).map((e) => ({ id: e.event.id, type: e.event.type, statuses: e.statuses }));
      return send(res, 200, list);
    }
    if (req.method === 'GET' && url.pathname === '/_fake/sessions') {
      // Every session made for one order (its client_reference_id), oldest first: which are still payable.
      const order = url.searchParams.get('order');
      const list = [...sessions.values()].map((r) => r.session).filter((x) => x.client_reference_id === order).sort((a, b) => a.created - b.created);
      return send(res, 200, list.map((x) => ({ id: x.id, status: x.status, attempt: x.metadata?.attempt ?? null })));
    }
    if (req.method === 'POST' && (m = /^\/_fake\/events\/([^/]+)\/redeliver$/.exec(url.pathname))) {
      const delivered = events.get(m[1]!);
      if (!delivered) return send(res, 404, { message: `No event ${m[1]}` });
      const { times = 1, concurrent = 1 } = (await json()) as { times?: number; concurrent?: number };
      const statuses: number[] = [];
      // `times` deliveries, `concurrent` at a time: Stripe may deliver one event twice at once.
      for (let sent = 0; sent < times; sent += concurrent) {
        const batch = Array.from({ length: Math.min(concurrent, times - sent) }, () => deliverOnce(delivered));
        statuses.push(...(await Promise.all(batch)));
      }
      return send(res, 200, { statuses });
    }
    if (req.method === 'POST' && url.pathname === '/_fake/refunds') {
      // A refund the shop did not ask for, as made in Stripe's dashboard: no metadata of ours.
      const { payment_intent, amount } = (await json()) as { payment_intent?: string; amount?: number };
      try {
        const made = createRefund({ payment_intent: payment_intent ?? '', ...(amount !== undefined ? { amount: String(amount) } : {}) }, null);
        return send(res, 200, made);
      } catch (error) {
        if (error instanceof ApiError) return send(res, error.status, error.body);
        throw error;
      }
    }
    if (req.method === 'POST' && (m = /^\/_fake\/sessions\/([^/]+)\/expire$/.exec(url.pathname))) {
      // Time passing: the session ends at Stripe; `notify: false` loses its event (the job must notice).
      const record = sessions.get(m[1]!);
      if (!record) return send(res, 404, { message: `No session ${m[1]}` });
      const { notify = true } = (await json()) as { notify?: boolean };
      if (record.session.status === 'open') expireSession(record, notify);
      return send(res, 200, record.session);
    }
    if (req.method === 'POST' && (m = /^\/_fake\/sessions\/([^/]+)\/pay$/.exec(url.pathname))) {
      // The payment page's outcome without the page (API tests): { card } as typed.
      const record = sessions.get(m[1]!);
      if (!record) return send(res, 404, { message: `No session ${m[1]}` });
      if (record.session.status !== 'open') return send(res, 409, { message: `The session is ${record.session.status}` });
      const { card = CARDS.pays, notify = true } = (await json()) as { card?: string; notify?: boolean };
      return send(res, 200, { outcome: pay(record, card, !notify), session: record.session });
    }
    send(res, 404, { message: 'Unknown control route' });
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const handle = url.pathname.startsWith('/v1/')
      ? api(req, res, url)
      : url.pathname.startsWith('/pay/')
        ? payPage(req, res, decodeURIComponent(url.pathname.slice('/pay/'.length)))
        : url.pathname.startsWith('/_fake/')
          ? control(req, res, url)
          : Promise.resolve(send(res, 404, make.stripeError('invalid_request_error', 'Not found')));
    handle.catch((error: unknown) => {
      log(`stand-in error: ${(error as Error).stack ?? error}`);
      if (!res.headersSent) send(res, 500, make.stripeError('api_error', 'The stand-in failed: see its log.'));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, resolve);
  });
  base = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    async settled() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(clock);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
