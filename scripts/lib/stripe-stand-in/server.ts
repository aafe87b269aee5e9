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
// API (/_fake/...) lets tests redeliver events and refund as Stripe's dashboard would, open and
// close disputes, fail refunds, and make Stripe refuse or fail the next calls (issues 54, 55).
// Stripe Terminal's server-driven flow with a simulated reader (issue 57): readers, card_present
// PaymentIntents, process_payment_intent and Stripe's present_payment_method test helper.
// What only real Stripe can prove (3-D Secure, wallets, real retry timing): README.md.

export const CARDS = { pays: '4242424242424242', declined: '4000000000000002', insufficientFunds: '4000000000009995' } as const;

/** Most of any count a control route takes: a test needs a few, and a huge one would hang the stand-in. */
export const CONTROL_LIMITS = { times: 100, concurrent: 50, count: 100 } as const;

// Since API version 2026-09-30 (stripe-node 23) sessions and PaymentIntents take allowed_payment_method_types,
// a filter on the types Stripe finds eligible, in place of payment_method_types (now only in the answer).
/** Types a Checkout Session or a PaymentIntent may allow (a subset of Stripe's list: the ones a US shop could use). */
const ALLOWABLE_METHOD_TYPES = ['card', 'link', 'cashapp', 'us_bank_account', 'affirm', 'afterpay_clearpay', 'klarna', 'amazon_pay', 'paypal'];
/** What Stripe offers online when nothing narrows it: what a test account's dashboard enables by default. */
const DASHBOARD_METHOD_TYPES = ['card', 'link'];
/** A PaymentIntent made by the shop may also be paid at a Terminal reader. */
const INTENT_ELIGIBLE_TYPES = [...DASHBOARD_METHOD_TYPES, 'card_present'];

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
  /** Ids the event is about (its object, the PaymentIntent, the charge...): GET /_fake/events?related=<id>. */
  related: string[];
  statuses: number[];
}

/** The next `left` requests matching method, path and params get `answer` (POST /_fake/fail-next, /_fake/refunds/refuse-next). */
interface FailRule {
  id: string;
  method: string;
  path: string;
  params: Record<string, string>;
  left: number;
  answer: { status: number; body: ReturnType<typeof make.stripeError>; retry: boolean };
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

/** A control request refused: 400 bad input, 404 unknown id, 409 not in a state for it. Stripe's error shape. */
class ControlError extends Error {
  constructor(readonly status: number, message: string, readonly param?: string) {
    super(message);
  }
}
const badInput = (message: string, param?: string) => new ControlError(400, message, param);

/** The fields of a control request's JSON body, each checked: a count out of range would hang or flood the stand-in (issue 55). */
class ControlBody {
  constructor(private readonly json: Json) {}
  count(key: string, fallback: number, max: number): number {
    const v = this.json[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max) throw badInput(`${key} must be an integer from 1 to ${max}`, key);
    return v;
  }
  bool(key: string, fallback: boolean): boolean {
    const v = this.json[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') throw badInput(`${key} must be true or false`, key);
    return v;
  }
  text(key: string): string | undefined {
    const v = this.json[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v.length === 0 || v.length > 500) throw badInput(`${key} must be a non-empty string`, key);
    return v;
  }
  required(key: string): string {
    const v = this.text(key);
    if (v === undefined) throw badInput(`${key} is required`, key);
    return v;
  }
  oneOf<T extends string>(key: string, values: readonly T[], fallback: T): T;
  oneOf<T extends string>(key: string, values: readonly T[]): T | undefined;
  oneOf<T extends string>(key: string, values: readonly T[], fallback?: T): T | undefined {
    const v = this.json[key];
    if (v === undefined) return fallback;
    if (!values.includes(v as T)) throw badInput(`${key} must be one of ${values.join(', ')}`, key);
    return v as T;
  }
  strings(key: string): Record<string, string> {
    const v = this.json[key];
    if (v === undefined) return {};
    if (!v || typeof v !== 'object' || Array.isArray(v) || !Object.values(v).every((x) => typeof x === 'string')) throw badInput(`${key} must be an object of strings`, key);
    return v as Record<string, string>;
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
  const disputes = new Map<string, Stripe.Dispute>();
  const readers = new Map<string, Stripe.Terminal.Reader | Stripe.Terminal.DeletedReader>();
  const events = new Map<string, DeliveredEvent>();
  const replies = new Map<string, { status: number; body: unknown; params: string }>();
  const failRules: FailRule[] = [];
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

  /** The ids an object is about, for GET /_fake/events?related=. */
  function relatedIds(object: Stripe.Event.Data.Object): string[] {
    const o = object as Record<string, unknown> & { action?: { process_payment_intent?: { payment_intent?: unknown } } | null };
    const ids = [o.id, o.payment_intent, o.charge, o.latest_charge, o.action?.process_payment_intent?.payment_intent];
    return [...new Set(ids.filter((x): x is string => typeof x === 'string'))];
  }

  /** The Checkout Session a PaymentIntent was made for (null for a Terminal payment). */
  const sessionOf = (intentId: string | null | undefined) => [...sessions.values()].find((s) => s.session.payment_intent === intentId)?.session.id ?? null;

  interface EmitOptions {
    request?: { id: string | null; idempotency_key: string | null };
    /** A delivery lost on the way, for tests to redeliver later. */
    quiet?: boolean;
    /** An *.updated event's former values. */
    previous?: Record<string, unknown>;
  }

  /** Records an event and sends it (unless `quiet`). */
  function emit(type: string, object: Stripe.Event.Data.Object, sessionId: string | null, { request, quiet = false, previous }: EmitOptions = {}): Stripe.Event {
    // A snapshot: later changes to the object do not rewrite what was sent.
    const event = make.event(type, structuredClone(object), request, previous);
    const delivered: DeliveredEvent = { event, sessionId, related: relatedIds(object), statuses: [] };
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
    if (digits === CARDS.declined || digits === CARDS.insufficientFunds) {
      intent.last_payment_error = make.cardDeclined(digits === CARDS.declined ? 'generic_decline' : 'insufficient_funds');
      record.declined = true;
      return 'declined';
    }
    if (digits !== CARDS.pays) return 'invalid';
    const made = make.charge({ amount: intent.amount, currency: intent.currency, paymentIntentId: intent.id, last4: digits.slice(-4), metadata: intent.metadata });
    charges.set(made.id, made);
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, latest_charge: made.id, last_payment_error: null, payment_method: made.payment_method });
    Object.assign(record.session, { status: 'complete', payment_status: 'paid', url: null });
    emit('checkout.session.completed', record.session, record.session.id, { quiet });
    return 'paid';
  }

  /** The dispute of a charge that still blocks refunds (a chargeback open or lost). */
  const blockingDispute = (chargeId: string) => [...disputes.values()].find((d) => d.charge === chargeId && !d.is_charge_refundable);

  function createRefund(params: Form, idempotencyKey: string | null): Stripe.Refund {
    const intentId = str(params.payment_intent) ?? '';
    const chargeId = str(params.charge);
    const intent = intents.get(intentId) ?? [...intents.values()].find((i) => i.latest_charge === chargeId);
    if (!intent) throw missing('payment_intent', intentId || chargeId || '');
    const paid = intent.latest_charge ? charges.get(intent.latest_charge as string) : undefined;
    if (!paid) throw invalid(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, 'payment_intent');
    if (!paid.captured) throw invalid(`This PaymentIntent (${intent.id}) has not been captured: cancel it to release the authorization.`, 'payment_intent', 'charge_not_refundable');
    // Stripe's answer for refunding a chargeback: the money already went back through the dispute.
    if (blockingDispute(paid.id)) throw invalid(`Charge ${paid.id} has been charged back; cannot issue a refund.`, undefined, 'charge_disputed');
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
    const sessionId = sessionOf(intent.id);
    emit('refund.created', made, sessionId, { request });
    emit('charge.refunded', paid, sessionId, { request });
    return made;
  }

  /** The card network could not take the refund back (a closed card): the money returns to the shop's balance. */
  function failRefund(made: Stripe.Refund, reason: string, quiet: boolean): void {
    const previous = { status: made.status, failure_reason: null, failure_balance_transaction: null };
    Object.assign(made, { status: 'failed', failure_reason: reason, failure_balance_transaction: make.newId('txn') });
    const paid = charges.get(made.charge as string);
    if (paid) {
      paid.amount_refunded -= made.amount;
      paid.refunded = false;
    }
    const sessionId = sessionOf(made.payment_intent as string);
    emit('refund.updated', made, sessionId, { quiet, previous });
    emit('refund.failed', made, sessionId, { quiet });
  }

  function openDispute(intent: Stripe.PaymentIntent, reason: string, amount: number | undefined, quiet: boolean): Stripe.Dispute {
    const paid = intent.latest_charge ? charges.get(intent.latest_charge as string) : undefined;
    if (!paid) throw new ControlError(409, `PaymentIntent ${intent.id} has no charge to dispute`, 'payment_intent');
    if ([...disputes.values()].some((d) => d.charge === paid.id)) throw new ControlError(409, `Charge ${paid.id} is already disputed (Stripe allows one dispute per charge)`, 'payment_intent');
    if (amount !== undefined && amount > paid.amount) throw badInput(`amount must be at most the charge's ${paid.amount}`, 'amount');
    const made = make.dispute({ amount: amount ?? paid.amount, currency: paid.currency, chargeId: paid.id, paymentIntentId: intent.id, reason });
    disputes.set(made.id, made);
    paid.disputed = true;
    emit('charge.dispute.created', made, sessionOf(intent.id), { quiet });
    return made;
  }

  function closeDispute(dispute: Stripe.Dispute, status: 'won' | 'lost', quiet: boolean): void {
    if (dispute.status === 'won' || dispute.status === 'lost') throw new ControlError(409, `Dispute ${dispute.id} is already closed (${dispute.status})`);
    dispute.status = status;
    // Won: the funds come back and the charge may be refunded again; lost: they stay with the cardholder.
    dispute.is_charge_refundable = status === 'won';
    dispute.evidence_details.due_by = null;
    emit('charge.dispute.closed', dispute, sessionOf(dispute.payment_intent as string), { quiet });
  }

  // Sessions expire on their own at expires_at, as at Stripe (and send their event).
  const clock = setInterval(() => {
    for (const record of sessions.values()) if (record.session.status === 'open' && record.session.expires_at <= make.nowSeconds()) expireSession(record);
  }, 1000);
  clock.unref();

  // --- The API the SDK calls ------------------------------------------------------------------------

  /** allowed_payment_method_types[] as sent (undefined: not sent), and what Stripe offers of them: the eligible ones. */
  function methodTypes(params: Form, allowable: string[], eligible: string[]): { allowed: string[] | null; offered: string[] } {
    if (params.payment_method_types !== undefined) throw invalid('Received unknown parameter: payment_method_types. Did you mean allowed_payment_method_types?', 'payment_method_types', 'parameter_unknown');
    if (params.allowed_payment_method_types === undefined) return { allowed: null, offered: DASHBOARD_METHOD_TYPES.filter((t) => eligible.includes(t)) };
    const types = Array.isArray(params.allowed_payment_method_types) ? params.allowed_payment_method_types : [];
    if (types.length === 0) throw invalid('Invalid array', 'allowed_payment_method_types');
    types.forEach((t, i) => {
      if (typeof t !== 'string' || !allowable.includes(t)) throw invalid(`Invalid allowed_payment_method_types[${i}]: must be one of ${allowable.join(', ')}`, `allowed_payment_method_types[${i}]`);
    });
    const offered = eligible.filter((t) => types.includes(t));
    if (offered.length === 0) throw invalid(`None of the allowed_payment_method_types (${types.join(', ')}) is activated for this account and this payment.`, 'allowed_payment_method_types');
    return { allowed: types as string[], offered };
  }

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
    // Stripe echoes the types allowed and offers those enabled; without them, all the dashboard's (so a test can tell).
    const types = methodTypes(params, ALLOWABLE_METHOD_TYPES, DASHBOARD_METHOD_TYPES);
    const intentMeta = dict((params.payment_intent_data as Form | undefined)?.metadata);
    const intent = make.paymentIntent({ amount: total, currency, metadata: intentMeta, allowedPaymentMethodTypes: types.allowed, paymentMethodTypes: types.offered });
    intents.set(intent.id, intent);
    const session = make.checkoutSession({
      amountTotal: total, currency, successUrl, cancelUrl: str(params.cancel_url) ?? null, clientReferenceId: str(params.client_reference_id) ?? null,
      customerEmail: str(params.customer_email) ?? null, metadata: dict(params.metadata), expiresAt, paymentIntentId: intent.id, allowedPaymentMethodTypes: types.allowed && [...types.allowed], paymentMethodTypes: [...types.offered], url: (id) => `${base}/pay/${id}`,
    });
    sessions.set(session.id, { session, lineItems, declined: false });
    return session;
  }

  function sessionRecord(id: string): SessionRecord {
    const record = sessions.get(id);
    if (!record) throw missing('checkout.session', id);
    return record;
  }

  const intentOf = (id: string) => intents.get(id) ?? (() => { throw missing('payment_intent', id); })();

  /** POST /v1/payment_intents: a payment the shop takes itself (Terminal: allowed_payment_method_types[]=card_present). */
  function createIntent(params: Form): Stripe.PaymentIntent {
    const amount = int(params.amount);
    if (params.amount === undefined) throw invalid('Missing required param: amount.', 'amount');
    if (amount === undefined || amount < 1) throw invalid('Invalid positive integer', 'amount');
    const currency = str(params.currency)?.toLowerCase();
    if (!currency) throw invalid('Missing required param: currency.', 'currency');
    if (!/^[a-z]{3}$/.test(currency)) throw invalid(`Invalid currency: ${currency}.`, 'currency');
    if (currency === 'usd' && amount < 50) throw invalid('Amount must be at least $0.50 usd', 'amount', 'amount_too_small');
    const captureMethod = str(params.capture_method) ?? 'automatic_async';
    if (!['automatic', 'automatic_async', 'manual'].includes(captureMethod)) throw invalid('Invalid capture_method: must be one of automatic, automatic_async or manual', 'capture_method');
    if (params.confirm !== undefined && params.confirm !== 'false') throw invalid('The stand-in does not confirm PaymentIntents at creation: a reader or a session pays them', 'confirm');
    const types = methodTypes(params, [...ALLOWABLE_METHOD_TYPES, 'card_present'], INTENT_ELIGIBLE_TYPES);
    const made = make.paymentIntent({
      amount, currency, metadata: dict(params.metadata), allowedPaymentMethodTypes: types.allowed, paymentMethodTypes: types.offered,
      captureMethod: captureMethod as Stripe.PaymentIntent.CaptureMethod, description: str(params.description) ?? null,
    });
    intents.set(made.id, made);
    return made;
  }

  const CANCELABLE = ['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action', 'processing'];

  function cancelIntent(intent: Stripe.PaymentIntent, params: Form): Stripe.PaymentIntent {
    if (!CANCELABLE.includes(intent.status)) {
      throw invalid(`You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(', ')}.`, undefined, 'payment_intent_unexpected_state');
    }
    const reason = str(params.cancellation_reason);
    if (reason !== undefined && !['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'].includes(reason)) throw invalid('Invalid cancellation_reason', 'cancellation_reason');
    Object.assign(intent, { status: 'canceled', canceled_at: make.nowSeconds(), cancellation_reason: reason ?? null, amount_capturable: 0 });
    emit('payment_intent.canceled', intent, sessionOf(intent.id));
    return intent;
  }

  function captureIntent(intent: Stripe.PaymentIntent, params: Form): Stripe.PaymentIntent {
    if (intent.status !== 'requires_capture') {
      throw invalid(`This PaymentIntent could not be captured because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`, undefined, 'payment_intent_unexpected_state');
    }
    if (params.amount_to_capture !== undefined && int(params.amount_to_capture) !== intent.amount) throw invalid('The stand-in captures the full amount only', 'amount_to_capture');
    const paid = charges.get(intent.latest_charge as string)!;
    Object.assign(paid, { captured: true, amount_captured: paid.amount });
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, amount_capturable: 0 });
    emit('payment_intent.succeeded', intent, sessionOf(intent.id));
    return intent;
  }

  // --- Stripe Terminal (server-driven, simulated readers) ------------------------------------------

  function liveReader(id: string): Stripe.Terminal.Reader {
    const found = readers.get(id);
    if (!found || found.deleted) throw missing('terminal.reader', id);
    return found as Stripe.Terminal.Reader;
  }

  function createReader(params: Form): Stripe.Terminal.Reader {
    const code = str(params.registration_code);
    if (!code) throw invalid('Missing required param: registration_code.', 'registration_code');
    if (!make.SIMULATED_READERS[code]) throw invalid(`The registration code ${code} is not valid. The stand-in registers Stripe's simulated readers only: ${Object.keys(make.SIMULATED_READERS).join(', ')}.`, 'registration_code');
    const location = str(params.location);
    if (location !== undefined && !location.startsWith('tml_')) throw missing('terminal.location', location);
    const made = make.reader({ registrationCode: code, label: str(params.label) ?? null, location: location ?? null, metadata: dict(params.metadata) });
    readers.set(made.id, made);
    return made;
  }

  function listReaders(params: Form): Stripe.ApiList<Stripe.Terminal.Reader> {
    const limit = params.limit === undefined ? 10 : int(params.limit);
    if (limit === undefined || limit < 1 || limit > 100) throw invalid('This value must be greater than or equal to 1 and less than or equal to 100.', 'limit');
    const all = [...readers.values()].filter((r): r is Stripe.Terminal.Reader => !r.deleted).reverse()
      .filter((r) => (!params.location || r.location === params.location) && (!params.status || r.status === params.status) && (!params.device_type || r.device_type === params.device_type));
    return { ...make.list(all.slice(0, limit), '/v1/terminal/readers'), has_more: all.length > limit };
  }

  function processPaymentIntent(reader: Stripe.Terminal.Reader, params: Form): Stripe.Terminal.Reader {
    const intentId = str(params.payment_intent);
    if (!intentId) throw invalid('Missing required param: payment_intent.', 'payment_intent');
    const intent = intentOf(intentId);
    if (!intent.payment_method_types.includes('card_present')) throw invalid(`PaymentIntent ${intent.id} cannot be processed by a reader: create it with allowed_payment_method_types[]=card_present.`, 'payment_intent', 'payment_intent_invalid_parameter');
    if (intent.status !== 'requires_payment_method') throw invalid(`This PaymentIntent's status is ${intent.status}, but it must be requires_payment_method to be processed by a reader.`, 'payment_intent', 'payment_intent_unexpected_state');
    if (reader.action?.status === 'in_progress') throw invalid('Reader is currently busy processing another request. Cancel the current action or wait for it to finish.', undefined, 'terminal_reader_busy');
    reader.action = { type: 'process_payment_intent', status: 'in_progress', process_payment_intent: { payment_intent: intent.id }, failure_code: null, failure_message: null, api_error: null };
    return reader;
  }

  /** Stripe's test helper: a card tapped on a simulated reader finishes its action, and the payment, now. */
  function presentPaymentMethod(reader: Stripe.Terminal.Reader, params: Form): Stripe.Terminal.Reader {
    const action = reader.action;
    if (action?.status !== 'in_progress' || !action.process_payment_intent) throw invalid('This reader has no payment in progress to present a payment method to: call process_payment_intent first.', undefined, 'intent_invalid_state');
    if (params.type !== undefined && params.type !== 'card_present') throw invalid('The stand-in simulates type=card_present only', 'type');
    if (params.amount_tip !== undefined) throw invalid('The stand-in does not simulate tips', 'amount_tip');
    const number = (str((params.card_present as Form | undefined)?.number) ?? CARDS.pays).replace(/[\s-]/g, '');
    if (![CARDS.pays, CARDS.declined, CARDS.insufficientFunds].includes(number as never)) throw invalid(`The stand-in's reader knows the test cards ${Object.values(CARDS).join(', ')}`, 'card_present[number]', 'incorrect_number');
    const intent = intentOf(action.process_payment_intent.payment_intent as string);
    if (intent.status !== 'requires_payment_method') throw invalid(`This PaymentIntent's status is ${intent.status}: it cannot be paid.`, undefined, 'payment_intent_unexpected_state');
    const sessionId = sessionOf(intent.id);
    if (number !== CARDS.pays) {
      const error = make.cardDeclined(number === CARDS.declined ? 'generic_decline' : 'insufficient_funds', 'card_present');
      intent.last_payment_error = error;
      Object.assign(action, { status: 'failed', failure_code: 'card_declined', failure_message: error.message });
      emit('terminal.reader.action_failed', reader, sessionId);
      emit('payment_intent.payment_failed', intent, sessionId);
      return reader;
    }
    const manual = intent.capture_method === 'manual';
    const made = make.charge({ amount: intent.amount, currency: intent.currency, paymentIntentId: intent.id, last4: number.slice(-4), metadata: intent.metadata, presentAt: reader.id, uncaptured: manual });
    charges.set(made.id, made);
    Object.assign(intent, manual
      ? { status: 'requires_capture', amount_capturable: intent.amount }
      : { status: 'succeeded', amount_received: intent.amount });
    Object.assign(intent, { latest_charge: made.id, last_payment_error: null, payment_method: made.payment_method });
    action.status = 'succeeded';
    emit('terminal.reader.action_succeeded', reader, sessionId);
    emit(manual ? 'payment_intent.amount_capturable_updated' : 'payment_intent.succeeded', intent, sessionId);
    return reader;
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    try {
      await answerApi(req, res, url);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      send(res, error.status, error.body);
    }
  }

  /** The first fail rule this request matches, used up by one. */
  function failRuleFor(method: string, path: string, raw: string): FailRule | undefined {
    const sent = new URLSearchParams(raw);
    const rule = failRules.find((r) => r.method === method && r.path === path && Object.entries(r.params).every(([k, v]) => sent.get(k) === v));
    if (!rule) return undefined;
    if (--rule.left === 0) failRules.splice(failRules.indexOf(rule), 1);
    return rule;
  }

  async function answerApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const auth = req.headers.authorization ?? '';
    if (!/^Bearer (sk|rk)_test_\S+$/.test(auth)) {
      throw new ApiError(401, make.stripeError('invalid_request_error', 'Invalid API Key provided (the stand-in takes any sk_test_... key).'));
    }
    const raw = req.method === 'POST' ? await body(req) : url.search.slice(1);
    const params = parseForm(raw);
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
    const method = req.method ?? 'GET';
    let m: RegExpExecArray | null;
    let status = 200;
    let answer: unknown;
    const extraHeaders: Record<string, string> = {};
    try {
      const rule = failRuleFor(method, path, raw);
      if (rule) {
        // Stripe-Should-Retry: false stops the SDK's own retries, so a test's count is what the shop sees.
        if (!rule.answer.retry) extraHeaders['Stripe-Should-Retry'] = 'false';
        throw new ApiError(rule.answer.status, rule.answer.body);
      }
      if (method === 'POST' && path === '/v1/checkout/sessions') answer = createSession(params);
      else if (method === 'GET' && (m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path))) answer = sessionRecord(m[1]!).session;
      else if (method === 'POST' && (m = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path))) {
        const record = sessionRecord(m[1]!);
        if (record.session.status !== 'open') throw invalid(`Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${record.session.status}".`, undefined, 'checkout_session_not_open');
        expireSession(record);
        answer = record.session;
      } else if (method === 'POST' && path === '/v1/payment_intents') answer = createIntent(params);
      else if (method === 'GET' && (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) answer = intentOf(m[1]!);
      else if (method === 'POST' && (m = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path))) answer = cancelIntent(intentOf(m[1]!), params);
      else if (method === 'POST' && (m = /^\/v1\/payment_intents\/([^/]+)\/capture$/.exec(path))) answer = captureIntent(intentOf(m[1]!), params);
      else if (method === 'POST' && path === '/v1/refunds') answer = createRefund(params, key);
      else if (method === 'GET' && (m = /^\/v1\/refunds\/([^/]+)$/.exec(path))) {
        answer = refunds.get(m[1]!) ?? (() => { throw missing('refund', m![1]!); })();
      } else if (method === 'GET' && path === '/v1/refunds') {
        const pi = str(params.payment_intent);
        const all = [...refunds.values()].filter((r) => !pi || r.payment_intent === pi).sort((a, b) => b.created - a.created);
        answer = make.list(all.slice(0, int(params.limit) ?? 10), '/v1/refunds');
      } else if (method === 'GET' && (m = /^\/v1\/charges\/([^/]+)$/.exec(path))) {
        answer = charges.get(m[1]!) ?? (() => { throw missing('charge', m![1]!); })();
      } else if (method === 'GET' && (m = /^\/v1\/disputes\/([^/]+)$/.exec(path))) {
        answer = disputes.get(m[1]!) ?? (() => { throw missing('dispute', m![1]!); })();
      } else if (method === 'GET' && path === '/v1/disputes') {
        const pi = str(params.payment_intent);
        const charge = str(params.charge);
        const all = [...disputes.values()].filter((d) => (!pi || d.payment_intent === pi) && (!charge || d.charge === charge)).sort((a, b) => b.created - a.created);
        answer = make.list(all.slice(0, int(params.limit) ?? 10), '/v1/disputes');
      } else if (method === 'POST' && path === '/v1/terminal/readers') answer = createReader(params);
      else if (method === 'GET' && path === '/v1/terminal/readers') answer = listReaders(params);
      else if (method === 'GET' && (m = /^\/v1\/terminal\/readers\/([^/]+)$/.exec(path))) {
        // A deleted reader is still answered, as { id, object, deleted: true }, as Stripe does.
        answer = readers.get(m[1]!) ?? (() => { throw missing('terminal.reader', m![1]!); })();
      } else if (method === 'POST' && (m = /^\/v1\/terminal\/readers\/([^/]+)$/.exec(path))) {
        const reader = liveReader(m[1]!);
        if (params.label !== undefined) reader.label = str(params.label) ?? reader.label;
        if (params.metadata !== undefined) reader.metadata = { ...reader.metadata, ...dict(params.metadata) };
        answer = reader;
      } else if (method === 'DELETE' && (m = /^\/v1\/terminal\/readers\/([^/]+)$/.exec(path))) {
        const reader = liveReader(m[1]!);
        const gone: Stripe.Terminal.DeletedReader = { id: reader.id, object: 'terminal.reader', deleted: true, device_type: reader.device_type, serial_number: reader.serial_number };
        readers.set(reader.id, gone);
        answer = gone;
      } else if (method === 'POST' && (m = /^\/v1\/terminal\/readers\/([^/]+)\/process_payment_intent$/.exec(path))) answer = processPaymentIntent(liveReader(m[1]!), params);
      else if (method === 'POST' && (m = /^\/v1\/terminal\/readers\/([^/]+)\/cancel_action$/.exec(path))) {
        const reader = liveReader(m[1]!);
        if (reader.action?.status !== 'in_progress') throw invalid('This reader has no action in progress to cancel.', undefined, 'intent_invalid_state');
        reader.action = null; // as Stripe answers: the reader is free again, the PaymentIntent unpaid
        answer = reader;
      } else if (method === 'POST' && (m = /^\/v1\/test_helpers\/terminal\/readers\/([^/]+)\/present_payment_method$/.exec(path))) answer = presentPaymentMethod(liveReader(m[1]!), params);
      else throw new ApiError(404, make.stripeError('invalid_request_error', `Unrecognized request URL (${method}: ${path}). The stand-in answers only what the shop calls.`));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status = error.status;
      answer = error.body;
    }
    // Stripe keeps an idempotent request's answer, errors included (except its own 5xx), for 24 hours.
    if (replayKey && status < 500) replies.set(replayKey, { status, body: answer, params: JSON.stringify(params) });
    send(res, status, answer, { ...extraHeaders, ...(key ? { 'Idempotency-Key': key } : {}) });
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

  /** The request's JSON body, an object with only the fields the route takes (a typo is an error, not a default). */
  async function controlBody(req: IncomingMessage, fields: string[]): Promise<ControlBody> {
    const text = await body(req);
    let parsed: unknown = {};
    if (text.trim()) {
      try {
        parsed = JSON.parse(text);
      } catch {
        throw badInput('The body is not JSON');
      }
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badInput('The body must be a JSON object');
    const unknown = Object.keys(parsed).find((k) => !fields.includes(k));
    if (unknown) throw badInput(`Unknown field ${unknown}: this route takes ${fields.join(', ') || 'no fields'}`, unknown);
    return new ControlBody(parsed as Json);
  }

  const notFound = (what: string, id: string) => new ControlError(404, `No ${what} ${id}`);

  async function control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    try {
      await answerControl(req, res, url);
    } catch (error) {
      if (error instanceof ControlError) return send(res, error.status, make.stripeError('invalid_request_error', error.message, error.param ? { param: error.param } : {}));
      if (error instanceof ApiError) return send(res, error.status, error.body);
      throw error;
    }
  }

  async function answerControl(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    let m: RegExpExecArray | null;
    const path = url.pathname;
    const post = req.method === 'POST';
    if (req.method === 'GET' && path === '/_fake/events') {
      // Events about a session (?session=) or about any object (?related=pi_..., re_..., dp_..., tmr_...), oldest first.
      const session = url.searchParams.get('session');
      const related = url.searchParams.get('related');
      const list = [...events.values()].filter((e) => (!session || e.sessionId === session) && (!related || e.related.includes(related))).map((e) => ({ id: e.event.id, type: e.event.type, statuses: e.statuses }));
      return send(res, 200, list);
    }
    if (req.method === 'GET' && path === '/_fake/sessions') {
      // Every session made for one order (its client_reference_id), oldest first: which are still payable.
      const order = url.searchParams.get('order');
      if (!order) throw badInput('order is required', 'order');
      const list = [...sessions.values()].map((r) => r.session).filter((x) => x.client_reference_id === order).sort((a, b) => a.created - b.created);
      return send(res, 200, list.map((x) => ({ id: x.id, status: x.status, attempt: x.metadata?.attempt ?? null, allowed_payment_method_types: x.allowed_payment_method_types, payment_method_types: x.payment_method_types })));
    }
    if (post && (m = /^\/_fake\/events\/([^/]+)\/redeliver$/.exec(path))) {
      const input = await controlBody(req, ['times', 'concurrent']);
      const times = input.count('times', 1, CONTROL_LIMITS.times);
      const concurrent = input.count('concurrent', 1, CONTROL_LIMITS.concurrent);
      const delivered = events.get(m[1]!);
      if (!delivered) throw notFound('event', m[1]!);
      const statuses: number[] = [];
      // `times` deliveries, `concurrent` at a time: Stripe may deliver one event twice at once.
      for (let sent = 0; sent < times; sent += concurrent) {
        const batch = Array.from({ length: Math.min(concurrent, times - sent) }, () => deliverOnce(delivered));
        statuses.push(...(await Promise.all(batch)));
      }
      return send(res, 200, { statuses });
    }
    if (post && path === '/_fake/refunds') {
      // A refund the shop did not ask for, as made in Stripe's dashboard: no metadata of ours.
      const input = await controlBody(req, ['payment_intent', 'amount']);
      const paymentIntent = input.required('payment_intent');
      const amount = input.count('amount', 0, Number.MAX_SAFE_INTEGER);
      const made = createRefund({ payment_intent: paymentIntent, ...(amount ? { amount: String(amount) } : {}) }, null);
      return send(res, 200, made);
    }
    if (post && path === '/_fake/refunds/refuse-next') {
      // Stripe refusing the next refunds (of one PaymentIntent if given): 400 balance_insufficient, its usual refusal of a refund.
      const input = await controlBody(req, ['count', 'payment_intent']);
      const count = input.count('count', 1, CONTROL_LIMITS.count);
      const paymentIntent = input.text('payment_intent');
      const body = make.stripeError('invalid_request_error', 'Insufficient funds in Stripe account. In test mode, you can add funds to your available balance (bypassing your pending balance) by creating a charge with 4000 0000 0000 0077 as the card number.', { code: 'balance_insufficient' });
      const rule: FailRule = { id: make.newId('rule', 10), method: 'POST', path: '/v1/refunds', params: paymentIntent ? { payment_intent: paymentIntent } : {}, left: count, answer: { status: 400, body, retry: false } };
      failRules.push(rule);
      return send(res, 200, { id: rule.id, method: rule.method, path: rule.path, params: rule.params, count });
    }
    if (post && (m = /^\/_fake\/refunds\/([^/]+)\/fail$/.exec(path))) {
      const input = await controlBody(req, ['failure_reason', 'notify']);
      const reason = input.oneOf('failure_reason', ['expired_or_canceled_card', 'lost_or_stolen_card', 'unknown'] as const, 'expired_or_canceled_card');
      const notify = input.bool('notify', true);
      const made = refunds.get(m[1]!);
      if (!made) throw notFound('refund', m[1]!);
      if (made.status !== 'succeeded' && made.status !== 'pending') throw new ControlError(409, `Refund ${made.id} is ${made.status}`);
      failRefund(made, reason, !notify);
      return send(res, 200, made);
    }
    if (post && path === '/_fake/fail-next') {
      // Stripe down: the next `count` matching calls answer 500 api_error. `params` (form keys as the SDK
      // sends them, e.g. {"customer_email": "..."} or {"metadata[orderId]": "..."}) keeps one test's failure
      // away from the tests running beside it.
      const input = await controlBody(req, ['path', 'method', 'count', 'params', 'retry']);
      const target = input.required('path');
      if (!/^\/v1\/[\w/.-]+$/.test(target)) throw badInput('path must be a Stripe API path such as /v1/checkout/sessions', 'path');
      const method = input.oneOf('method', ['POST', 'GET', 'DELETE'] as const, 'POST');
      const count = input.count('count', 1, CONTROL_LIMITS.count);
      const params = input.strings('params');
      const retry = input.bool('retry', false);
      const rule: FailRule = { id: make.newId('rule', 10), method, path: target, params, left: count, answer: { status: 500, body: make.stripeError('api_error', 'An unknown error occurred (the stand-in was told to fail this request).'), retry } };
      failRules.push(rule);
      return send(res, 200, { id: rule.id, method, path: target, params, count });
    }
    if (req.method === 'DELETE' && (m = /^\/_fake\/fail-next\/([^/]+)$/.exec(path))) {
      // Drops a rule a test no longer needs (its calls never came): how many failures it had left.
      const rule = failRules.find((r) => r.id === m![1]);
      if (!rule) throw notFound('rule (used up or never made)', m[1]!);
      failRules.splice(failRules.indexOf(rule), 1);
      return send(res, 200, { id: rule.id, left: rule.left });
    }
    if (post && path === '/_fake/disputes') {
      // The cardholder's bank disputes the payment (a chargeback): charge.dispute.created.
      const input = await controlBody(req, ['payment_intent', 'reason', 'amount', 'notify']);
      const intentId = input.required('payment_intent');
      const reason = input.oneOf('reason', make.DISPUTE_REASONS, 'fraudulent');
      const amount = input.count('amount', 0, Number.MAX_SAFE_INTEGER) || undefined;
      const notify = input.bool('notify', true);
      const intent = intents.get(intentId);
      if (!intent) throw notFound('payment_intent', intentId);
      return send(res, 200, openDispute(intent, reason, amount, !notify));
    }
    if (post && (m = /^\/_fake\/disputes\/([^/]+)\/close$/.exec(path))) {
      const input = await controlBody(req, ['status', 'notify']);
      const status = input.oneOf('status', ['won', 'lost'] as const);
      if (!status) throw badInput('status is required: won or lost', 'status');
      const notify = input.bool('notify', true);
      const dispute = disputes.get(m[1]!);
      if (!dispute) throw notFound('dispute', m[1]!);
      closeDispute(dispute, status, !notify);
      return send(res, 200, dispute);
    }
    if (post && (m = /^\/_fake\/sessions\/([^/]+)\/expire$/.exec(path))) {
      // Time passing: the session ends at Stripe; `notify: false` loses its event (the job must notice).
      const input = await controlBody(req, ['notify']);
      const notify = input.bool('notify', true);
      const record = sessions.get(m[1]!);
      if (!record) throw notFound('session', m[1]!);
      if (record.session.status === 'open') expireSession(record, notify);
      return send(res, 200, record.session);
    }
    if (post && (m = /^\/_fake\/sessions\/([^/]+)\/pay$/.exec(path))) {
      // The payment page's outcome without the page (API tests): { card } as typed.
      const input = await controlBody(req, ['card', 'notify']);
      const card = input.text('card') ?? CARDS.pays;
      const notify = input.bool('notify', true);
      const record = sessions.get(m[1]!);
      if (!record) throw notFound('session', m[1]!);
      if (record.session.status !== 'open') throw new ControlError(409, `The session is ${record.session.status}`);
      return send(res, 200, { outcome: pay(record, card, !notify), session: record.session });
    }
    throw new ControlError(404, `Unknown control route ${req.method} ${path}`);
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
