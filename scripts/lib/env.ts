import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const PROJECT_ID = 'demo-bookstore';
export const HOST = '127.0.0.1';

/**
 * Several checkouts of the shop on one machine (a developer's git worktrees) each run their own
 * suite: BOOKSTORE_PORT_SLOT=N moves every local port by N x 10,000. Unset (slot 0), the ports are
 * the documented ones: Hosting 5000, Functions 5001, Firestore 8080, Auth 9099, Storage 9199.
 */
export const PORT_SLOT = Number(process.env.BOOKSTORE_PORT_SLOT ?? 0) || 0;
const slotted = (port: number) => port + PORT_SLOT * 10_000;

export const PORTS = {
  hosting: slotted(5000),
  functions: slotted(5001),
  firestore: slotted(8080),
  auth: slotted(9099),
  storage: slotted(9199),
  hub: slotted(4400),
  logging: slotted(4500),
  /** Our stand-in for Stripe's API, Checkout pages and webhooks (scripts/lib/stripe-stand-in/). */
  stripe: slotted(12111),
} as const;

export const STRIPE_STAND_IN_URL = `http://${HOST}:${PORTS.stripe}`;
/** Stripe's test cards, as the stand-in (and Stripe's test mode) treat them. */
export const TEST_CARDS = { pays: '4242 4242 4242 4242', declined: '4000 0000 0000 0002' } as const;

/**
 * The tests' stand-in for Open Library (scripts/lib/open-library-fixture.ts); `npm test` points
 * the function at it with OPEN_LIBRARY_ORIGIN, which only the emulators honour.
 */
export const OPEN_LIBRARY_FIXTURE_PORT = slotted(9471);
export const OPEN_LIBRARY_FIXTURE_ORIGIN = `http://${HOST}:${OPEN_LIBRARY_FIXTURE_PORT}`;

export const SHOP_URL = `http://${HOST}:${PORTS.hosting}`;
/** Where the stand-in (like Stripe) delivers events: the shop's public webhook, through Hosting. */
export const STRIPE_WEBHOOK_URL = `${SHOP_URL}/api/stripe/webhook`;
export const DEMO_ADMIN = { username: 'admin', password: 'admin123' };
export const DEMO_CUSTOMER = { email: 'reader@example.com', password: 'reader123', displayName: 'Riley Reader' };

/** Points firebase-admin (ours and the function's) at the local emulators. */
export const EMULATOR_ENV = {
  GCLOUD_PROJECT: PROJECT_ID,
  FIRESTORE_EMULATOR_HOST: `${HOST}:${PORTS.firestore}`,
  FIREBASE_AUTH_EMULATOR_HOST: `${HOST}:${PORTS.auth}`,
  FIREBASE_STORAGE_EMULATOR_HOST: `${HOST}:${PORTS.storage}`,
  STORAGE_EMULATOR_HOST: `http://${HOST}:${PORTS.storage}`,
  STORAGE_BUCKET: `${PROJECT_ID}.appspot.com`,
  METADATA_SERVER_DETECTION: 'none',
  // What the function and the web build take for the shop's origin and the emulators' addresses
  // (functions/src/pages/site-origin.ts, web/.env.emulator); the same values as in slot 0.
  BOOKSTORE_SHOP_ORIGIN: SHOP_URL,
  VITE_AUTH_EMULATOR_URL: `http://${HOST}:${PORTS.auth}`,
  VITE_FIRESTORE_EMULATOR_HOST: `${HOST}:${PORTS.firestore}`,
  // The Stripe SDK's host, port and protocol: our stand-in (functions/src/payments/stripe-client.ts).
  // `STRIPE_API_BASE= npm start` (empty) sends the function to Stripe itself, with real test keys (README).
  STRIPE_API_BASE: process.env.STRIPE_API_BASE ?? `http://${HOST}:${PORTS.stripe}`,
};

/** A command's options (node:util parseArgs); a mistake names the usage. */
export function cliArgs<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O, usage: string, allowPositionals = false) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new Error(`${(error as Error).message} ${usage}`, { cause: error });
  }
}
