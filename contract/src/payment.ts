import { z } from 'zod';
import { fromCents, parseMoneyInput } from './money';
import { text } from './text';

// How an order is paid (issue 35): cash on delivery (or at the counter), as always, or by card
// through a Stripe Checkout page. Money is stored in cents and answered in dollars, like the rest.

export const PAYMENT_METHODS = ['cash', 'card'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/**
 * `due`: cash, not collected yet. `awaiting`: card, no payment yet (a Checkout session is open or
 * can be opened). `failed`: the card's bank refused a delayed payment. `expired`: the session ran
 * out unpaid (the order is cancelled with it). The last two only ever follow `awaiting`.
 */
export const PAYMENT_STATUSES = ['due', 'awaiting', 'paid', 'failed', 'expired', 'partially_refunded', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** POST /api/orders `payment`: absent means cash, as before issue 35. */
export const PaymentRequestSchema = z
  .object({ method: z.enum(PAYMENT_METHODS, { error: "Payment method must be 'cash' or 'card'" }) })
  .strip();
export type PaymentRequest = z.infer<typeof PaymentRequestSchema>;

/** How long a card order waits for its payment: Stripe's shortest Checkout session. */
export const CHECKOUT_SESSION_MINUTES = 30;
/** New Checkout sessions one order may open ('Pay Now' again after leaving the payment page). */
export const MAX_PAYMENT_ATTEMPTS = 5;
/** Refunds one order may have (each is a line on the order the customer reads). */
export const MAX_REFUNDS_PER_ORDER = 20;

/**
 * Stripe's smallest card charge in USD (its "minimum charge amounts"): a card payment due below it is
 * refused before Stripe (BELOW_CARD_MINIMUM), never sent to fail there on every try.
 */
export const CARD_MINIMUM_CENTS = 50;

/** Whether `dueCents` can be paid by card at Stripe (nothing due needs no card at all). */
export const cardCanPay = (dueCents: number) => dueCents === 0 || dueCents >= CARD_MINIMUM_CENTS;

/** Why the card cannot pay `dueCents` (the quote's and the order's words), or null. */
export const cardMinimumReason = (dueCents: number): string | null =>
  cardCanPay(dueCents) ? null : `A card payment must be at least $${(CARD_MINIMUM_CENTS / 100).toFixed(2)}: pay the $${(dueCents / 100).toFixed(2)} in cash, or with a gift card`;

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
/** Stripe's: `pending` and `succeeded` both count as refunded (as Stripe counts them); `failed` counts for nothing. */
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** A refund as stored on the order (cents). `source`: our desk, or Stripe's dashboard (or API) directly. */
export interface StoredRefund {
  /** Ours: derived from the desk's Idempotency-Key, or `stripe-<re_id>` for a refund made in Stripe. */
  id: string;
  stripeRefundId?: string;
  amountCents: number;
  status: RefundStatus;
  source: 'desk' | 'stripe';
  /** Shown to the customer (their order page, the mail). */
  reason: string;
  /** Issue 55: the desk's note for staff, never in a customer's answer (paymentFromStored's 'customer' view). */
  staffNote?: string;
  at: string;
  /** The staff role that asked (never the username: the customer reads this). */
  by?: string;
  /** Books put back in stock with this refund (the desk's explicit choice per line). */
  restock: string[];
  /** Set once the refund's effects (counters, mail) were applied, so they are applied once. */
  applied?: boolean;
  /** sha256 of the desk's request (set once the desk recorded it): the same key with another body is refused. */
  requestHash?: string;
  /** Stripe's reason when the refund failed at the bank (refund.failed): the money was not returned. */
  failureReason?: string;
  /** What of this refund went back on the gift card that paid the order (issue 54: one refund, one record). */
  giftCardCents?: number;
  /** The customer was mailed of it (once, by the desk's record or by Stripe's event, whichever was first without the desk). */
  mailed?: boolean;
  /** Issue 54: given as store credit on a new gift card (its last 4), not back to the card or in cash. */
  storeCredit?: { giftCardId: string; last4: string };
}

export type PaymentProblemCode = 'PAID_AFTER_CANCEL' | 'PAID_TWICE' | 'AMOUNT_MISMATCH' | 'DISPUTED' | 'REFUND_FAILED';

/**
 * What went wrong with an order's money (issue 54): shown on the desk and listed on the Payment
 * problems page until the action that settles it (`resolvedAt`), never silently accepted.
 */
export interface PaymentProblem {
  code: PaymentProblemCode;
  /** What happened, for staff. */
  message: string;
  at: string;
  /** What the shop did about it by itself (the automatic refund and its state). */
  done?: string;
  /** What staff should do. */
  action?: string;
  /** Set by the action that settled it: the problem stays on the order as history, off the queue. */
  resolvedAt?: string;
}

/** A chargeback on the order's card payment (Stripe's charge.dispute.* events). */
export interface StoredDispute {
  id: string;
  status: string;
  amountCents: number;
  reason: string;
  /** When Stripe needs the shop's evidence by (ISO). */
  evidenceDueBy?: string;
  /** Set once a lost dispute's money was taken off the counters (once). */
  lostCounted?: boolean;
}

/** A dispute is open until Stripe closes it won or lost. */
export const disputeOpen = (d: Pick<StoredDispute, 'status'> | undefined) => !!d && !['won', 'lost', 'warning_closed', 'prevented'].includes(d.status);

/** An order's payment as stored (orders/{id}.payment). Cash orders carry it only once refunded. */
export interface StoredPayment {
  method: PaymentMethod;
  status: PaymentStatus;
  /** What the order asks: its total. */
  amountCents: number;
  /** What was received (card: Stripe's amount_total of the paid session; cash: set when refunded). */
  paidCents?: number;
  refundedCents: number;
  /** The current Checkout session, its page and its end. */
  sessionId?: string;
  checkoutUrl?: string;
  expiresAt?: string;
  /** Sessions replaced by a new attempt: their expiry does not end the order. */
  retiredSessions?: string[];
  attempts?: number;
  /** When an attempt began and its session is not attached yet: a second 'Pay Now' meanwhile waits (409). */
  openingSince?: string;
  paymentIntentId?: string;
  paidAt?: string;
  failed?: boolean;
  expired?: boolean;
  refunds?: StoredRefund[];
  problem?: PaymentProblem;
  dispute?: StoredDispute;
  /** The shop is closing this session for a cancel (issue 54): its expiry does not cancel the order itself. */
  closingForCancel?: { sessionId: string; at: string };
}

/** A refund as the API answers it (dollars). */
export interface Refund {
  id: string;
  amount: number;
  status: RefundStatus;
  source: 'desk' | 'stripe';
  reason: string;
  /** Issue 55: staff answers only (the desk's note); a customer's answer never has it. */
  staffNote?: string;
  at: string;
  by?: string;
  restock: string[];
}

/** An order's payment as the API answers it. */
export interface Payment {
  method: PaymentMethod;
  status: PaymentStatus;
  amount: number;
  /** What was received, when it differs from `amount` or was recorded. */
  paid?: number;
  refunded: number;
  sessionId?: string;
  checkoutUrl?: string;
  expiresAt?: string;
  refunds: Refund[];
  problem?: PaymentProblem;
  dispute?: { status: string; amount: number; reason: string; evidenceDueBy?: string };
}

const counted = (r: Pick<StoredRefund, 'status'>) => r.status === 'pending' || r.status === 'succeeded';

/** Refunded so far: pending and succeeded refunds, as Stripe counts them. */
export function refundedCentsOf(refunds: readonly StoredRefund[]): number {
  return refunds.filter(counted).reduce((sum, r) => sum + r.amountCents, 0);
}

/** What a new refund must fit beside (the same as refunded: a failed refund frees its amount). */
export const committedRefundCents = refundedCentsOf;

/**
 * The status the facts give, whatever order they arrived in: received money first (refunded in
 * part or in whole), then a refused delayed payment, an expired session, else still awaiting.
 */
export function cardPaymentStatus(p: Pick<StoredPayment, 'paidCents' | 'refunds' | 'failed' | 'expired' | 'problem'>): PaymentStatus {
  const paid = p.paidCents ?? 0;
  const refunded = refundedCentsOf(p.refunds ?? []);
  if (paid > 0 && !(p.problem?.code === 'AMOUNT_MISMATCH')) {
    if (refunded >= paid) return 'refunded';
    if (refunded > 0) return 'partially_refunded';
    return 'paid';
  }
  if (p.failed) return 'failed';
  if (p.expired) return 'expired';
  return 'awaiting';
}

/** Whether an order status means the cash was handed over (delivered, collected at the counter). */
const CASH_PAID_STATUSES = ['delivered', 'collected'];

/** A cash order's payment: `due` until delivered or collected, then paid; refunds recorded at the desk. */
export function cashPayment(orderStatus: string, totalCents: number, stored?: StoredPayment): StoredPayment {
  const refunds = stored?.refunds ?? [];
  const paidCents = CASH_PAID_STATUSES.includes(orderStatus) ? totalCents : 0;
  const refunded = refundedCentsOf(refunds);
  const status: PaymentStatus = paidCents === 0 ? 'due' : refunded >= paidCents ? 'refunded' : refunded > 0 ? 'partially_refunded' : 'paid';
  return { method: 'cash', status, amountCents: totalCents, paidCents, refundedCents: refunded, refunds };
}

/** What can still be refunded: received money less refunds made. */
export function refundableCents(p: StoredPayment): number {
  return Math.max(0, (p.paidCents ?? 0) - committedRefundCents(p.refunds ?? []));
}

/**
 * Who reads the answer (issue 55): a customer's never carries a refund's staff note; only the
 * routes that answer staff alone (the desk's list, a staff read of an order, the refund's answer) ask for 'staff'.
 */
export type OrderView = 'customer' | 'staff';

export function paymentFromStored(p: StoredPayment, view: OrderView = 'customer'): Payment {
  return {
    method: p.method,
    status: p.status,
    amount: fromCents(p.amountCents),
    ...(p.paidCents !== undefined && p.paidCents !== p.amountCents ? { paid: fromCents(p.paidCents) } : {}),
    refunded: fromCents(p.refundedCents),
    ...(p.sessionId ? { sessionId: p.sessionId } : {}),
    ...(p.checkoutUrl && p.status === 'awaiting' ? { checkoutUrl: p.checkoutUrl } : {}),
    ...(p.expiresAt ? { expiresAt: p.expiresAt } : {}),
    refunds: (p.refunds ?? []).map((r) => ({
      id: r.id, amount: fromCents(r.amountCents), status: r.status, source: r.source, reason: r.reason, at: r.at,
      ...(r.by ? { by: r.by } : {}), restock: r.restock, ...(view === 'staff' && r.staffNote ? { staffNote: r.staffNote } : {}),
    })),
    ...(p.problem ? { problem: p.problem } : {}),
    ...(p.dispute ? { dispute: { status: p.dispute.status, amount: fromCents(p.dispute.amountCents), reason: p.dispute.reason, ...(p.dispute.evidenceDueBy ? { evidenceDueBy: p.dispute.evidenceDueBy } : {}) } } : {}),
  };
}

/** The words the order pages show for a payment status. */
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  due: 'Pay on delivery',
  awaiting: 'Awaiting payment',
  paid: 'Paid',
  failed: 'Payment failed',
  expired: 'Payment expired',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
};

// ---------------------------------------------------------------------------------------------
// Refunds (POST /api/admin/orders/:id/refunds, owner and manager, with an Idempotency-Key)

export const RefundRequestSchema = z
  .object({
    amount: z.unknown().transform((value, ctx) => {
      const dollars = parseMoneyInput(value);
      if (dollars === null || dollars < 0.01) {
        ctx.addIssue({ code: 'custom', message: 'Amount must be at least 0.01, with at most 2 decimals' });
        return z.NEVER;
      }
      return dollars;
    }),
    /** Shown to the customer on their order and in the mail. */
    reason: text('Reason', 500),
    /** Issue 55: a note for staff only (why, who asked, what was agreed), never shown to the customer. */
    staffNote: text('Staff note', 500).optional(),
    /** Books put back in stock with the refund: an explicit choice per line (an order holds one copy of each). */
    restock: z
      .array(z.object({ bookId: z.string().min(1).max(64), quantity: z.literal(1, { error: 'An order holds one copy of each book: quantity must be 1' }) }).strip(), {
        error: 'restock must be a list of {bookId, quantity}',
      })
      .max(50)
      .default([])
      .refine((lines) => new Set(lines.map((l) => l.bookId)).size === lines.length, 'Each book may be restocked once'),
    /**
     * Issue 54: where the money part goes: back the way it was paid (the card through Stripe, or
     * cash; the default, left out) or as store credit on a new gift card the customer is mailed.
     */
    destination: z.enum(['original', 'store_credit'], { error: 'destination must be original or store_credit' }).optional()
      .transform((d) => (d === 'store_credit' ? d : undefined)),
  })
  .strip();
export type RefundRequest = z.input<typeof RefundRequestSchema>;
export type ParsedRefundRequest = z.output<typeof RefundRequestSchema>;

/** 409: the refund would take refunds past what was paid; nothing was stored. */
export interface RefundExceedsPaymentResponse {
  message: string;
  code: 'REFUND_EXCEEDS_PAYMENT';
  /** Dollars that can still be refunded. */
  refundable: number;
}

/** GET /api/checkout/payment-methods: what checkout may offer (card only when Stripe is configured). */
export interface PaymentMethods {
  methods: PaymentMethod[];
}

/** POST /api/orders/:id/payment (a new Checkout session for an unpaid card order). */
export interface CheckoutStart {
  checkoutUrl: string;
  sessionId: string;
}

// ---------------------------------------------------------------------------------------------
// Payment problems (GET /api/admin/payment-problems, owner and manager; issue 54)

/** One order on the payment problems queue: what happened, what the shop did, what staff should do. */
export interface PaymentProblemEntry {
  orderId: string;
  email: string;
  name: string;
  status: string;
  totalPrice: number;
  payment: { status: PaymentStatus; paid?: number; refunded: number };
  problem: PaymentProblem;
  dispute?: { status: string; amount: number; reason: string; evidenceDueBy?: string };
}

export interface PaymentProblemsPage {
  problems: PaymentProblemEntry[];
  nextCursor: string | null;
  /** How many orders are on the queue in all. */
  count: number;
}
