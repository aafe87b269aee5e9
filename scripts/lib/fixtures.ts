import { adminDb } from './admin-sdk';
import { DEMO_ADMIN, PORTS, PROJECT_ID } from './env';

// The fixtures every client of a running shop needs, written once: the API tests
// (functions/test/helpers.ts), the fault tests (scripts/test-faults.ts) and the bench (bench/fixtures.ts).

async function identity<T = unknown>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${PORTS.auth}/identitytoolkit.googleapis.com/v1/${path}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${path} failed: ${JSON.stringify(json)}`);
  return json;
}

/** Marks an account's email verified, as the emailed link would (the Auth emulator's admin API). */
export async function verifyEmail(uid: string): Promise<void> {
  await identity(`projects/${PROJECT_ID}/accounts:update`, { localId: uid, emailVerified: true }, { Authorization: 'Bearer owner' });
}

export interface Customer { token: string; uid: string; email: string }

/**
 * A new email/password customer in the Auth emulator, signed in. Verified by default (orders need
 * a verified address), then signed in again so the token says `email_verified: true`.
 * `maxOpenOrders` lifts the shop's limit of 10 open orders for a burst from one account.
 */
export async function signUpCustomer(prefix = 'shopper', { verified = true, maxOpenOrders }: { verified?: boolean; maxOpenOrders?: number } = {}): Promise<Customer> {
  const email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'secret123';
  const signUp = await identity<{ idToken: string; localId: string }>('accounts:signUp?key=demo-api-key', { email, password, returnSecureToken: true });
  if (maxOpenOrders !== undefined) await adminDb().collection('customers').doc(signUp.localId).set({ maxOpenOrders }, { merge: true });
  if (!verified) return { token: signUp.idToken, uid: signUp.localId, email };
  await verifyEmail(signUp.localId);
  const signIn = await identity<{ idToken: string }>('accounts:signInWithPassword?key=demo-api-key', { email, password, returnSecureToken: true });
  return { token: signIn.idToken, uid: signUp.localId, email };
}

/** The demo admin's token from the shop at `base`. */
export async function adminLogin(base: string, credentials = DEMO_ADMIN): Promise<string> {
  const res = await fetch(`${base}/api/auth/admin`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(credentials) });
  const body = (await res.json()) as { token?: string; message?: string };
  if (!res.ok || !body.token) throw new Error(`Admin sign-in failed at ${base}: ${res.status} ${body.message ?? ''}`);
  return body.token;
}

/** A valid order body (POST /api/orders) for one copy of each book, at the books' current prices. */
export function orderBody(email: string, books: { _id: string; newPrice: number }[]) {
  const cents = books.reduce((sum, b) => sum + Math.round(b.newPrice * 100), 0);
  return {
    name: 'Test Shopper',
    email,
    phone: '5551234567',
    // Springfield, IL: the demo shop's free local delivery, tax included, so the books' price is the total.
    // Without `delivery` the order is priced as the shop's default for the address (issue 36).
    address: { street: '1 Main St', city: 'Springfield', country: 'US', state: 'IL', zipcode: '62701' },
    productIDs: books.map((b) => b._id),
    totalPrice: (cents / 100).toFixed(2),
  };
}
