import { createHash } from 'node:crypto';
import { postcodeKey, type DeliveryMethod, type Quote } from '@bookstore/contract';

// POST /api/checkout/quote's answers, kept per instance: a shopper's checkout asks again for the same
// cart and place (a method clicked back, a field left and re-entered), and each answer read up to 50
// books. The key is everything the answer depends on: the cart as sent, the method, the place, the
// fulfilment settings' version (a hash of their content) and the catalogue's version (meta/catalog,
// bumped by every book create, edit and delete; stock is not priced). Both versions are read at
// every call, so a saved setting or a new price is never answered from here.

/** Entries per instance: each a quote of a few KB, so at most a few MB. */
export const QUOTE_CACHE_ENTRIES = 500;

export interface QuoteKeyParts {
  productIDs: readonly string[];
  method?: DeliveryMethod;
  country?: string;
  region?: string;
  zipcode?: string;
  settingsVersion: string;
  catalogVersion: number;
}

export function quoteKey(parts: QuoteKeyParts): string {
  return JSON.stringify([parts.settingsVersion, parts.catalogVersion, parts.productIDs, parts.method ?? null, parts.country ?? null, parts.region ?? null, postcodeKey(parts.zipcode) || null]);
}

/** The version of a settings object: the sha256 of its JSON (the same content, the same version, on every instance). */
export function contentVersion(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 22);
}

/** Least recently used out first, at `capacity` entries (a Map keeps insertion order: a hit moves to the end). */
export class QuoteCache {
  private readonly entries = new Map<string, Quote>();
  constructor(private readonly capacity = QUOTE_CACHE_ENTRIES) {}

  get(key: string): Quote | undefined {
    const quote = this.entries.get(key);
    if (quote === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, quote);
    return quote;
  }

  set(key: string, quote: Quote): void {
    this.entries.delete(key);
    this.entries.set(key, quote);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}
