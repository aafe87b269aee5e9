import { bookFieldsOf, type BookFieldName, type BookFields, type BookPatch, type ImportRowError } from '@bookstore/contract';
import type { DocumentReference, DocumentSnapshot } from 'firebase-admin/firestore';
import type { AuditActor } from '../admin/audit.repo';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { runQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { books, type BookDoc } from './book-doc';
import { commitBookWrites, wouldChange } from './book-writes';
import { bumpCatalogVersionNow } from './catalog-version';
import type { ImportRow } from './import.rows';

// Upserting imported books. Matching: an `id` column names the book; otherwise the ISBN. A new
// book gets the id `isbn-<13 digits>`, so a re-import finds it with getAll (one read per row, no
// query) and two imports of the same file racing each other write one document, not two. ISBNs not
// found that way are looked up with `where('isbn', 'in', [...30])` queries, so books added by hand
// (random ids) are updated, never duplicated. Unchanged rows write nothing. The writes go through
// the book write path (book-writes.ts), in transactions that read each book again: an update
// changes only the fields its row sets, on the book as it is then (a copy sold since the plan stays
// sold), with an audit event per book ('book.import', its fields before and after).

/**
 * Books per transaction: each is 2 writes (the book, its audit event), plus the audit chain's head,
 * the catalogue version and up to 200 writes of back-in-stock alerts, within Firestore's 500 writes
 * per commit. 30 values per `in` filter.
 */
const BOOKS_PER_TRANSACTION = 140;
const IN_VALUES = 30;

export type ImportWrite = { ref: DocumentReference } & ({ create: BookFields } | { patch: BookPatch });

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

/** The fields a row sets on a book it updates (a blank one clears it). */
function patchOf(r: ImportRow): BookPatch {
  return Object.fromEntries(r.given.map((name: BookFieldName) => [name, r.input[name] ?? null])) as BookPatch;
}

/** Decides, for each valid row, whether it creates, updates or leaves a book; reads only. */
export async function planImport(rows: ImportRow[]): Promise<ImportPlan> {
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
    if (!snap?.exists) {
      if (!r.given.includes('coverImage')) {
        plan.errors.push({ row: r.row, field: 'coverImage', message: 'Cover image is required' });
        return;
      }
      plan.writes.push({ ref, create: bookFieldsOf(r.input) });
      plan.created += 1;
      return;
    }
    const patch = patchOf(r);
    if (!wouldChange(snap, patch)) {
      plan.unchanged += 1;
      return;
    }
    plan.writes.push({ ref, patch });
    plan.updated += 1;
  });
  return plan;
}

/**
 * Commits a plan, in transactions of BOOKS_PER_TRANSACTION books through the write path: each
 * book read again, then created or changed (only the fields its row sets), with its audit event.
 * A book deleted since the plan read it is not brought back half-made: 409, import again.
 */
export async function commitImport(writes: ImportWrite[], actor: AuditActor): Promise<void> {
  // The catalogue version moves once, after the last chunk (issue 58): each move starts a search
  // index build, which at 100,000 books takes minutes. In `finally`: chunks committed before a
  // failure are searchable too.
  let committed = 0;
  try {
    for (const part of chunks(writes, BOOKS_PER_TRANSACTION)) {
      await commitImportChunk(part, actor);
      committed += 1;
    }
  } finally {
    if (committed > 0) await bumpCatalogVersionNow();
  }
}

async function commitImportChunk(part: ImportWrite[], actor: AuditActor): Promise<void> {
  await commitBookWrites({ staff: actor, action: 'book.import', versionLater: true }, async (tx) => {
    const snaps = await tx.getAll(...part.map((w) => w.ref));
    countReads(part.length);
    return part.map((w, i) => {
      const snap = snaps[i]!;
      // The same file imported twice at once: the other import created it first, this one updates it.
      if ('create' in w) return snap.exists ? { book: snap, set: w.create } : { create: w.create, ref: w.ref };
      if (!snap.exists) throw new HttpError(409, 'A book in this file was deleted while it was being imported. Import the file again.');
      return { book: snap, set: w.patch };
    });
  });
}

export async function importBooks(rows: ImportRow[], options: { dryRun: boolean; actor: AuditActor }): Promise<ImportPlan> {
  const plan = await planImport(rows);
  if (!options.dryRun && plan.writes.length > 0) await commitImport(plan.writes, options.actor);
  return plan;
}
