import Stripe from 'stripe';
import { DEFAULT_TILL_ID } from '@bookstore/contract';
import { adminDb } from './admin-sdk';
import { STRIPE_STAND_IN_URL } from './env';

// Issue 57: `npm start` gives the local till a card reader. Stripe's simulated WisePOS E
// (registration code `simulated-wpe`) is registered at our stand-in, whose state lives in memory, so
// each start registers it afresh and points the shop's readers/local-till at it: 'Card on Terminal'
// at the counter then hands the payment to it (pay it with the stand-in's present_payment_method helper).

/** The counter's default till (issue 55: a device that never named its till is till-1). */
export const LOCAL_TILL = DEFAULT_TILL_ID;
export const LOCAL_READER_ID = 'local-till';

/** Registers it (the reader's Stripe id), or says why not: `STRIPE_API_BASE=` (empty) runs against Stripe itself. */
export async function registerLocalReader(secretKey: string, apiBase = process.env.STRIPE_API_BASE ?? STRIPE_STAND_IN_URL): Promise<string> {
  if (!apiBase) return 'not registered (real Stripe: register a reader under the dashboard with POST /api/admin/readers)';
  const base = new URL(apiBase);
  const stripe = new Stripe(secretKey, { host: base.hostname, port: Number(base.port), protocol: 'http' });
  const reader = await stripe.terminal.readers.create({ registration_code: 'simulated-wpe', label: 'Local till (simulated)', metadata: { tillId: LOCAL_TILL } });
  await adminDb().collection('readers').doc(LOCAL_READER_ID).set({
    stripeReaderId: reader.id, label: 'Local till (simulated)', tillId: LOCAL_TILL, deviceType: reader.device_type, createdAt: new Date().toISOString(), by: 'npm start',
  });
  return reader.id;
}
