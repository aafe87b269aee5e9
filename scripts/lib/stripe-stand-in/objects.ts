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
    allowed_payment_method_types: null,
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
    payment_method_types: ['card'],
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

export function paymentIntent(input: { amount: number; currency: string; metadata: Record<string, string> }): Stripe.PaymentIntent {
  const id = newId('pi');
  return {
    id,
    object: 'payment_intent',
    amount: input.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    allowed_payment_method_types: null,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic_async',
    client_secret: `${id}_secret_${newId('x', 16).slice(2)}`,
    confirmation_method: 'automatic',
    created: nowSeconds(),
    currency: input.currency,
    customer: null,
    customer_account: null,
    description: null,
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
    payment_method_types: ['card'],
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
export function cardDeclined(): Stripe.PaymentIntent.LastPaymentError {
  return {
    type: 'card_error',
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: 'Your card was declined.',
    doc_url: 'https://stripe.com/docs/error-codes/card-declined',
  } as Stripe.PaymentIntent.LastPaymentError;
}

export function charge(input: { amount: number; currency: string; paymentIntentId: string; last4: string; metadata: Record<string, string> }): Stripe.Charge {
  const id = newId('ch');
  return {
    id,
    object: 'charge',
    amount: input.amount,
    amount_captured: input.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: newId('txn'),
    billing_details: { address: emptyAddress(), email: null, name: null, phone: null, tax_id: null },
    calculated_statement_descriptor: 'BOOKSTORE',
    captured: true,
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
    payment_method_details: {
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

export function event(type: string, object: Stripe.Event.Data.Object, request: { id: string | null; idempotency_key: string | null } = { id: null, idempotency_key: null }): Stripe.Event {
  return {
    id: newId('evt'),
    object: 'event',
    api_version: API_VERSION,
    created: nowSeconds(),
    data: { object },
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
