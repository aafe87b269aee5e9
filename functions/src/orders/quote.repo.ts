import type { FulfilmentSettings } from '@bookstore/contract';
import { fulfilmentFrom, settingsRef } from '../admin/settings.repo';
import { catalogVersionRef } from '../books/catalog-version';
import { db } from '../lib/firebase';
import { countReads } from '../lib/read-counter';
import { takeCountedSlot } from '../lib/counted-limit';
import type { WindowLimit } from '../lib/window-limit';
import { contentVersion } from './quote-cache';

// What a quote reads before its books: the client's budget, and the settings and catalogue versions
// that key the cache (quote-cache.ts).

/**
 * Quotes per client address (as Hosting reports it: admin/client-address.ts) per minute. A shopper's
 * checkout asks once per settled address change and method (about 5 to 20 in a checkout); 60 a minute
 * leaves room for a household or office behind one address, and bounds a script to 60 x 53 reads a
 * minute per address (docs/api.md). One document per quote in quoteSlots, counted (no transaction:
 * lib/counted-limit.ts) and forgotten by Firestore's TTL (firestore.indexes.json).
 */
export const QUOTES_PER_MINUTE = 60;

const QUOTE_LIMIT: WindowLimit = {
  collection: 'quoteSlots',
  limit: QUOTES_PER_MINUTE,
  windowMs: 60_000,
  message: 'Too many price checks from your address. Try again in a minute.',
};

/** One quote for `client`; 429 with Retry-After once its minute's budget is spent. One write and one read (a count). */
export async function countQuote(client: string, now = Date.now()): Promise<void> {
  await takeCountedSlot(QUOTE_LIMIT, client, now);
}

export interface PricingInputs {
  settings: FulfilmentSettings;
  settingsVersion: string;
  catalogVersion: number;
}

/** settings/shop and meta/catalog in one getAll: two reads. */
export async function readPricingInputs(): Promise<PricingInputs> {
  const [settingsSnap, catalogSnap] = await db().getAll(settingsRef(), catalogVersionRef());
  countReads(2);
  const settings = fulfilmentFrom(settingsSnap);
  return { settings, settingsVersion: contentVersion(settings), catalogVersion: (catalogSnap!.get('version') as number | undefined) ?? 0 };
}
