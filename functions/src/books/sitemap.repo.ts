import type { Query } from 'firebase-admin/firestore';
import { runCount, runQuery } from '../lib/queries';
import { books } from './books.repo';

// Sitemap files without offsets: every book stores `tie`, its id (or an id-like random value),
// uniform over a 64-character alphabet, so that space is cut into equal ranges by the first two
// characters and each file is one range query on `tie` (it reads only its own books, about
// BOOKS_PER_FILE of them). Any value falls in exactly one range.

/** Sitemaps allow 50,000 urls; Google advises smaller files. Ranges are sized for about 4,000. */
export const MAX_URLS_PER_FILE = 5000;
const BOOKS_PER_FILE = 4000;
const ALPHABET = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz'; // byte order
const PREFIXES = ALPHABET.length ** 2;

export interface SitemapEntry {
  id: string;
  updatedAt: string;
}

export async function countBooksForSitemap(): Promise<number> {
  return runCount(books());
}

export function sitemapFileCount(total: number): number {
  return total <= MAX_URLS_PER_FILE ? 1 : Math.ceil(total / BOOKS_PER_FILE);
}

function prefixAt(i: number): string {
  return ALPHABET[Math.floor(i / ALPHABET.length)]! + ALPHABET[i % ALPHABET.length]!;
}

/** The ids of sitemap file `n` (1-based) out of `files`: from <= id < to (open at the ends). */
export function idRange(n: number, files: number): { from?: string; to?: string } {
  return {
    ...(n > 1 ? { from: prefixAt(Math.floor(((n - 1) * PREFIXES) / files)) } : {}),
    ...(n < files ? { to: prefixAt(Math.floor((n * PREFIXES) / files)) } : {}),
  };
}

/** The books of sitemap file `n` (1-based) out of `files`. */
export async function sitemapEntries(n: number, files: number): Promise<SitemapEntry[]> {
  let q: Query = books();
  if (files > 1) {
    const { from, to } = idRange(n, files);
    if (from) q = q.where('tie', '>=', from);
    if (to) q = q.where('tie', '<', to);
    q = q.orderBy('tie');
  }
  const snap = await runQuery(q.select('updatedAt'));
  return snap.docs.map((doc) => ({ id: doc.id, updatedAt: String(doc.get('updatedAt') ?? '') }));
}
