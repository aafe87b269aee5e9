import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';

// The stand-in's objects, typed with the `stripe` SDK's own types: a field the SDK says the object
// has cannot be left out (the compiler refuses), and stand-in.test.ts compares each one with
// Stripe's published example of that resource (fixtures/stripe-examples.json).

export const API_VERSION = '2026-10-28.endive';

/** Ids in Stripe's style: a prefix, then random letters and digits. */
export function newId(prefix: string, length = 24): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return `${prefix}_${[...randomBytes(length)].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

const emptyAddress = (): Stripe.Address => ({ city: null, country: null, line1: null, line2: null, postal_code: null, state: null });

export interface SessionInput {
  amountTotal: number;
  currency: string;
  successUrl: string;
  cancelUrl: string | null;
  clientReferenceId: string | null;
  customerEmail: string | null;
  metadata: Record<string, string>;
  expiresAt: number;
  paymentIntentId: string;
  /** What the shop allowed (allowed_payment_method_types, echoed; null: not sent), and what Stripe offers of it. */
  allowedPaymentMethodTypes: string[] | null;
  paymentMethodTypes: string[];
  url: (id: string) => string;
}

export function checkoutSession(input: SessionInput): Stripe.Checkout.Session {
  const id = newId('cs_test', 58);
  return {
    id,
    object: 'checkout.session',
    adaptive_pricing: { enabled: false },
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: input.allowedPaymentMethodTypes,
    amount_subtotal: input.amountTotal,
    amount_total: input.amountTotal,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: input.cancelUrl,
    client_reference_id: input.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: nowSeconds(),
    currency: input.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: null,
    customer_account: null,
    customer_creation: 'if_required',
    customer_details: input.customerEmail
      ? { address: null, business_name: null, email: input.customerEmail, individual_name: null, name: null, phone: null, tax_exempt: 'none', tax_ids: [] }
      : null,
    customer_email: input.customerEmail,
    discounts: [],
    expires_at: input.expiresAt,
    integration_identifier: null,
    invoice: null,
    invoice_creation: {
      enabled: false,
      invoice_data: {
        account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: null, metadata: {},
        rendering_options: null,
      },
    },
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: input.metadata,
    mode: 'payment',
    origin_context: null,
    // Created with the session here (Stripe creates it when the page confirms; the id is what counts).
    payment_intent: input.paymentIntentId,
    payment_link: null,
    payment_method_collection: 'if_required',
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: input.paymentMethodTypes,
    payment_status: 'unpaid',
    permissions: null,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: input.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: input.url(id),
    wallet_options: null,
  };
}

export interface IntentInput {
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  /** allowed_payment_method_types as sent (echoed; null: not sent), and what Stripe offers of it (a Terminal payment: ['card_present']). */
  allowedPaymentMethodTypes?: string[] | null;
  paymentMethodTypes?: string[];
  captureMethod?: Stripe.PaymentIntent.CaptureMethod;
  description?: string | null;
}

export function paymentIntent(input: IntentInput): Stripe.PaymentIntent {
  const id = newId('pi');
  return {
    id,
    object: 'payment_intent',
    amount: input.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    allowed_payment_method_types: input.allowedPaymentMethodTypes ?? null,
    application: null,
    application_fee_amount: null,
    // Without a list of allowed types Stripe picks them itself (dynamic payment methods).
    automatic_payment_methods: input.allowedPaymentMethodTypes ? null : { allow_redirects: 'always', enabled: true },
    canceled_at: null,
    cancellation_reason: null,
    capture_method: input.captureMethod ?? 'automatic_async',
    client_secret: `${id}_secret_${newId('x', 16).slice(2)}`,
    confirmation_method: 'automatic',
    created: nowSeconds(),
    currency: input.currency,
    customer: null,
    customer_account: null,
    description: input.description ?? null,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: input.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: input.paymentMethodTypes ?? ['card'],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
  };
}

/** A declined attempt, as Stripe records it on the PaymentIntent (the session stays open). */
export function cardDeclined(declineCode = 'generic_decline', paymentMethodType = 'card'): Stripe.PaymentIntent.LastPaymentError {
  return {
    type: 'card_error',
    code: 'card_declined',
    decline_code: declineCode,
    message: declineCode === 'insufficient_funds' ? 'Your card has insufficient funds.' : 'Your card was declined.',
    doc_url: 'https://stripe.com/docs/error-codes/card-declined',
    payment_method_type: paymentMethodType,
  } as Stripe.PaymentIntent.LastPaymentError;
}

export interface ChargeInput {
  amount: number;
  currency: string;
  paymentIntentId: string;
  last4: string;
  metadata: Record<string, string>;
  /** A card tapped or inserted at a Terminal reader (`card_present`), not typed on a page. */
  presentAt?: string;
  /** Authorised only (capture_method manual): captured later. */
  uncaptured?: boolean;
}

/** A card_present charge's details, as a Terminal reader reports them. */
function cardPresentDetails(input: ChargeInput): Stripe.Charge.PaymentMethodDetails {
  return {
    type: 'card_present',
    card_present: {
      amount_authorized: input.amount, brand: 'visa', brand_product: null, cardholder_name: null, country: 'US', emv_auth_data: 'standInEmvAuthData',
      exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, fingerprint: 'standInPresentFingerprint', funding: 'credit', generated_card: null,
      incremental_authorization_supported: false, last4: input.last4, network: 'visa', network_transaction_id: null, offline: null,
      overcapture_supported: false, preferred_locales: ['en'], read_method: 'contactless_emv', reader: input.presentAt, receipt: null,
    } as Stripe.Charge.PaymentMethodDetails.CardPresent,
  } as Stripe.Charge.PaymentMethodDetails;
}

export function charge(input: ChargeInput): Stripe.Charge {
  const id = newId('ch');
  return {
    id,
    object: 'charge',
    amount: input.amount,
    amount_captured: input.uncaptured ? 0 : input.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: newId('txn'),
    billing_details: { address: emptyAddress(), email: null, name: null, phone: null, tax_id: null },
    calculated_statement_descriptor: 'BOOKSTORE',
    captured: !input.uncaptured,
    created: nowSeconds(),
    currency: input.currency,
    customer: null,
    description: null,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: false,
    metadata: input.metadata,
    on_behalf_of: null,
    outcome: {
      advice_code: null, network_advice_code: null, network_decline_code: null, network_status: 'approved_by_network',
      reason: null, risk_level: 'normal', risk_score: 10, seller_message: 'Payment complete.', type: 'authorized',
    } as Stripe.Charge.Outcome,
    paid: true,
    payment_intent: input.paymentIntentId,
    payment_method: newId('pm'),
    payment_method_details: input.presentAt ? cardPresentDetails(input) : {
      type: 'card',
      card: {
        amount_authorized: input.amount, authorization_code: null, brand: 'visa',
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
        country: 'US', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3,
        extended_authorization: { status: 'disabled' }, fingerprint: 'standInFingerprint', funding: 'credit',
        incremental_authorization: { status: 'unavailable' }, installments: null, last4: input.last4, mandate: null,
        multicapture: { status: 'unavailable' }, network: 'visa', network_token: { used: false }, network_transaction_id: null,
        overcapture: { maximum_amount_capturable: input.amount, status: 'unavailable' }, regulated_status: 'unregulated', three_d_secure: null,
        transaction_link_id: null, wallet: null,
      } as Stripe.Charge.PaymentMethodDetails.Card,
    } as Stripe.Charge.PaymentMethodDetails,
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    refunds: { object: 'list', data: [], has_more: false, url: `/v1/charges/${id}/refunds` },
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'succeeded',
    transfer_data: null,
    transfer_group: null,
  };
}

export function refund(input: { amount: number; currency: string; chargeId: string; paymentIntentId: string; reason: Stripe.Refund.Reason | null; metadata: Record<string, string> }): Stripe.Refund {
  return {
    id: newId('re'),
    object: 'refund',
    amount: input.amount,
    balance_transaction: newId('txn'),
    charge: input.chargeId,
    created: nowSeconds(),
    currency: input.currency,
    customer: null,
    customer_account: null,
    destination_details: { type: 'card', card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' } } as Stripe.Refund.DestinationDetails,
    metadata: input.metadata,
    payment_intent: input.paymentIntentId,
    payment_method: null,
    reason: input.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
}

/** Card networks' reason codes behind Stripe's dispute reasons (Visa's), shown on the dispute. */
const VISA_REASON_CODES: Record<string, string> = { fraudulent: '10.4', product_not_received: '13.1', duplicate: '12.6.1', subscription_canceled: '13.2', product_unacceptable: '13.3', credit_not_processed: '13.6', general: '13.1' };

export const DISPUTE_REASONS = ['bank_cannot_process', 'check_returned', 'credit_not_processed', 'customer_initiated', 'debit_not_authorized', 'duplicate', 'fraudulent', 'general', 'incorrect_account_details', 'insufficient_funds', 'noncompliant', 'product_not_received', 'product_unacceptable', 'subscription_canceled', 'unrecognized'] as const;

/** A chargeback (not an inquiry): the funds are withdrawn, the charge cannot be refunded, evidence is due in 7 days. */
export function dispute(input: { amount: number; currency: string; chargeId: string; paymentIntentId: string; reason: string }): Stripe.Dispute {
  const noEvidence = {
    access_activity_log: null, billing_address: null, cancellation_policy: null, cancellation_policy_disclosure: null, cancellation_rebuttal: null,
    customer_communication: null, customer_email_address: null, customer_name: null, customer_purchase_ip: null, customer_signature: null,
    duplicate_charge_documentation: null, duplicate_charge_explanation: null, duplicate_charge_id: null, enhanced_evidence: {}, product_description: null,
    receipt: null, refund_policy: null, refund_policy_disclosure: null, refund_refusal_explanation: null, service_date: null, service_documentation: null,
    shipping_address: null, shipping_carrier: null, shipping_date: null, shipping_documentation: null, shipping_tracking_number: null,
    uncategorized_file: null, uncategorized_text: null,
  };
  return {
    id: newId('dp'),
    object: 'dispute',
    amount: input.amount,
    balance_transactions: [],
    charge: input.chargeId,
    created: nowSeconds(),
    currency: input.currency,
    enhanced_eligibility_types: [],
    evidence: noEvidence,
    evidence_details: { due_by: nowSeconds() + 7 * 24 * 3600, enhanced_eligibility: {}, has_evidence: false, past_due: false, submission_count: 0, submission_method: 'not_submitted' },
    intended_submission_method: null,
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: input.paymentIntentId,
    payment_method_details: { type: 'card', card: { brand: 'visa', case_type: 'chargeback', network: 'visa', network_reason_code: VISA_REASON_CODES[input.reason] ?? null } },
    reason: input.reason,
    status: 'needs_response',
  };
}

/** Stripe's registration codes for its simulated readers (Terminal testing guide), and what each registers. */
export const SIMULATED_READERS: Record<string, Stripe.Terminal.Reader.DeviceType> = { 'simulated-wpe': 'simulated_wisepos_e', 'simulated-s700': 'simulated_stripe_s700' };

export function reader(input: { registrationCode: string; label: string | null; location: string | null; metadata: Record<string, string> }): Stripe.Terminal.Reader {
  const serial = `${input.registrationCode}-${newId('x', 12).slice(2)}`;
  return {
    id: newId('tmr'),
    object: 'terminal.reader',
    action: null,
    device_sw_version: '',
    device_type: SIMULATED_READERS[input.registrationCode]!,
    ip_address: '0.0.0.0',
    label: input.label ?? serial,
    last_seen_at: nowSeconds() * 1000,
    livemode: false,
    location: input.location,
    metadata: input.metadata,
    serial_number: serial,
    status: 'online',
  };
}

export function event(type: string, object: Stripe.Event.Data.Object, request: { id: string | null; idempotency_key: string | null } = { id: null, idempotency_key: null }, previous?: Record<string, unknown>): Stripe.Event {
  return {
    id: newId('evt'),
    object: 'event',
    api_version: API_VERSION,
    created: nowSeconds(),
    // An *.updated event carries the changed fields' former values, as Stripe's do.
    data: previous ? { object, previous_attributes: previous } : { object },
    livemode: false,
    pending_webhooks: 1,
    request,
    type,
  } as Stripe.Event;
}

export function list<T>(data: T[], url: string): Stripe.ApiList<T> {
  return { object: 'list', data, has_more: false, url };
}

/** Stripe's error body: `{ error: { type, code?, message, param? } }`, which the SDK turns into its error classes. */
export function stripeError(type: string, message: string, extra: { code?: string; param?: string } = {}) {
  return { error: { type, message, ...extra } };
}
