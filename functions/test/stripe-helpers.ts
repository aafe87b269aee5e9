import { FieldPath } from 'firebase-admin/firestore';
import Stripe from 'stripe';
import { STRIPE_STAND_IN_URL } from '../../scripts/lib/env';
import { db, http, makeBooks, newCustomer, validOrder, type TestBook } from './helpers';

// Card payments in the API tests: orders placed by card through the function, paid and refunded
// at our stand-in for Stripe (scripts/lib/stripe-stand-in), whose events reach the function's
// webhook as Stripe's would. The suite gives this process the same test secrets as the function.

/** The stand-in the function under test talks to: the suite's, or one of test:quick's own beside a running shop (scripts/test-quick.ts). */
export const STAND_IN = process.env.STRIPE_API_BASE || STRIPE_STAND_IN_URL;
const secretKey = () => process.env.STRIPE_SECRET_KEY!;
export const webhookSecret = () => process.env.STRIPE_WEBHOOK_SECRET!;

/** The SDK, pointed at the stand-in, as the function uses it. */
export function sdk(): Stripe {
  const url = new URL(STAND_IN);
  return new Stripe(secretKey(), { apiVersion: '2026-10-28.endive', host: url.hostname, port: Number(url.port), protocol: 'http' });
}

export async function control<T = any>(path: string, json?: unknown): Promise<T> {
  const res = await fetch(`${STAND_IN}/_fake/${path}`, json === undefined ? {} : { method: 'POST', body: JSON.stringify(json) });
  if (!res.ok) throw new Error(`stand-in ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export interface CardOrder {
  id: string;
  sessionId: string;
  checkoutUrl: string;
  books: TestBook[];
  token: string;
  totalCents: number;
}

/** A new customer's card order of `count` books of their own (stock 5), placed through the API. */
export async function placeCardOrder(count = 1, priceCents = 3000): Promise<CardOrder> {
  const books = await makeBooks(count, 5, priceCents);
  const customer = await newCustomer('card');
  const res = await http('/api/orders', {
    method: 'POST', token: customer.token, headers: { 'Idempotency-Key': `card-${Date.now()}-${Math.random().toString(36).slice(2)}` },
    json: { ...validOrder(customer.email, books), payment: { method: 'card' } },
  });
  if (res.status !== 201) throw new Error(`card order: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body._id, sessionId: res.body.payment.sessionId, checkoutUrl: res.body.checkoutUrl, books, token: customer.token, totalCents: Math.round(res.body.totalPrice * 100) };
}

/** The order as stored. */
export const stored = async (id: string) => (await db().collection('orders').doc(id).get()).data()!;

/** Waits until the stored order satisfies `ok` (events arrive asynchronously, as Stripe's do). */
export async function until(id: string, ok: (doc: any) => boolean, what: string): Promise<any> {
  let doc: any;
  for (let i = 0; i < 200; i++) {
    doc = await stored(id);
    if (ok(doc)) return doc;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`order ${id} never ${what}: ${JSON.stringify(doc?.payment)} ${doc?.status}`);
}

/** Waits until every event the stand-in sent for `sessionId` has an answer from the webhook. */
export async function delivered(sessionId: string): Promise<{ id: string; type: string; statuses: number[] }[]> {
  for (let i = 0; i < 200; i++) {
    const events = await control<{ id: string; type: string; statuses: number[] }[]>(`events?session=${sessionId}`);
    if (events.every((e) => e.statuses.length > 0)) return events;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`events of ${sessionId} never delivered`);
}

/** Pays the order's session at the stand-in (its page's outcome), and waits until the webhook recorded it. */
export async function pay(order: CardOrder): Promise<any> {
  await control(`sessions/${order.sessionId}/pay`, { card: '4242424242424242' });
  return until(order.id, (d) => d.payment?.status === 'paid', 'paid');
}

/** A Stripe event signed as Stripe signs it (the SDK's helper), posted to the webhook. */
export async function postEvent(event: unknown, secret = webhookSecret(), tamper?: (payload: string) => string) {
  const payload = JSON.stringify(event);
  const header = sdk().webhooks.generateTestHeaderString({ payload, secret });
  return http('/api/stripe/webhook', { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header }, body: tamper ? tamper(payload) : payload });
}

/** An event of `type` about `object`, in Stripe's envelope. */
export const eventOf = (type: string, object: unknown) => ({
  id: `evt_test_${Date.now()}${Math.random().toString(36).slice(2, 10)}`, object: 'event', api_version: '2026-10-28.endive', created: Math.floor(Date.now() / 1000),
  data: { object }, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type,
});

export const mailsOf = async (orderId: string) =>
  (await db().collection('mail').where(FieldPath.documentId(), '>=', `${orderId}-`).where(FieldPath.documentId(), '<', `${orderId}-\uf8ff`).get()).docs.map((d) => d.id).sort();
