import { BOOK_DETAIL_FIELDS, type ImportRowError } from '@bookstore/contract';
import { appendAudit, openAudit, type AuditActor } from '../admin/audit.repo';
import { FieldValue, type DocumentReference, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { books, toDoc, type BookDoc } from './books.repo';
import { releaseRestocked } from '../subscriptions/stock-alerts.repo';
import { bumpCatalogVersion } from './catalog-version';
import type { ImportRow } from './import.rows';

// Upserting imported books. Matching: an `id` column names the book; otherwise the ISBN. A new
// book gets the id `isbn-<13 digits>`, so a re-import finds it with getAll (one read per row, no
// query) and two imports of the same file racing each other write one document, not two. ISBNs not
// found that way are looked up with `where('isbn', 'in', [...30])` queries, so books added by hand
// (random ids) are updated, never duplicated. Unchanged rows write nothing.

/** Firestore allows 500 writes per batch and 30 values per `in` filter. */
const BATCH_WRITES = 497; // plus the catalogue version bump, the audit event and the audit chain's head: at most 500 writes
const IN_VALUES = 30;

export interface ImportWrite {
  ref: DocumentReference;
  doc: BookDoc;
  /** The stored version an update replaces; absent for a new book. */
  before?: BookDoc;
}

export interface ImportPlan {
  writes: ImportWrite[];
  created: number;
  updated: number;
  unchanged: number;
  errors: ImportRowError[];
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function getAll(refs: DocumentReference[]): Promise<Map<string, DocumentSnapshot>> {
  const found = new Map<string, DocumentSnapshot>();
  const parts = await Promise.all(chunks(refs, 100).map((part) => db().getAll(...part)));
  countReads(refs.length);
  for (const snap of parts.flat()) found.set(snap.id, snap);
  return found;
}

/** Existing books by ISBN (the first one, if a hand-made duplicate exists). */
async function booksByIsbn(isbns: string[]): Promise<Map<string, DocumentSnapshot>> {
  const found = new Map<string, DocumentSnapshot>();
  const unique = [...new Set(isbns)];
  const answers = await Promise.all(chunks(unique, IN_VALUES).map((part) => runQuery(books().where('isbn', 'in', part))));
  for (const snap of answers.flatMap((a) => a.docs)) {
    const isbn = (snap.data() as BookDoc).isbn!;
    if (!found.has(isbn)) found.set(isbn, snap);
  }
  return found;
}

/** Compares what a reader sees (every field but updatedAt). */
function sameBook(a: BookDoc, b: BookDoc): boolean {
  const strip = ({ updatedAt: _u, ...rest }: BookDoc) => JSON.stringify(Object.entries(rest).sort(([x], [y]) => x.localeCompare(y)));
  return strip(a) === strip(b);
}

/** Decides, for each valid row, whether it creates, updates or leaves a book; reads only. */
export async function planImport(rows: ImportRow[], now = new Date().toISOString()): Promise<ImportPlan> {
  const plan: ImportPlan = { writes: [], created: 0, updated: 0, unchanged: 0, errors: [] };
  // First by id: rows named by id, and each ISBN's deterministic id (what an earlier import created).
  // A re-import is then answered by getAll alone; queries are left for the ISBNs not found that way
  // (books added by hand) and for id rows' ISBNs (which must not belong to another book).
  const wanted = rows.map((r) => r.id ?? `isbn-${r.input.isbn}`);
  const byId = await getAll([...new Set(wanted)].map((id) => books().doc(id)));
  const matchedById = (r: ImportRow, i: number) => !r.id && (byId.get(wanted[i]!)?.data() as BookDoc | undefined)?.isbn === r.input.isbn;
  const byIsbn = await booksByIsbn(rows.flatMap((r, i) => (r.input.isbn && !matchedById(r, i) ? [r.input.isbn] : [])));
  rows.forEach((r, i) => {
    let snap: DocumentSnapshot | undefined;
    let ref: DocumentReference;
    if (r.id) {
      ref = books().doc(r.id);
      snap = byId.get(r.id);
      const owner = r.input.isbn ? byIsbn.get(r.input.isbn) : undefined;
      if (owner && owner.id !== r.id) {
        plan.errors.push({ row: r.row, field: 'isbn', message: `ISBN already belongs to book ${owner.id}` });
        return;
      }
    } else if (matchedById(r, i)) {
      snap = byId.get(wanted[i]!);
      ref = books().doc(wanted[i]!);
    } else {
      snap = byIsbn.get(r.input.isbn!);
      const taken = byId.get(wanted[i]!)?.exists; // a book whose ISBN was since edited by hand
      ref = snap ? snap.ref : taken ? books().doc() : books().doc(wanted[i]!);
    }
    const before = snap?.exists ? (snap.data() as BookDoc) : undefined;
    if (!before) {
      if (!r.given.coverImage) {
        plan.errors.push({ row: r.row, field: 'coverImage', message: 'Cover image is required' });
        return;
      }
      plan.writes.push({ ref, doc: toDoc({ ...r.input, stock: r.input.stock ?? 0 }, now, now, ref.id) });
      plan.created += 1;
      return;
    }
    const kept = Object.fromEntries(BOOK_DETAIL_FIELDS.filter((f) => !r.given.details.includes(f)).map((f) => [f, before[f]]));
    const input = {
      ...r.input,
      ...kept,
      coverImage: r.given.coverImage ? r.input.coverImage : before.coverImage,
      stock: r.given.stock ? r.input.stock : before.stock,
      trending: r.given.trending ? r.input.trending : before.trending,
      weightGrams: r.given.weightGrams ? r.input.weightGrams : before.weightGrams,
    };
    const doc = toDoc(input, now, before.createdAt, before.tie ?? ref.id);
    if (sameBook(before, doc)) {
      plan.unchanged += 1;
      return;
    }
    plan.writes.push({ ref, doc, before });
    plan.updated += 1;
  });
  return plan;
}

/** The fields of `after` that differ from `before` (removed ones as deletes): what an update writes. */
export function changedFields(before: BookDoc, after: BookDoc): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  const b = before as unknown as Record<string, unknown>;
  const a = after as unknown as Record<string, unknown>;
  for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (JSON.stringify(b[key]) === JSON.stringify(a[key])) continue;
    changes[key] = key in a && a[key] !== undefined ? a[key] : FieldValue.delete();
  }
  return changes;
}

/**
 * THE one place the import writes books: batches of at most 500 writes, committed one after
 * another. Anything that must follow every book write (a catalogue version, a search index) hooks
 * here, with `writes` telling which books were created (no `before`) or changed.
 */
export async function commitImport(writes: ImportWrite[], actor: AuditActor): Promise<void> {
  for (const part of chunks(writes, BATCH_WRITES)) {
    // A transaction whose one read is the audit chain's head (the books were read by the plan).
    await db().runTransaction(async (tx) => {
      const log = await openAudit(tx);
      // A new book is written whole; an update writes only the fields this import changes, so a stock
      // decrement an order committed since the plan read the book is kept (no lost update), and a
      // book deleted meanwhile is not brought back half-made (the commit fails: 409, import again).
      for (const w of part) {
        if (w.before) tx.update(w.ref, changedFields(w.before, w.doc));
        else tx.set(w.ref, w.doc);
      }
      // One audit event per commit (one per request up to 497 books): which books it created and
      // updated, not every field of each (docs/decisions/021-staff-accounts.md).
      const created = part.filter((w) => !w.before).map((w) => w.ref.id);
      const updated = part.filter((w) => w.before).map((w) => w.ref.id);
      appendAudit(log, actor, { action: 'book.import', target: 'import', changes: { created: { before: null, after: created }, updated: { before: null, after: updated } } });
      bumpCatalogVersion(tx); // search indexes rebuild, as after any book write
    }).catch((error: { code?: number }) => {
      if (error.code === 5 /* NOT_FOUND */) throw new HttpError(409, 'A book in this file was deleted while it was being imported. Import the file again.');
      throw error;
    });
    // Back in stock (0 -> more): the commit does not read the books, so each such book's alerts are
    // released after it, in transactions of their own that re-read its stock (issue 28).
    const restocked = part.filter((w) => w.before && (w.before.stock ?? 0) <= 0 && w.doc.stock > 0).map((w) => w.ref.id);
    await releaseRestocked(restocked);
  }
}

export async function importBooks(rows: ImportRow[], options: { dryRun: boolean; actor: AuditActor }): Promise<ImportPlan> {
  const plan = await planImport(rows);
  if (!options.dryRun && plan.writes.length > 0) await commitImport(plan.writes, options.actor);
  return plan;
}
