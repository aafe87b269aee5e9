import { FieldPath, type Query } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { books } from './books.repo';

// Sitemap files split by count (issue 58): the books in document-id order, URLS_PER_FILE to a file,
// each file one id range [its start, the next file's start), read in pages of PAGE books and never
// more than MAX_URLS_PER_FILE (the protocol's limit; a file of them stays far under its 50 MB). The
// starts are the plan, written by the search index's builder from the ids it reads anyway
// (search-build.ts), so the index costs one read; until a builder has run, they are found by reading
// the ids in pages (selecting no field).

/** The protocol's limits for one file: 50,000 URLs and 50 MB (uncompressed). */
export const MAX_URLS_PER_FILE = 50_000;
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
/** Books planned per file: room under MAX_URLS_PER_FILE for books added before the next plan. */
export const URLS_PER_FILE = 40_000;
/** Books per Firestore query while a file (or a plan) is read. */
export const PAGE = 1000;

export interface SitemapEntry {
  id: string;
  updatedAt: string;
}

/** Where each file starts: the id of its first book (file 1 starts at the beginning: ''), for files of `perFile` books. */
export interface SitemapPlan {
  perFile: number;
  starts: string[];
  books: number;
}

export const sitemapPlanRef = () => db().collection('meta').doc('sitemap');

/** The plan from every book id (any order): the id at each perFile-th place, in Firestore's id order. */
export function planFromIds(ids: string[], perFile = URLS_PER_FILE): SitemapPlan {
  const sorted = [...ids].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))); // UTF-8 byte order, as Firestore's
  const starts = [''];
  for (let i = perFile; i < sorted.length; i += perFile) starts.push(sorted[i]!);
  return { perFile, starts, books: sorted.length };
}

const byId = (): Query => books().orderBy(FieldPath.documentId());

/** Every book id, in pages (no field read): the plan's fallback before the builder has written one. */
async function allIds(): Promise<string[]> {
  const ids: string[] = [];
  for (let after: string | undefined; ; ) {
    const q = byId().select().limit(PAGE);
    const snap = await runQuery(after ? q.startAfter(after) : q);
    ids.push(...snap.docs.map((doc) => doc.id));
    if (snap.size < PAGE) return ids;
    after = snap.docs.at(-1)!.id;
  }
}

/** The stored plan for files of `perFile` books, else one made now from the ids. */
export async function readSitemapPlan(perFile = URLS_PER_FILE): Promise<SitemapPlan> {
  const snap = await sitemapPlanRef().get();
  countReads(1);
  const stored = snap.data() as SitemapPlan | undefined;
  if (stored && stored.perFile === perFile && Array.isArray(stored.starts) && stored.starts.length > 0) return stored;
  return planFromIds(await allIds(), perFile);
}

/** The books of file `n` (1-based) of `plan`, in id order, in pages; at most MAX_URLS_PER_FILE - `reserved`. */
export async function sitemapEntries(plan: SitemapPlan, n: number, reserved = 0): Promise<SitemapEntry[]> {
  const from = plan.starts[n - 1];
  const to = plan.starts[n];
  const most = MAX_URLS_PER_FILE - reserved;
  const out: SitemapEntry[] = [];
  for (let after: string | undefined; out.length < most; ) {
    let q = byId();
    if (after) q = q.startAfter(after);
    else if (from) q = q.startAt(from);
    if (to) q = q.endBefore(to);
    const limit = Math.min(PAGE, most - out.length);
    const snap = await runQuery(q.select('updatedAt').limit(limit));
    out.push(...snap.docs.map((doc) => ({ id: doc.id, updatedAt: String(doc.get('updatedAt') ?? '') })));
    if (snap.size < limit) break;
    after = snap.docs.at(-1)!.id;
  }
  return out;
}
