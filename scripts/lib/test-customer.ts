import { adminDb } from './admin-sdk';
import { PORTS, PROJECT_ID } from './env';

const identity = async <T>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> => {
  const res = await fetch(`http://127.0.0.1:${PORTS.auth}/identitytoolkit.googleapis.com/v1/${path}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${path} failed: ${JSON.stringify(json)}`);
  return json;
};

/**
 * A new email/password customer for the bench and the fault tests, with a verified email (orders
 * need one: the emulator's admin endpoint stands in for the emailed link) and, for a burst of
 * orders from one account, room for `maxOpenOrders` open orders (the shop's limit is 10).
 */
export async function verifiedCustomer(prefix: string, maxOpenOrders?: number): Promise<{ token: string; uid: string; email: string }> {
  const email = `${prefix}-${Date.now()}@example.com`;
  const password = `${prefix}-pass-1`;
  const { localId } = await identity<{ localId: string }>('accounts:signUp?key=demo-api-key', { email, password, returnSecureToken: true });
  await identity(`projects/${PROJECT_ID}/accounts:update`, { localId, emailVerified: true }, { Authorization: 'Bearer owner' });
  if (maxOpenOrders !== undefined) await adminDb().collection('customers').doc(localId).set({ maxOpenOrders }, { merge: true });
  // Signed in again: the sign-up's token still says email_verified: false.
  const { idToken } = await identity<{ idToken: string }>('accounts:signInWithPassword?key=demo-api-key', { email, password, returnSecureToken: true });
  return { token: idToken, uid: localId, email };
}
