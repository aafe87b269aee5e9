import { readFileSync } from 'node:fs';
import { bookFieldsOf, BookInputSchema, FulfilmentSettingsSchema, type BookFields, type FulfilmentSettings } from '@bookstore/contract';
import { getApps, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { bookDoc } from '../../functions/src/books/book-doc';
import { hashPassword } from '../../functions/src/lib/passwords';
import { adminDb, commitInBatches } from './admin-sdk';
import { DEMO_ADMIN, DEMO_CUSTOMER, PROJECT_ID, ROOT } from './env';

export function seedBooks(): BookFields[] {
  const raw = JSON.parse(readFileSync(`${ROOT}emulator-data/seed/books.json`, 'utf8')) as unknown[];
  return raw.map((book) => bookFieldsOf(BookInputSchema.parse(book)));
}

/** The demo admin's password is public; writing it anywhere but an emulator would open the shop. */
function assertEmulator(): void {
  if (!process.env.FIRESTORE_EMULATOR_HOST || !process.env.FIREBASE_AUTH_EMULATOR_HOST) {
    throw new Error('Refusing to seed demo accounts: FIRESTORE_EMULATOR_HOST and FIREBASE_AUTH_EMULATOR_HOST must point at emulators.');
  }
}

/** Writes books with createdAt one minute apart, the first of the list the newest. */
export async function writeBooks(books: BookFields[], now = Date.now()): Promise<void> {
  const db = adminDb();
  await commitInBatches(books.map((book, i) => (batch) => {
    const createdAt = new Date(now - i * 60_000).toISOString();
    batch.set(db.collection('books').doc(), bookDoc(book, { createdAt, updatedAt: createdAt }));
  }));
}

/**
 * The local demo owner, `admin` / `admin123`: older than the 12-character rule (which applies to
 * new passwords) and exempt from the shop's two-factor requirement (`totpExempt`), so the demo
 * stays two commands. Only ever written to emulators.
 */
export async function seedAdmin(): Promise<void> {
  assertEmulator();
  const passwordHash = await hashPassword(DEMO_ADMIN.password);
  await adminDb().collection('admins').doc(DEMO_ADMIN.username).set({
    username: DEMO_ADMIN.username, displayName: 'Demo Owner', role: 'owner', disabled: false, totpExempt: true, passwordHash,
  });
}

export async function seedCustomer(): Promise<void> {
  assertEmulator();
  const auth = getAuth(getApps()[0] ?? initializeApp({ projectId: PROJECT_ID }));
  try {
    await auth.getUserByEmail(DEMO_CUSTOMER.email);
  } catch {
    await auth.createUser({ ...DEMO_CUSTOMER, emailVerified: true });
  }
}

/**
 * The demo shop's fulfilment (issue 27), so `npm start` shows every method: pickup in Springfield,
 * free local delivery in its 627* zipcodes, post in three zones (free from $50), tax included at
 * 6.25%. Checked by the contract's schema, like a save from the Settings page.
 */
export const DEMO_FULFILMENT: FulfilmentSettings = FulfilmentSettingsSchema.parse({
  pickup: { enabled: true, address: 'Book Store, 12 Main Street\nSpringfield, IL 62701', hours: 'Mon-Fri 9:00-18:00, Sat 10:00-16:00', holdDays: 7 },
  local: { enabled: true, priceCents: 0, country: 'US', zipcodes: ['627*'] },
  post: {
    enabled: true,
    freeFromCents: 5000,
    zones: [
      { name: 'United States', places: [{ country: 'US' }], rates: [{ upToGrams: 500, priceCents: 399 }, { upToGrams: 1000, priceCents: 599 }, { upToGrams: 3000, priceCents: 999 }] },
      { name: 'Canada and Mexico', places: [{ country: 'CA' }, { country: 'MX' }], rates: [{ upToGrams: 1000, priceCents: 1299 }, { upToGrams: 3000, priceCents: 1999 }] },
      { name: 'Rest of the world', places: [{ country: '*' }], rates: [{ upToGrams: 1000, priceCents: 1999 }, { upToGrams: 3000, priceCents: 3499 }] },
    ],
  },
  defaultWeightGrams: 400,
  tax: { mode: 'included', label: 'Sales tax', rateBp: 625, regions: [] },
}) as FulfilmentSettings;

/** The demo fulfilment settings, unless the shop has its own (a database from before issue 27 gets them too). */
export async function seedSettings(): Promise<void> {
  assertEmulator();
  const ref = adminDb().collection('settings').doc('shop');
  await adminDb().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (snap.data()?.fulfilment === undefined) tx.set(ref, { fulfilment: DEMO_FULFILMENT }, { merge: true });
  });
}

/** Seeds an empty database; a database with books (even if the shop deleted some) is left alone. */
export async function seedIfEmpty(): Promise<boolean> {
  const db = adminDb();
  const [books, admins] = await Promise.all([db.collection('books').limit(1).get(), db.collection('admins').limit(1).get()]);
  if (!books.empty || !admins.empty) {
    await Promise.all([seedCustomer(), seedSettings()]);
    return false;
  }
  await Promise.all([writeBooks(seedBooks()), seedAdmin(), seedCustomer(), seedSettings()]);
  return true;
}
